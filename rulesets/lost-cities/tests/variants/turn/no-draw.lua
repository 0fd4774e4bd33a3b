-- no-draw.lua — a house rule for the tests of lost-cities' turn rules (README "For variant authors",
-- rules.turn_budget) replacing the budget alone (rules.next_seat stays the base one): a discard ends the turn
-- without a draw; after a play the seat draws, as in the rulebook. As hands can then run out, the round also
-- ends when a player holds no card (rules.round_ends, asked after every turn).
local rules = ...

--- turn_budget: one place; no draw after a discard (rules.turn_so_far(game).discarded), one after a play.
function rules.turn_budget(game, seat)
  return { places = 1, draws = rules.turn_so_far(game).discarded and 0 or 1 }
end

--- round_ends: the deck is empty (the base rule), or a player holds no card.
local parent_round_ends = rules.round_ends
function rules.round_ends(game)
  if parent_round_ends(game) then return true end
  for s = 1, houserules.seats do
    if game:size(houserules.zones["hand." .. s]) == 0 then return true end
  end
  return false
end

return rules
