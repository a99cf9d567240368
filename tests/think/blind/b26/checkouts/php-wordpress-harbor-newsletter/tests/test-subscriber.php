<?php
class Test_Subscriber extends WP_UnitTestCase {
	public function test_create_normalises_email() {
		$sub = Harbor_Subscriber::create( ' Ada@Example.COM ' );
		$this->assertSame( 'ada@example.com', $sub->email );
	}
}
