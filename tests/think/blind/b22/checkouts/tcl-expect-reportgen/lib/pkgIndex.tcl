package ifneeded report 2.0 [list source [file join $dir report.tcl]]
