package acme

import chisel3._
import chisel3.util._

class Fifo[T <: Data](gen: T, depth: Int) extends Module {
  require(isPow2(depth), "depth must be a power of two")
  val io = IO(new Bundle {
    val enq = Flipped(Decoupled(gen))
    val deq = Decoupled(gen)
    val count = Output(UInt(log2Ceil(depth + 1).W))
    val almostFull = Output(Bool())
  })

  val mem   = Reg(Vec(depth, gen))
  val head  = Counter(depth)
  val tail  = Counter(depth)
  val count = RegInit(0.U(log2Ceil(depth + 1).W))

  val doEnq = io.enq.fire
  val doDeq = io.deq.fire
  when(doEnq) { mem(tail.value) := io.enq.bits; tail.inc() }
  when(doDeq) { head.inc() }
  count := count + doEnq.asUInt - doDeq.asUInt

  io.enq.ready := count =/= depth.U
  io.deq.valid := count =/= 0.U
  io.deq.bits  := mem(head.value)
  io.count := count
  io.almostFull := count === (depth - 1).U
}
