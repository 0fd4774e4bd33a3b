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

--- score_breakdown(game, seat): every seat's expeditions, as they are all added up. Each seat's part is the
--- parent's breakdown under the parent's score: the parent shows what rules.score adds beyond the expeditions as
--- "other rules", which with the combined score here would be the other seats' points (counted twice).
function rules.score_breakdown(game, seat)
  local combined = rules.score
  rules.score = parent_score
  local ok, parts = pcall(function()
    local lines = {}
    for s = 1, game:seats() do
      lines[#lines + 1] = string.format("seat %d's expeditions: %d", s, parent_score(game, s))
      lines[#lines + 1] = (parent_breakdown(game, s):gsub("[^\n]+", "  %0"))
    end
    return lines
  end)
  rules.score = combined
  if not ok then error(parts, 0) end
  return table.concat(parts, "\n")
end

--- ranks(game): the players win or lose together: one shared first place.
function rules.ranks(game)
  local places = {}
  for s = 1, game:seats() do places[s] = 1 end
  return places
end

return rules
