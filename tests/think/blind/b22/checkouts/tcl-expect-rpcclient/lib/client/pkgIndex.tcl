package ifneeded rpcclient 1.1 [list source [file join $dir client.tcl]]
