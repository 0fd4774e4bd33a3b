#!/bin/bash
# planted_bugs.sh HOUSERULES — shows that the scenarios catch broken rules: for each planted bug (a one-line change
# of rules.lua, named after the rule it breaks), a copy of the ruleset with the bug must FAIL `houserules test`.
# Exits non-zero naming any bug that the scenarios let through. Run by CTest ("planted bugs: lost-valley").
set -u
HR=${1:?usage: planted_bugs.sh path/to/houserules}
HERE=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
status=0
plant() { # name, sed expression
  rm -rf "$TMP/lost-valley" && cp -r "$HERE" "$TMP/lost-valley"
  rm -rf "$TMP/lost-valley/tests/golden"
  sed -i "$2" "$TMP/lost-valley/rules.lua"
  if cmp -s "$TMP/lost-valley/rules.lua" "$HERE/rules.lua"; then echo "NOT PLANTED: $1"; status=1; return; fi
  if "$HR" test "$TMP/lost-valley/tests" > "$TMP/out.txt" 2>&1; then
    echo "NOT CAUGHT: $1"; status=1
  else
    echo "caught: $1 ($(grep -c '^FAIL' "$TMP/out.txt") failing)"
  fi
}
plant "on foot, two sides along the river" 's/return step == 2 and first_way \& ALONG ~= 0 and w \& ALONG ~= 0/return false/'
plant "two prospectors on a river bank" 's/if rules.on_river_bank(game, v) then return 2 end/if rules.on_river_bank(game, v) then return 1 end/'
plant "the fords" 's/if mark_of(game, B, "ford", e) ~= 0 then w = w | FORD_WAY end/w = w/'
plant "one way of moving per turn" 's/if (used == 0 or used == m) and/if true and/'
plant "a river tile next to the prospector if possible" 's/  local out = #near > 0 and near or all/  local out = all/'
plant "the source where the river flows out of an enclosed hole" 's/    if hole then rules.lay_source(game) end/    if false then rules.lay_source(game) end/'
plant "the 32nd land rhombus lays the source first if needed" 's/^  rules.lay_source(game)$/  local _ = 0/'
plant "a river tile that cannot be laid goes under its pile" 's/    game:put_under(t, PILE_RIVER)/    do return nil end/'
plant "enclosed holes get a triangle" 's/and g ~= counter(game, "end_face") and enclosed(game, g) then/and false then/'
plant "the 32nd land rhombus brings the ice" 's/if not top_of(game, PILE_LAND) then rules.ice_enters(game) end/local _ = 0/'
plant "a sieve takes two" 's/rules.owns(game, s, SIEVE) and 2 or 1/1/'
plant "same bank" 's/^  if v == w then return true end$/  do return true end/'
plant "a crate takes two" 's/if rules.owns(game, s, CRATE) then n = 2 elseif/if false then n = 2 elseif/'
plant "an axe doubles the logs" 's/  if rules.owns(game, s, AXE) then n = n + 1 end/  if rules.owns(game, s, AXE) then n = n + 0 end/'
plant "the fish sources add up" 's/  if symbol then n = n + 1 end/  if symbol and n == 0 then n = n + 1 end/'
plant "one whisky per turn" 's/if counter(game, "drank") == 0 and rules.owns(game, seat, WHISKY) then/if rules.owns(game, seat, WHISKY) then/'
plant "the excess is discarded" 's/    if pack or equip then/    if false then/'
plant "the ice die" 's/if game:random(P.die) < P.ice_roll then return end/if game:random(P.die) < 99 then return end/'
plant "ten tokens to declare the end" 's/size_of(game, GOLD\[s\]) >= P.end_tokens/size_of(game, GOLD[s]) >= P.end_tokens - 1/'
plant "no change given" 's/    if sum >= price and (not target or sum < target) then target = sum end/    if sum >= price and (not target or sum > target) then target = sum end/'
plant "the bear cave refills" 's/if land_of(game, a) == CAVE then lay_tokens/if false then lay_tokens/'
exit $status
