local hex = require("colorpick.hex")

describe("colorpick.hex", function()
  it("parses #rrggbb", function()
    assert.are.same({ 255, 128, 0 }, hex.to_rgb("#ff8000"))
  end)

  it("formats rgb back to hex", function()
    assert.are.equal("#ff8000", hex.from_rgb(255, 128, 0))
  end)

  it("returns nil for garbage", function()
    assert.is_nil(hex.to_rgb("not-a-color"))
  end)
end)
