package acme

import chisel3._
import chisel3.util._

/** 8N1 UART transmitter. `divisor` clock cycles per bit. */
class UartTx(divisor: Int) extends Module {
  val io = IO(new Bundle {
    val in  = Flipped(Decoupled(UInt(8.W)))
    val txd = Output(Bool())
  })

  val shift   = RegInit(0x3ff.U(10.W))
  val bitsLeft = RegInit(0.U(4.W))
  val tick    = Counter(divisor)

  io.in.ready := bitsLeft === 0.U
  when(io.in.fire) {
    shift := Cat(1.U(1.W), io.in.bits, 0.U(1.W))
    bitsLeft := 10.U
    tick.reset()
  }.elsewhen(bitsLeft =/= 0.U && tick.inc()) {
    shift := Cat(1.U(1.W), shift(9, 1))
    bitsLeft := bitsLeft - 1.U
  }
  io.txd := shift(0)
}
