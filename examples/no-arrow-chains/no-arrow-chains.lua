-- No arrow chains: a turn gets at most one arrow's move. rules.resolve_tile (the board game's README, "For
-- variant authors") runs for the tile a figure reaches; in the phase "arrow" the step is an arrow's move.
local rules = ...
local parent_resolve = rules.resolve_tile

function rules.resolve_tile(game, seat, figure_kind, colour, step)
  local by_an_arrow = game:phase_name() == "arrow"
  parent_resolve(game, seat, figure_kind, colour, step)
  if by_an_arrow and game:phase_name() == "arrow" then game:set_phase("draw") end
end

return rules
