module Network.Wai.Middleware.RateLimitSpec (spec) where

import Test.Hspec
import Network.Wai.Test
import Network.Wai.Middleware.RateLimit

spec :: Spec
spec = describe "rateLimit" $
  it "returns 429 after the burst is used up" $ do
    pendingWith "needs fake clock"
