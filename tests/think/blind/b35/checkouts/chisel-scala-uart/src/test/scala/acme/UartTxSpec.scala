package acme

import chisel3._
import chiseltest._
import org.scalatest.flatspec.AnyFlatSpec

class UartTxSpec extends AnyFlatSpec with ChiselScalatestTester {
  behavior of "UartTx"

  it should "send start, data LSB first, stop" in {
    test(new UartTx(divisor = 4)) { c =>
      c.io.in.valid.poke(true.B)
      c.io.in.bits.poke(0xa5.U)
      c.clock.step()
      c.io.in.valid.poke(false.B)
      val expected = Seq(0) ++ (0 until 8).map(i => (0xa5 >> i) & 1) ++ Seq(1)
      for (b <- expected) {
        c.io.txd.expect(b.B)
        c.clock.step(4)
      }
    }
  }
}
