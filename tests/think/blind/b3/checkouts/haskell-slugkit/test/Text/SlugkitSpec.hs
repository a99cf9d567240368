module Text.SlugkitSpec (spec) where

import Test.Hspec
import Text.Slugkit

spec :: Spec
spec = describe "slugify" $ do
  it "lowercases and hyphenates" $
    slugify "Hello World" `shouldBe` "hello-world"
  it "drops punctuation" $
    slugify "C'est la vie!" `shouldBe` "cest-la-vie"
