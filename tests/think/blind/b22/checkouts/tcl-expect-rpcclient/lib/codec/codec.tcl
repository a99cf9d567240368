package provide codec 1.0
namespace eval ::codec {}
proc ::codec::encode {v} { return [binary format Ia* [string length $v] $v] }
proc ::codec::decode {b} { binary scan $b Ia* n v; return $v }
