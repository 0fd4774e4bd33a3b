-- turn.lua — the turn's structure replaced through its named rules (lost-cities README, "The turn"):
-- a discard buys one more placement before the draw, and a turn draws as many cards as it placed;
-- turns pass to the right.
local rules = ...

--- turn_budget: after a discard (rules.turn_so_far(game).discarded), one more place; as many draws as places.
function rules.turn_budget(game, seat)
  local so_far = rules.turn_so_far(game)
  return { places = so_far.discarded and 2 or 1, draws = so_far.placed }
end

--- next_seat: to the right (seat - 1), and from seat 1 to the last seat.
function rules.next_seat(game, seat)
  return (seat - 2) % houserules.seats + 1
end

return rules
