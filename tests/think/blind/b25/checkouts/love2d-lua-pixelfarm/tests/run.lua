-- usage: luajit tests/run.lua
package.path = "./?.lua;./lib/?.lua;" .. package.path
local lust = require("lust")
local files = { "tests.test_crops", "tests.test_calendar" }
for _, f in ipairs(files) do require(f) end
if lust.errors > 0 then os.exit(1) end
