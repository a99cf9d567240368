package = "gateway"
version = "0.4.0-1"
source = { url = "git+ssh://git@git.internal/platform/api-gateway.git" }
description = {
   summary = "OpenResty API gateway: routing, auth and rate limiting",
   license = "Proprietary",
}
dependencies = {
   "lua >= 5.1",
   "lua-resty-jwt >= 0.2.3",
   "lua-resty-http >= 0.17",
}
build = {
   type = "builtin",
   modules = {
      ["gateway.router"] = "lib/gateway/router.lua",
      ["gateway.ratelimit"] = "lib/gateway/ratelimit.lua",
      ["gateway.auth"] = "lib/gateway/auth.lua",
   },
}
