package acme

import chisel3._
import chisel3.simulator.EphemeralSimulator._
import org.scalatest.flatspec.AnyFlatSpec

class Crc32Spec extends AnyFlatSpec {
  "Crc32" should "match the IEEE check value for \"123456789\"" in {
    simulate(new Crc32) { c =>
      c.io.clear.poke(true.B); c.clock.step(); c.io.clear.poke(false.B)
      for (ch <- "123456789") {
        c.io.in.valid.poke(true.B)
        c.io.in.bits.poke(ch.toInt.U)
        c.clock.step()
      }
      c.io.in.valid.poke(false.B)
      c.io.crc.expect("hcbf43926".U)
    }
  }
}
