local ngx_now = ngx.now
local floor = math.floor

local _M = { _VERSION = "0.2.1" }
local mt = { __index = _M }

function _M.new(dict_name, rate, burst)
    local dict = ngx.shared[dict_name]
    if not dict then
        return nil, "shared dict not found: " .. tostring(dict_name)
    end
    return setmetatable({ dict = dict, rate = rate, burst = burst }, mt)
end

function _M.take(self, key)
    local now = ngx_now()
    local tokens = self.dict:get(key .. ":t") or self.burst
    local last = self.dict:get(key .. ":l") or now
    tokens = math.min(self.burst, tokens + (now - last) * self.rate)
    if tokens < 1 then
        return false, floor((1 - tokens) / self.rate * 1000)
    end
    self.dict:set(key .. ":t", tokens - 1)
    self.dict:set(key .. ":l", now)
    return true
end

return _M
