local M = {}

function M.segments(p)
  return vim.split(p, "/", { plain = true, trimempty = true })
end

function M.display(p)
  return vim.fn.fnamemodify(p, ":~")
end

return M
