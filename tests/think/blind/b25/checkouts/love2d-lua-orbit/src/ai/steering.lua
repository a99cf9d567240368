local steering = {}

function steering.seek(self, target, max_speed)
  local dx, dy = target.x - self.x, target.y - self.y
  local len = math.sqrt(dx * dx + dy * dy)
  if len == 0 then return 0, 0 end
  return dx / len * max_speed, dy / len * max_speed
end

return steering
