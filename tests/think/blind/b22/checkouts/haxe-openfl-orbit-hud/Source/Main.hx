package;

import openfl.display.Sprite;
import ui.Gauge;

class Main extends Sprite {
	var fuel:Gauge;

	public function new() {
		super();
		fuel = new Gauge(100);
		addChild(fuel);
	}
}
