-- Either direction: an expedition may rise or fall. Its first number card may be followed by any other
-- number card of the colour; that second number fixes the direction (higher: the column rises, lower: it
-- falls) and every later number must continue it. Wagers still go only before the first number card.
--
-- One sentence of the rulebook changes: rules.may_play, "may this card go on this column". The base
-- ruleset asks it for the legal actions, the explanations, the invariants `houserules check` runs and what
-- the bots value, so all of them follow; scoring, drawing and the end of the round are unchanged.
local rules = ...
local CARD = houserules.components -- CARD[c].name, .value, .wager, .colour
local parent_may_play = rules.may_play

--- numbers(column, n) -> the values of the first, second and last number cards of column[1..n] (nil: none).
local function numbers(column, n)
  local first, second, last
  for i = 1, n do
    local c = CARD[column[i]]
    if not c.wager then first, second, last = first or c.value, first and (second or c.value), c.value end
  end
  return first, second, last
end

--- may_play(game, seat, card, column, n) -> boolean [, reason]: may `card` go on a column holding the cards
--- column[1..n]? Wagers, a first number and a rising column: as in the base game. After one number card,
--- any number; on a falling column (its second number lower than its first), only a lower one.
function rules.may_play(game, seat, card, column, n)
  local first, second, last = numbers(column, n)
  local c = CARD[card]
  if c.wager or not first or (second and second > first) then return parent_may_play(game, seat, card, column, n) end
  if not second or c.value < last then return true end
  return false, c.name .. " must be lower than " .. CARD[column[n]].name .. " on your " .. c.colour ..
    " expedition: it runs down"
end

--- describe(view, seat): the parent's table, and which way each of the seat's columns runs.
local parent_describe = rules.describe
function rules.describe(view, seat)
  local words = {}
  for k, colour in ipairs(houserules.params.colours) do
    local column = view:cards(rules.expedition_of(seat, colour))
    local first, second = numbers(column, #column)
    words[k] = colour .. " " .. (not first and "-" or not second and "up or down" or second > first and "up" or "down")
  end
  return parent_describe(view, seat) .. "Directions of your expeditions: " .. table.concat(words, ", ") .. "\n"
end

return rules
