import utest.Assert;
import utest.Test;

class PlayerTest extends Test {
	function testStartsWithTwoJumps() {
		var p = new Player(0, 0);
		Assert.equals(2, @:privateAccess p.jumpsLeft);
	}

	function testJumpSpeedIsPositive() {
		Assert.isTrue(Player.JUMP_SPEED > 0);
	}
}
