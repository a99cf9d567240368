package = "dungeon-crawl"
version = "dev-1"
source = { url = "git+https://github.com/example/dungeon-crawl.git" }
description = { summary = "Roguelike dungeon crawler for LÖVE", license = "MIT" }
dependencies = { "lua >= 5.1" }
test_dependencies = { "busted >= 2.1" }
test = { type = "busted" }
build = { type = "none" }
