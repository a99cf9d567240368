local hex = require("colorpick.hex")

local M = {}

function M.word_under_cursor()
  return vim.fn.expand("<cword>")
end

function M.convert()
  local word = M.word_under_cursor()
  local rgb = hex.to_rgb("#" .. word:gsub("^#", ""))
  if not rgb then
    vim.notify("colorpick: not a hex color: " .. word, vim.log.levels.WARN)
    return
  end
  vim.fn.setreg("+", string.format("rgb(%d, %d, %d)", rgb[1], rgb[2], rgb[3]))
end

return M
