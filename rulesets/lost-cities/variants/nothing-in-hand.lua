-- Nothing in hand (seed 003 "Rien dans les mains"): a round's score is the usual score minus the sum of the
-- number cards the player still holds when the round ends. Wagers in hand cost nothing.
local rules = ... -- the parent's rules, ours to change
local CARD = houserules.components
local parent_score = rules.score
local parent_breakdown = rules.score_breakdown

--- score(game, seat): the expeditions' score minus the values of the number cards in the seat's hand.
--- In an observation (a table drawn for another seat) the cards the viewer cannot see read as card 0, which
--- has no value: they count for nothing, so the score shown is what that viewer can work out.
function rules.score(game, seat)
  local in_hand = 0
  for _, c in ipairs(game:cards("hand." .. seat)) do
    if not CARD[c].unknown and not CARD[c].wager then in_hand = in_hand + CARD[c].value end
  end
  return parent_score(game, seat) - in_hand
end

--- score_breakdown(game, seat): the parent's lines, then the penalty of the number cards left in hand.
function rules.score_breakdown(game, seat)
  local in_hand, names = 0, {}
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
  local penalty = #names > 0 and string.format("in hand    %s: -%d", table.concat(names, " "), in_hand)
    or "in hand    no number card: -0"
  return parent_breakdown(game, seat) .. "\n" .. penalty
end

return rules
