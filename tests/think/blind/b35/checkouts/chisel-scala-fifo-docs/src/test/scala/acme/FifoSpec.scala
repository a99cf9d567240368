package acme

import chisel3._
import chiseltest._
import org.scalatest.flatspec.AnyFlatSpec

class FifoSpec extends AnyFlatSpec with ChiselScalatestTester {
  behavior of "Fifo"

  it should "pop in order" in {
    test(new Fifo(UInt(8.W), depth = 4)) { c =>
      val values = Seq(7, 3, 9, 1)
      c.io.enq.valid.poke(true.B)
      for (v <- values) { c.io.enq.bits.poke(v.U); c.clock.step() }
      c.io.enq.valid.poke(false.B)
      c.io.deq.ready.poke(true.B)
      for (v <- values) { c.io.deq.bits.expect(v.U); c.clock.step() }
    }
  }
}
