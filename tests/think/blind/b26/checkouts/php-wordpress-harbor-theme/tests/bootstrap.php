<?php
$_tests_dir = getenv( 'WP_TESTS_DIR' ) ?: '/tmp/wordpress-tests-lib';
require_once "{$_tests_dir}/includes/functions.php";
tests_add_filter( 'setup_theme', function () { register_theme_directory( dirname( dirname( __DIR__ ) ) ); switch_theme( 'harbor-theme' ); } );
require "{$_tests_dir}/includes/bootstrap.php";
