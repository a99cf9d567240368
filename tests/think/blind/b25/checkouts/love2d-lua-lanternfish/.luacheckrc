std = "luajit"
globals = { "love" }
exclude_files = { "lib/**" }
max_line_length = 120
