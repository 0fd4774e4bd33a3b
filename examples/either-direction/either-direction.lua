-- Either direction: an expedition may rise or fall. Its first number card may be followed by any other
-- number card of the colour; that second number fixes the direction (higher: the column rises, lower: it
-- falls) and every later number must continue it. Wagers still go only before the first number card.
--
-- One sentence of the rulebook changes: rules.may_play, "may this card go on this column". The base
-- ruleset asks it for the legal actions, the explanations, the invariants `houserules check` runs and what
-- the bots value, so all of them follow; scoring, drawing and the end of the round are unchanged.
local rules = ...
local CARD, parent_may_play, parent_describe = houserules.components, rules.may_play, rules.describe

--- direction(column, n) -> "up", "down", "up or down" (one number card so far) or nil (none): which way the
--- column column[1..n] (n left out: all of it) runs, from its first two number cards (wagers do not count).
local function direction(column, n)
  local v = {}
  for i = 1, n or #column do if not CARD[column[i]].wager then v[#v + 1] = CARD[column[i]].value end end
  return v[1] and (not v[2] and "up or down" or v[2] > v[1] and "up" or "down")
end

--- may_play(game, seat, card, column, n) -> boolean [, reason]: wagers, an empty column and a rising one as in
--- the base game (the parent); after one number card any number; on a falling column only a lower one (the
--- reason, which explain shows, is read only when the answer is false).
function rules.may_play(game, seat, card, column, n)
  local way, c, top = direction(column, n), CARD[card], CARD[column[n]]
  if c.wager or not way or way == "up" then return parent_may_play(game, seat, card, column, n) end
  return way == "up or down" or c.value < top.value, c.name .. " must be lower than " .. top.name .. " on your " .. c.colour .. " expedition: it runs down"
end

--- describe(view, seat): the parent's table, and which way each of the seat's columns runs.
function rules.describe(view, seat)
  local words = {}
  for _, colour in ipairs(houserules.params.colours) do
    words[#words + 1] = colour .. " " .. (direction(view:cards(rules.expedition_of(seat, colour))) or "-")
  end
  return parent_describe(view, seat) .. "Directions of your expeditions: " .. table.concat(words, ", ") .. "\n"
end

return rules
