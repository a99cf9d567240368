#![no_std]
#![no_main]

// single-file firmware: PIO-driven WS2812 ring on GPIO16
// (see git history for the full file)
