-- Cooperation (seed 003): every seat's score is the combined score of all the expeditions, so the match
-- totals and the result show the combined score, and everybody shares the first place.
local rules = ... -- the parent's rules, ours to change
local parent_score = rules.score
local parent_breakdown = rules.score_breakdown

--- score(game, seat): the sum of every player's expeditions, the same for all seats.
function rules.score(game, seat)
  local total = 0
  for s = 1, game:seats() do total = total + parent_score(game, s) end
  return total
end

--- score_breakdown(game, seat): every seat's expeditions, as they are all added up; each seat's part is the
--- parent's breakdown of that seat's own score (not the combined one, which would show the other seats' points as
--- "other rules", counted twice).
function rules.score_breakdown(game, seat)
  local parts = {}
  for s = 1, game:seats() do
    local own = parent_score(game, s)
    parts[#parts + 1] = string.format("seat %d's expeditions: %d", s, own)
    parts[#parts + 1] = (parent_breakdown(game, s, own):gsub("[^\n]+", "  %0"))
  end
  return table.concat(parts, "\n")
end

--- ranks(game): the players win or lose together: one shared first place.
function rules.ranks(game)
  local places = {}
  for s = 1, game:seats() do places[s] = 1 end
  return places
end

return rules
