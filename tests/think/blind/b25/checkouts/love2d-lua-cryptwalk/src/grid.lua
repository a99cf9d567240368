local Grid = {}
Grid.__index = Grid

function Grid.from_rows(rows)
  local g = setmetatable({ w = #rows[1], h = #rows, cells = {} }, Grid)
  for y, row in ipairs(rows) do
    for x = 1, #row do
      g.cells[(y - 1) * g.w + x] = row:sub(x, x) == "#"
    end
  end
  return g
end

function Grid:blocked(x, y)
  if x < 1 or y < 1 or x > self.w or y > self.h then return true end
  return self.cells[(y - 1) * self.w + x]
end

function Grid:neighbours(x, y)
  local out = {}
  for _, d in ipairs({ { 1, 0 }, { -1, 0 }, { 0, 1 }, { 0, -1 } }) do
    local nx, ny = x + d[1], y + d[2]
    if nx >= 1 and ny >= 1 and nx <= self.w and ny <= self.h then
      out[#out + 1] = { nx, ny }
    end
  end
  return out
end

return Grid
