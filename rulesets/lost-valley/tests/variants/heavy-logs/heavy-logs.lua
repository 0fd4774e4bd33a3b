-- heavy-logs.lua — a house rule for the tests of the bots' heuristic (heuristic.lua, docs/performance.md "Lost
-- Valley's heuristic"): a seat that carries two logs or more catches no fish (rules.fish_count replaced; seed B.3
-- otherwise). What the seat carries beyond "no log" is not in the heuristic's memo keys, so the heuristic must
-- leave its memo for its plain path while rules.fish_count is not the base rule:
-- tests/games/lost_valley_heuristic_paths_test.cpp expects the same heuristic from heavy-logs.toml and from
-- heavy-logs-plain.toml (the same rule on the plain paths) in every position of whole games.
local rules = ...
local fish_count = rules.fish_count
function rules.fish_count(game, s, v)
  if game:counter("log", s) >= 2 then return 0 end
  return fish_count(game, s, v)
end
return rules
