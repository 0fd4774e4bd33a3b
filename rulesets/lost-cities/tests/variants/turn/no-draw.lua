-- no-draw.lua — a house rule for the tests of lost-cities' turn rules (README "For variant authors",
-- rules.turn_budget) replacing the budget alone (rules.next_seat stays the base one): a discard ends the turn
-- without a draw; after a play the seat draws, as in the rulebook.
local rules = ...

--- turn_budget: one place; no draw after a discard (rules.turn_so_far(game).discarded), one after a play.
function rules.turn_budget(game, seat)
  return { places = 1, draws = rules.turn_so_far(game).discarded and 0 or 1 }
end

return rules
