package = "lanternfish"
version = "scm-1"
source = { url = "git+https://github.com/example/lanternfish.git" }
description = {
  summary = "Deep-sea exploration game",
  license = "MIT",
}
dependencies = { "lua >= 5.1" }
test_dependencies = { "busted >= 2.0" }
test = { type = "busted" }
build = { type = "none" }
