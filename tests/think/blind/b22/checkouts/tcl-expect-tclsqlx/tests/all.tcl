# all.tcl -- run every *.test file in this directory
package require Tcl 8.6
package require tcltest 2.5
namespace import ::tcltest::*

set here [file dirname [file normalize [info script]]]
lappend auto_path [file join $here .. lib]
configure -testdir $here {*}$argv
if {[runAllTests]} { exit 1 }
