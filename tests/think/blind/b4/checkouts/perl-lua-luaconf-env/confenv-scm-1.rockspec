package = "confenv"
version = "scm-1"
source = { url = "git+https://github.com/example/luaconf-env.git" }
description = { summary = "Load Lua/INI config with ${ENV} interpolation", license = "MIT" }
dependencies = { "lua >= 5.1" }
test_dependencies = { "busted >= 2.0" }
test = { type = "busted" }
build = { type = "builtin", modules = { confenv = "src/confenv/init.lua", ["confenv.loader"] = "src/confenv/loader.lua" } }
