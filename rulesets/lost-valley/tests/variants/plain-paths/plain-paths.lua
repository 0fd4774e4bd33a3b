-- plain-paths.lua — a house rule for the tests of the bots' heuristic (heuristic.lua, docs/performance.md "Lost
-- Valley's heuristic"): rules.way, rules.explored and rules.owns replaced by functions that only ask the base ones.
-- The rules are the same; the heuristic, which walks with the kernel (game:reachable), answers rules.explored from
-- its survey and reads the equipment once only while these are the base rules, now takes its plain Lua paths:
-- tests/games/lost_valley_heuristic_paths_test.cpp expects the same heuristic from both in every position of whole games
-- (whatever the heuristic's terms are worth).
local rules = ...
local way, explored, owns = rules.way, rules.explored, rules.owns
function rules.way(game, e) return way(game, e) end
function rules.explored(game, v) return explored(game, v) end
function rules.owns(game, s, i) return owns(game, s, i) end
return rules
