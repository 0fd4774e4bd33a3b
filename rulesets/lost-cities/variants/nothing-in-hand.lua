-- Nothing in hand (seed 003 "Rien dans les mains"): a round's score is the usual score minus the sum of the
-- number cards the player still holds when the round ends. Wagers in hand cost nothing.
local rules = ... -- the parent's rules, ours to change
local CARD = houserules.components
local parent_adjustments = rules.score_adjustments

--- score_adjustments(game, seat): the parent's, and minus the values of the number cards in the seat's hand
--- (rules.score adds it, the end-of-round breakdown shows its line). In an observation (a table drawn for
--- another seat) the cards the viewer cannot see read as card 0, which has no value: they count for nothing,
--- so the score shown is what that viewer can work out.
function rules.score_adjustments(game, seat)
  local parts, in_hand, names = parent_adjustments(game, seat), 0, {}
  local cards = game:cards("hand." .. seat)
  table.sort(cards, function(a, b)
    if CARD[a].colour_index ~= CARD[b].colour_index then return (CARD[a].colour_index or 0) < (CARD[b].colour_index or 0) end
    return (CARD[a].value or 0) < (CARD[b].value or 0)
  end)
  for _, c in ipairs(cards) do
    if not CARD[c].unknown and not CARD[c].wager then
      in_hand = in_hand + CARD[c].value
      names[#names + 1] = CARD[c].name
    end
  end
  parts[#parts + 1] = { points = -in_hand, text = #names > 0
    and string.format("in hand    %s: -%d", table.concat(names, " "), in_hand) or "in hand    no number card: -0" }
  return parts
end

return rules
