import Tests.Parser
import Tests.Printer

def main : IO UInt32 := do
  let failures ← (Tests.Parser.run) <&> (· + ·) <*> Tests.Printer.run
  if failures == 0 then
    IO.println "all tests passed"; return 0
  else
    IO.eprintln s!"{failures} test(s) failed"; return 1
