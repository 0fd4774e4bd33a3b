-- Explorer's luck: a VP tile pays double to the explorer (adventurers are paid its value, as usual).
-- The board game's extension point `vp_tile_pays` says what a VP tile pays to the figure reaching it
-- (rulesets/lost-cities-board/README.md, "For variant authors"): only that sentence changes.
local rules = ...
local parent_pays = rules.vp_tile_pays

function rules.vp_tile_pays(game, seat, figure_kind, value)
  local chips = parent_pays(game, seat, figure_kind, value)
  if figure_kind == "explorer" then return 2 * chips end
  return chips
end

return rules
