-- half-promise.lua — a house rule for the tests of the bots' heuristic (heuristic.lua): rules.promise replaced by one
-- that promises half of what the base rule does, and nothing else. The heuristic keeps what it read of the map across
-- calls only while every rule it stands for is the base one (memo_ok), so it must take its plain Lua path here and
-- ask this rule: half_promise_test.toml checks that it does.
local rules = ...
local promise = rules.promise
--- Half of the base rules.promise (same arguments; nuggets).
function rules.promise(game, s, w, pan_ready, mine_ready, tool, sieve, crate, survey)
  return 0.5 * promise(game, s, w, pan_ready, mine_ready, tool, sieve, crate, survey)
end
return rules
