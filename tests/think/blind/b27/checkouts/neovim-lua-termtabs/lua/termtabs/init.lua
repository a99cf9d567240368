local M = {}

M.config = { shell = vim.o.shell, name_prefix = "term" }

function M.setup(opts)
  M.config = vim.tbl_extend("force", M.config, opts or {})
end

function M.open(cmd)
  vim.cmd.tabnew()
  vim.fn.termopen(cmd or M.config.shell)
  vim.t.termtabs_name = M.config.name_prefix .. vim.api.nvim_get_current_tabpage()
end

return M
