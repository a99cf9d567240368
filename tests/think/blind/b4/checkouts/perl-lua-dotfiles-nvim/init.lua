vim.g.mapleader = " "
require("config.lazy")
require("config.options")
require("config.keymaps")
require("config.autocmds")
