<?php
/**
 * Plugin Name: Tidewater Blocks
 * Version: 0.4.0
 * Requires at least: 6.4
 */
add_action( 'init', function () {
	register_block_type( __DIR__ . '/build/blocks/tide-chart' );
} );
