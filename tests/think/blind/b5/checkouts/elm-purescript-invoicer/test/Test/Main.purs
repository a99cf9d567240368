module Test.Main where

import Prelude

import Effect (Effect)
import Test.Invoicer.MoneySpec as MoneySpec
import Test.Spec.Reporter.Console (consoleReporter)
import Test.Spec.Runner.Node (runSpecAndExitProcess)

main :: Effect Unit
main = runSpecAndExitProcess [ consoleReporter ] do
  MoneySpec.spec
