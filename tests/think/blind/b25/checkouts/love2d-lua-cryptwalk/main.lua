local Gamestate = require("lib.hump.gamestate")
local play = require("src.states.play")

function love.load()
  love.graphics.setDefaultFilter("nearest", "nearest")
  Gamestate.registerEvents()
  Gamestate.switch(play)
end
