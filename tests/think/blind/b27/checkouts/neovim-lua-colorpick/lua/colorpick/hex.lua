local M = {}

function M.to_rgb(s)
  local r, g, b = s:match("^#(%x%x)(%x%x)(%x%x)$")
  if not r then
    return nil
  end
  return { tonumber(r, 16), tonumber(g, 16), tonumber(b, 16) }
end

function M.from_rgb(r, g, b)
  return string.format("#%02x%02x%02x", r, g, b)
end

return M
