package ifneeded codec 1.0 [list source [file join $dir codec.tcl]]
