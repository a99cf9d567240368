local M = {}

local function lookup(name, env)
  local v = (env and env[name]) or os.getenv(name)
  if v == nil then
    error(("undefined environment variable '%s'"):format(name), 0)
  end
  return v
end

function M.interpolate(s, env)
  return (s:gsub("%${([%w_]+)}", function(name) return lookup(name, env) end))
end

return M
