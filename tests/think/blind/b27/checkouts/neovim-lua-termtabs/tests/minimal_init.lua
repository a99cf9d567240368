vim.opt.rtp:append(".")
vim.opt.rtp:append(os.getenv("PLENARY_DIR") or "../plenary.nvim")
vim.cmd("runtime plugin/plenary.vim")
