rockspec_format = "3.0"
package = "colorpick.nvim"
version = "scm-1"
source = { url = "git+https://github.com/dev/colorpick.nvim" }
description = {
  summary = "Pick and convert colors under the cursor",
  license = "MIT",
}
dependencies = { "lua >= 5.1" }
test_dependencies = { "vusted" }
test = { type = "command", command = "vusted ./spec" }
build = { type = "builtin", copy_directories = { "plugin" } }
