-- Cooperation (seed 003): every seat's score is the combined score of all the expeditions, so the match
-- totals and the result show the combined score, and everybody shares the first place.
local rules = ... -- the parent's rules, ours to change
local parent_score = rules.score

--- score(game, seat): the sum of every player's expeditions, the same for all seats.
function rules.score(game, seat)
  local total = 0
  for s = 1, game:seats() do total = total + parent_score(game, s) end
  return total
end

--- ranks(game): the players win or lose together: one shared first place.
function rules.ranks(game)
  local places = {}
  for s = 1, game:seats() do places[s] = 1 end
  return places
end

return rules
