module Test.Invoicer.MoneySpec where

import Prelude

import Invoicer.Money (Cents(..), addVat, formatGbp)
import Test.Spec (Spec, describe, it)
import Test.Spec.Assertions (shouldEqual)

spec :: Spec Unit
spec = describe "Invoicer.Money" do
  describe "addVat" do
    it "adds 20% to whole pounds" do
      addVat 20 (Cents 10000) `shouldEqual` Cents 12000
    it "rounds half up" do
      addVat 20 (Cents 1) `shouldEqual` Cents 1
  describe "formatGbp" do
    it "formats pence with two digits" do
      formatGbp (Cents 1205) `shouldEqual` "£12.05"
