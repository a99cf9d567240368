local Ghoul = {}
Ghoul.__index = Ghoul

function Ghoul.new(x, y)
  return setmetatable({ x = x, y = y, speed = 2, timer = 0 }, Ghoul)
end

function Ghoul:update(dt, level, player)
  self.timer = self.timer + dt
  if self.timer < 1 / self.speed then return end
  self.timer = 0
  -- shamble toward the player in a straight line
  local dx = player.x > self.x and 1 or (player.x < self.x and -1 or 0)
  local dy = player.y > self.y and 1 or (player.y < self.y and -1 or 0)
  if not level.grid:blocked(self.x + dx, self.y + dy) then
    self.x, self.y = self.x + dx, self.y + dy
  end
end

return Ghoul
