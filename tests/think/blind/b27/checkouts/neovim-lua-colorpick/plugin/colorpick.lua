vim.api.nvim_create_user_command("ColorpickConvert", function()
  require("colorpick").convert()
end, {})
