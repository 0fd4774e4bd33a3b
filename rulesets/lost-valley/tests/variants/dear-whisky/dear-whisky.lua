-- dear-whisky.lua: rules.price(item) replaced for one item, named as in ruleset.toml's prices; nothing else changes.
local rules = ...
local parent = rules.price
function rules.price(item)
  if item == "whisky" then return 3, 0 end
  return parent(item)
end
return rules
