local semver = require("semver")

describe("semver.parse", function()
  it("parses a plain version", function()
    local v = semver.parse("1.2.3")
    assert.are.same({ 1, 2, 3 }, { v.major, v.minor, v.patch })
  end)

  it("parses a prerelease", function()
    assert.are.equal("rc.1", semver.parse("1.2.3-rc.1").prerelease)
  end)

  it("rejects garbage", function()
    assert.is_nil(semver.parse("one.two"))
    assert.is_nil(semver.parse("1.2"))
  end)
end)
