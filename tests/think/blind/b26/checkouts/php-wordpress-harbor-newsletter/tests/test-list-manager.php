<?php
class Test_List_Manager extends WP_UnitTestCase {
	public function test_subscribe_adds_to_default_list() {
		$manager = new Harbor_List_Manager();
		$sub     = Harbor_Subscriber::create( 'grace@example.com' );
		$manager->subscribe( $sub );
		$this->assertTrue( $manager->is_subscribed( $sub, 'default' ) );
	}
}
