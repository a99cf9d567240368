local M = {}

local config = { save_on_exit = true, data_path = vim.fn.stdpath("data") .. "/quickmark.json" }
local marks = {}

function M.setup(opts)
  config = vim.tbl_deep_extend("force", config, opts or {})
end

function M.clear()
  marks = {}
end

function M.list()
  return marks
end

function M.add()
  local file = vim.api.nvim_buf_get_name(0)
  if file == "" then
    return
  end
  for _, m in ipairs(marks) do
    if m.file == file then
      return
    end
  end
  table.insert(marks, { file = file, row = vim.api.nvim_win_get_cursor(0)[1] })
end

return M
