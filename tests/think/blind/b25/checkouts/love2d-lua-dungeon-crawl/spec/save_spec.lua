local save = require("src.save")

describe("save", function()
  it("round-trips the game state", function()
    save.write({ level = 3, hp = 17 })
    local s = save.read()
    assert.are.same({ level = 3, hp = 17 }, s)
  end)

  it("returns nil when there is no save", function()
    love.filesystem.write("save.lua", nil)
    assert.is_nil(save.read())
  end)
end)
