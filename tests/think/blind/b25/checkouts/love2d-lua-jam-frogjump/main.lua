-- Ludum Dare 58 entry: Frog Jump
local frog = { x = 100, y = 300, vy = 0, onGround = true }
local GRAVITY = 900
local pads = {}

function love.load()
  love.graphics.setBackgroundColor(0.1, 0.3, 0.4)
  for i = 1, 8 do pads[i] = { x = i * 110, y = 340 } end
end

function love.update(dt)
  frog.vy = frog.vy + GRAVITY * dt
  frog.y = frog.y + frog.vy * dt
  if frog.y >= 300 then frog.y, frog.vy, frog.onGround = 300, 0, true end
end

function love.keypressed(key)
  if key == "space" and frog.onGround then
    frog.vy, frog.onGround = -420, false
  end
end

function love.draw()
  for _, p in ipairs(pads) do love.graphics.ellipse("fill", p.x, p.y, 40, 10) end
  love.graphics.rectangle("fill", frog.x - 12, frog.y - 24, 24, 24)
end
