function love.conf(t)
  t.identity = "cryptwalk"
  t.version = "11.4"
  t.window.title = "Cryptwalk"
  t.window.width = 960
  t.window.height = 540
end
