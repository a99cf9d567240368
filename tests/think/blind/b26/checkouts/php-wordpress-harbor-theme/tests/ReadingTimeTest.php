<?php
class ReadingTimeTest extends WP_UnitTestCase {
	public function test_short_post_is_one_minute() {
		$id = self::factory()->post->create( array( 'post_content' => str_repeat( 'word ', 50 ) ) );
		$this->assertSame( 1, harbor_get_reading_time( $id ) );
	}
}
