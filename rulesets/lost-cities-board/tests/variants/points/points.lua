-- The house rule of points.toml: rules.vp_tile_pays (README "For variant authors") doubled for the explorer.
local rules = ...
local parent = rules.vp_tile_pays
function rules.vp_tile_pays(game, seat, figure_kind, value)
  local paid = parent(game, seat, figure_kind, value)
  return figure_kind == "explorer" and 2 * paid or paid
end
return rules
