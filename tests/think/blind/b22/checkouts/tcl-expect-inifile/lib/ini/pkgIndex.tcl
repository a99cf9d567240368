package ifneeded ini 0.3 [list source [file join $dir ini.tcl]]
