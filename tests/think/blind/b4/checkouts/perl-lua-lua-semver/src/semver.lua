local M = {}

local PATTERN = "^(%d+)%.(%d+)%.(%d+)(%-?[%w%.]*)$"

function M.parse(s)
  if type(s) ~= "string" then return nil end
  local major, minor, patch, pre = s:match(PATTERN)
  if not major then return nil end
  return setmetatable({
    major = tonumber(major), minor = tonumber(minor), patch = tonumber(patch),
    prerelease = pre ~= "" and pre:sub(2) or nil,
  }, M.mt)
end

return M
