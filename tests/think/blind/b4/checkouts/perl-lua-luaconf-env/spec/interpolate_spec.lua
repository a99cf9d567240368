local confenv = require("confenv")

describe("interpolate", function()
  it("substitutes a variable from the env table", function()
    assert.are.equal("host=db1", confenv.interpolate("host=${DB_HOST}", { DB_HOST = "db1" }))
  end)

  it("leaves text without placeholders alone", function()
    assert.are.equal("plain", confenv.interpolate("plain", {}))
  end)

  it("errors on an undefined variable", function()
    assert.has_error(function() confenv.interpolate("${NOPE_NOT_SET}", {}) end,
      "undefined environment variable 'NOPE_NOT_SET'")
  end)
end)
