local crops = {}

local DEFS = {
  turnip = { stages = 4, sell = 35 },
  pumpkin = { stages = 7, sell = 120 },
}

function crops.plant(kind)
  return { kind = kind, stage = 1, def = DEFS[kind] }
end

function crops.tick(c, weather)
  if weather.watered and c.stage < c.def.stages then
    c.stage = c.stage + 1
  end
end

return crops
