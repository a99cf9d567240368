local steer = require("src.ai.steering")

describe("steering.seek", function()
  it("points toward the target at max speed", function()
    local vx, vy = steer.seek({ x = 0, y = 0 }, { x = 10, y = 0 }, 5)
    assert.are.equal(5, vx)
    assert.are.equal(0, vy)
  end)
end)
