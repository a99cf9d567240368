package acme

import circt.stage.ChiselStage

object Emit extends App {
  ChiselStage.emitSystemVerilogFile(new Top, args, Array("--disable-all-randomization", "--strip-debug-info"))
}
