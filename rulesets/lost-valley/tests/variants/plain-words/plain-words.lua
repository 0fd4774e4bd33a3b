-- plain-words.lua — a house rule for the tests of Lost Valley's action encoding, exported for variants (README "For
-- variant authors": rules.act, rules.parts, rules.KINDS, rules.vertex_text, rules.placement_text): the same game,
-- other words. A foot move reads `walk to q,r`, a tile's placement `place q,r rk`, the end of a turn `pass`.
local rules = ...
local parent = rules.action_text
local K = rules.KINDS
local PASS = rules.act(K.END)
function rules.action_text(game, x)
  if x == PASS then return "pass" end
  local kind, a, b = rules.parts(x)
  if kind == K.MOVE and b == rules.MODES.foot then return "walk to " .. rules.vertex_text(a) end
  if kind == K.LAY then return "place " .. rules.placement_text(game, a * 8 + b) end
  return parent(game, x)
end
return rules
