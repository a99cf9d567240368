package provide rpcclient 1.1
package require codec 1.0

namespace eval ::rpcclient {}

proc ::rpcclient::call {host port method args} {
    set sock [socket $host $port]
    fconfigure $sock -translation binary
    puts -nonewline $sock [::codec::encode [list $method $args]]
    flush $sock
    set reply [::codec::decode [read $sock]]
    close $sock
    return $reply
}
