package;

import flixel.FlxG;
import flixel.FlxSprite;

class Player extends FlxSprite {
	public static inline var JUMP_SPEED = 260;
	var jumpsLeft:Int = 2;

	public function new(x:Float, y:Float) {
		super(x, y);
		loadGraphic("assets/images/hopper.png", true, 16, 16);
		acceleration.y = 600;
	}

	override public function update(elapsed:Float) {
		if (isTouching(FLOOR)) jumpsLeft = 2;
		if (FlxG.keys.justPressed.SPACE && jumpsLeft > 0) {
			velocity.y = -JUMP_SPEED;
			jumpsLeft--;
		}
		super.update(elapsed);
	}
}
