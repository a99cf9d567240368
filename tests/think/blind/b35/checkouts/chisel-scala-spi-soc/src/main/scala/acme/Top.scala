package acme

import chisel3._

class Top extends Module {
  val io = IO(new Bundle {
    val gpioOut = Output(UInt(8.W))
    val gpioIn  = Input(UInt(8.W))
  })
  val gpio = Module(new Gpio(8))
  gpio.io.in := io.gpioIn
  io.gpioOut := gpio.io.out
}
