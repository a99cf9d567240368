<?php
$_tests_dir = getenv( 'WP_TESTS_DIR' ) ?: rtrim( sys_get_temp_dir(), '/\\' ) . '/wordpress-tests-lib';
require_once dirname( __DIR__ ) . '/vendor/yoast/phpunit-polyfills/phpunitpolyfills-autoload.php';
require_once "{$_tests_dir}/includes/functions.php";
tests_add_filter( 'muplugins_loaded', function () {
	require dirname( __DIR__ ) . '/saltmarsh-seo.php';
} );
require "{$_tests_dir}/includes/bootstrap.php";
