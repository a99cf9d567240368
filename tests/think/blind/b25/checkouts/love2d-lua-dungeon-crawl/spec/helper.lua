-- minimal love.* stubs so game modules load outside LÖVE
local files = {}
_G.love = {
  filesystem = {
    write = function(name, data) files[name] = data; return true end,
    read = function(name) return files[name] end,
    getInfo = function(name) if files[name] then return { type = "file", modtime = 0 } end end,
    load = function(name) return load(files[name]) end,
  },
  math = { random = math.random },
}
