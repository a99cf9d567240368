local router = require "gateway.router"

describe("gateway.router", function()
  before_each(function() router.init() end)

  it("matches a prefix", function()
    assert.are.equal("orders", router.match("/v1/orders/42").upstream)
  end)

  it("returns nil for unknown paths", function()
    assert.is_nil(router.match("/nope"))
  end)
end)
