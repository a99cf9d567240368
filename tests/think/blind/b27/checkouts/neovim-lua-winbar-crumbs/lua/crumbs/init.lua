local path = require("crumbs.path")

local M = {}

M.config = {
  separator = " › ",
  max_depth = 4,
}

function M.render(bufnr)
  local name = vim.api.nvim_buf_get_name(bufnr or 0)
  if name == "" then
    return ""
  end
  local segs = path.segments(vim.fn.fnamemodify(name, ":~:."))
  if #segs > M.config.max_depth then
    segs = vim.list_slice(segs, #segs - M.config.max_depth + 1)
    table.insert(segs, 1, "…")
  end
  return table.concat(segs, M.config.separator)
end

function M.setup(opts)
  M.config = vim.tbl_deep_extend("force", M.config, opts or {})
  vim.o.winbar = "%{%v:lua.require'crumbs'.render()%}"
end

return M
