local path = require("crumbs.path")

describe("crumbs.path", function()
  it("splits a relative path into segments", function()
    assert.are.same({ "lua", "crumbs", "init.lua" }, path.segments("lua/crumbs/init.lua"))
  end)

  it("shortens the home directory to ~", function()
    local home = vim.loop.os_homedir()
    assert.are.same("~/notes.md", path.display(home .. "/notes.md"))
  end)
end)
