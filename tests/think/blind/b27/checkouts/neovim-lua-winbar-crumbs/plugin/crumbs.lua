if vim.g.loaded_crumbs then
  return
end
vim.g.loaded_crumbs = true
