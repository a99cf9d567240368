local sonar = require("src.sonar")

describe("sonar", function()
  it("fades pings over time", function()
    local p = sonar.ping(0, 0)
    sonar.update(p, 1.0)
    assert.is_true(p.alpha < 1)
  end)
end)
