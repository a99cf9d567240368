local _M = {}

local dict = ngx.shared.ratelimit

function _M.incoming(key, limit, window)
    local count, err = dict:incr(key, 1, 0, window)
    if not count then
        return nil, err
    end
    if count > limit then
        return false, count
    end
    return true, count
end

return _M
