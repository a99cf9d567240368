local lust = require("lust")
local describe, it, expect = lust.describe, lust.it, lust.expect
local crops = require("src.crops")

describe("crops", function()
  it("grows one stage per day when watered", function()
    local c = crops.plant("turnip")
    crops.tick(c, { watered = true })
    expect(c.stage).to.equal(2)
  end)
end)
