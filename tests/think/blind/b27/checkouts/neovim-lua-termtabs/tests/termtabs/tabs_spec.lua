local termtabs = require("termtabs")

describe("termtabs", function()
  before_each(function()
    termtabs.setup({})
  end)

  it("opens a terminal in a new tab", function()
    local before = #vim.api.nvim_list_tabpages()
    termtabs.open()
    assert.are.equal(before + 1, #vim.api.nvim_list_tabpages())
  end)
end)
