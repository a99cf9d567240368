package acme

import chisel3._
import chisel3.util._

/** Byte-serial CRC-32 (IEEE 802.3, reflected, poly 0xEDB88320). */
class Crc32 extends Module {
  val io = IO(new Bundle {
    val clear = Input(Bool())
    val in    = Flipped(Valid(UInt(8.W)))
    val crc   = Output(UInt(32.W))
  })
  private val poly = "hedb88320".U(32.W)
  val state = RegInit("hffffffff".U(32.W))

  def step(c: UInt, b: Bool): UInt = {
    val lsb = c(0) ^ b
    Mux(lsb, (c >> 1) ^ poly, c >> 1)
  }

  when(io.clear) {
    state := "hffffffff".U
  }.elsewhen(io.in.valid) {
    state := (0 until 8).foldLeft(state)((c, i) => step(c, io.in.bits(i)))
  }
  io.crc := ~state
}
