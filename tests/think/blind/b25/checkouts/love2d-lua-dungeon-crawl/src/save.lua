local serialize = require("lib.serpent")

local save = {}
local FILE = "save.lua"

function save.write(state)
  return love.filesystem.write(FILE, "return " .. serialize.block(state, { comment = false }))
end

function save.read()
  if not love.filesystem.getInfo(FILE) then return nil end
  local chunk = love.filesystem.load(FILE)
  return chunk()
end

return save
