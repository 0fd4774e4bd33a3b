-- plain-paths.lua — a house rule for the tests of the bots' heuristic (heuristic.lua, docs/performance.md "Lost
-- Valley's heuristic"): rules.way, rules.explored, rules.owns, rules.same_bank, rules.has_water and rules.promise
-- replaced by functions that only ask the base ones. The rules are the same; the heuristic, which walks with the
-- kernel (game:reachable), answers rules.explored from its survey, reads the equipment once, reads a river tile's banks
-- once and keeps what it read of the map across calls under game:board_digest only while these are the base rules,
-- now takes its plain Lua paths, and so do the legal actions (turn_actions reads the sites around the prospector from a
-- survey kept under game:vertex_digest only while rules.has_water and rules.same_bank, among others, are the base
-- rules): tests/games/lost_valley_heuristic_paths_test.cpp expects the same heuristic and the same legal actions from
-- both in every position of whole games (whatever the heuristic's terms are worth).
local rules = ...
local way, explored, owns = rules.way, rules.explored, rules.owns
local same_bank, has_water, promise = rules.same_bank, rules.has_water, rules.promise
function rules.way(game, e) return way(game, e) end
function rules.explored(game, v) return explored(game, v) end
function rules.owns(game, s, i) return owns(game, s, i) end
function rules.same_bank(game, f, v, w) return same_bank(game, f, v, w) end
function rules.has_water(game, f) return has_water(game, f) end
function rules.promise(game, s, w, pan_ready, mine_ready, tool, sieve, crate, survey)
  return promise(game, s, w, pan_ready, mine_ready, tool, sieve, crate, survey)
end
return rules
