-- readers.lua — a house rule for the tests of lost-cities' readers for variants (README "For variant
-- authors"): rules.turn_so_far and rules.discarded_this_turn while the turn rules are the base ones (whose fast
-- path counts nothing), and rules.expedition_of. The table a player reads begins with what the seat to move
-- did in this turn so far and the size of its yellow and red expeditions, found by colour name.
local rules = ...

local parent_describe = rules.describe
function rules.describe(view, seat)
  local so_far = rules.turn_so_far(view)
  local lines = { string.format("This turn: placed %d, drew %d, discarded to %s", so_far.placed, so_far.drawn,
    so_far.discarded or "none") }
  for _, colour in ipairs({ "yellow", "red", "purple" }) do
    local zone = rules.expedition_of(seat, colour)
    lines[#lines + 1] = colour .. " expedition: " .. (zone and (view:size(zone) .. " cards") or "none")
  end
  return table.concat(lines, "\n") .. "\n" .. parent_describe(view, seat)
end

return rules
