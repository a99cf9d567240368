local _M = { _VERSION = "0.4.0" }

local routes = {}

function _M.init()
    routes = {
        { prefix = "/v1/orders", upstream = "orders" },
        { prefix = "/v1/users",  upstream = "users" },
    }
end

function _M.match(uri)
    for _, r in ipairs(routes) do
        if uri:sub(1, #r.prefix) == r.prefix then
            return r
        end
    end
    return nil
end

return _M
