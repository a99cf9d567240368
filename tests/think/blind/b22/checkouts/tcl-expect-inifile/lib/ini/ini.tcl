# ini.tcl -- tiny INI reader
package require Tcl 8.6
package provide ini 0.3

namespace eval ::ini {
    namespace export parse read
}

# ::ini::parse text -> dict section -> dict key -> value
proc ::ini::parse {text} {
    set result [dict create]
    set section ""
    foreach line [split $text \n] {
        set line [string trim $line]
        if {$line eq "" || [string index $line 0] in {; #}} continue
        if {[regexp {^\[(.+)\]$} $line -> section]} {
            dict set result $section [dict create]
            continue
        }
        if {[regexp {^([^=]+?)\s*=\s*(.*)$} $line -> k v]} {
            dict set result $section $k $v
        }
    }
    return $result
}

proc ::ini::read {path} {
    set fh [open $path r]
    try { return [parse [::read $fh]] } finally { close $fh }
}
