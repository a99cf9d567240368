package provide report 2.0

namespace eval ::report {}

proc ::report::rows {db sql} {
    set out {}
    $db eval $sql row {
        lappend out [lmap c $row(*) {set row($c)}]
    }
    return $out
}

proc ::report::to_text {rows} {
    join [lmap r $rows {join $r \t}] \n
}
