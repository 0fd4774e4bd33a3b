-- turn.lua — the turn's structure replaced through its named rules (lost-cities README, "The turn"):
-- a discard buys one more placement before the draw; turns pass to the right.
local rules = ...

--- turn_budget: after a discard (rules.discarded_this_turn), one more place; else the rulebook's one place,
--- one draw.
function rules.turn_budget(game, seat)
  return { places = rules.discarded_this_turn(game) and 2 or 1, draws = 1 }
end

--- next_seat: to the right (seat - 1), and from seat 1 to the last seat.
function rules.next_seat(game, seat)
  return (seat - 2) % houserules.seats + 1
end

return rules
