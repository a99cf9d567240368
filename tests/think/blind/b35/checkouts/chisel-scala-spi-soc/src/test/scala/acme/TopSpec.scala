package acme

import chisel3._
import chiseltest._
import org.scalatest.flatspec.AnyFlatSpec

class TopSpec extends AnyFlatSpec with ChiselScalatestTester {
  "Top" should "loop gpio through the register" in {
    test(new Top) { c =>
      c.io.gpioIn.poke(0x5a.U)
      c.clock.step(2)
      c.io.gpioOut.expect(0x5a.U)
    }
  }
}
