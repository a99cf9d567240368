import lumen.Matcher;
import utest.Assert;
import utest.Test;

class TestMatcher extends Test {
	function testStatic() {
		Assert.isTrue(new Matcher("/health").matches("/health"));
	}

	function testParam() {
		var m = new Matcher("/users/:id");
		Assert.same({id: "42"}, m.params("/users/42"));
	}
}
