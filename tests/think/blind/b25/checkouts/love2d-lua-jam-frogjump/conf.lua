function love.conf(t)
  t.window.title = "Frog Jump (LD58)"
  t.window.width = 960
  t.window.height = 480
end
