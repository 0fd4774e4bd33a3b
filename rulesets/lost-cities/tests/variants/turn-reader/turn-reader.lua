-- turn-reader.lua — a house rule for the tests of lost-cities' readers rules.turn_so_far and
-- rules.discarded_this_turn (README "For variant authors") while the turn rules are the base ones: the table
-- a player reads begins with what the seat to move did in this turn so far.
local rules = ...

local parent_describe = rules.describe
function rules.describe(view, seat)
  local so_far = rules.turn_so_far(view)
  return string.format("This turn: placed %d, drew %d, discarded to %s\n", so_far.placed, so_far.drawn,
    so_far.discarded or "none") .. parent_describe(view, seat)
end

return rules
