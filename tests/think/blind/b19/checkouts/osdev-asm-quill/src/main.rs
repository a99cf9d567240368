#![no_std]
#![no_main]
#![feature(custom_test_frameworks)]
#![test_runner(quill_os::test_runner)]
#![reexport_test_harness_main = "test_main"]

use core::panic::PanicInfo;
use quill_os::println;

#[no_mangle]
extern "C" fn _start() -> ! {
    quill_os::init();
    println!("quill {}", env!("CARGO_PKG_VERSION"));

    #[cfg(test)]
    test_main();

    quill_os::hlt_loop();
}

#[cfg(not(test))]
#[panic_handler]
fn panic(info: &PanicInfo) -> ! {
    println!("{}", info);
    quill_os::hlt_loop();
}

#[cfg(test)]
#[panic_handler]
fn panic(info: &PanicInfo) -> ! {
    quill_os::test_panic_handler(info)
}
