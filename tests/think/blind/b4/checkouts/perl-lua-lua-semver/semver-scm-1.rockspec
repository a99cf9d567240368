package = "semver"
version = "scm-1"
source = { url = "git+https://github.com/example/lua-semver.git" }
description = { summary = "Semantic version parsing and comparison", license = "MIT" }
dependencies = { "lua >= 5.1" }
test_dependencies = { "busted >= 2.0" }
test = { type = "busted" }
build = { type = "builtin", modules = { semver = "src/semver.lua" } }
