module Test.SlugSpec where

import Prelude

import Handbook.Slug (slugify)
import Test.Spec (Spec, describe, it)
import Test.Spec.Assertions (shouldEqual)

spec :: Spec Unit
spec = describe "Handbook.Slug" do
  it "lowercases and hyphenates" do
    slugify "Getting Started" `shouldEqual` "getting-started"
  it "drops punctuation" do
    slugify "What's new?" `shouldEqual` "whats-new"
  it "collapses repeated separators" do
    slugify "Build -- and  Deploy" `shouldEqual` "build-and-deploy"
