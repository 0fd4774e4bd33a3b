-- Nothing in hand (seed 003 "Rien dans les mains"): a round's score is the usual score minus the sum of the
-- number cards the player still holds when the round ends. Wagers in hand cost nothing.
local rules = ... -- the parent's rules, ours to change
local CARD = houserules.components
local parent_score = rules.score

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

return rules
