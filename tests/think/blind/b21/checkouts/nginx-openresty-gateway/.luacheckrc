std = "ngx_lua"
unused_args = false
max_line_length = 120
exclude_files = { "t/servroot/**" }
files["spec/"] = { std = "+busted" }
