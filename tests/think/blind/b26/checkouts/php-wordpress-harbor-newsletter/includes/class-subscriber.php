<?php
class Harbor_Subscriber {
	public $email;
	public static function create( $email ) {
		$s = new self();
		$s->email = strtolower( trim( $email ) );
		return $s;
	}
}
