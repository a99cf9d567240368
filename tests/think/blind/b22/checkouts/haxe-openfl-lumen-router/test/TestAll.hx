class TestAll {
	static function main() {
		utest.UTest.run([new TestMatcher(), new TestParams()]);
	}
}
