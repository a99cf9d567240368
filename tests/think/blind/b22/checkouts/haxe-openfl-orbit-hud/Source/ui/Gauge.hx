package ui;

import openfl.display.Sprite;

class Gauge extends Sprite {
	public var value(default, set):Float = 0;
	var maxValue:Float;

	public function new(maxValue:Float) {
		super();
		this.maxValue = maxValue;
		redraw();
	}

	function set_value(v:Float):Float {
		value = Math.min(v, maxValue);
		redraw();
		return value;
	}

	function redraw() {
		graphics.clear();
		graphics.beginFill(0x2EA043);
		graphics.drawRect(0, 0, 200 * (value / maxValue), 12);
		graphics.endFill();
	}
}
