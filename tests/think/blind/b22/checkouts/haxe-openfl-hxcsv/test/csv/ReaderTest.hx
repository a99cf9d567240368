package csv;

import massive.munit.Assert;

class ReaderTest {
	@Test
	public function parsesSimpleRows():Void {
		var rows = Reader.parse("a,b\n1,2\n");
		Assert.areEqual(2, rows.length);
		Assert.areEqual("2", rows[1][1]);
	}

	@Test
	public function parsesQuotedComma():Void {
		var rows = Reader.parse('x,"a,b"\n');
		Assert.areEqual("a,b", rows[0][1]);
	}
}
