<?php
class Test_Meta_Tags extends WP_UnitTestCase {
	public function test_description_falls_back_to_excerpt() {
		$post_id = self::factory()->post->create( array( 'post_excerpt' => 'Short summary.' ) );
		$this->go_to( get_permalink( $post_id ) );
		$tags = new Saltmarsh_SEO_Meta_Tags();
		$this->assertSame( 'Short summary.', $tags->get_description() );
	}
}
