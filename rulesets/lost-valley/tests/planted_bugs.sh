#!/bin/bash
# planted_bugs.sh HOUSERULES — shows that the scenarios catch broken rules: for each planted bug (a one-line change
# of one of the ruleset's Lua modules, named after the rule it breaks), a copy of the ruleset with the bug must FAIL `houserules test`.
# Exits non-zero naming any bug that the scenarios let through. Run by CTest ("planted bugs: lost-valley").
set -u
HR=${1:?usage: planted_bugs.sh path/to/houserules}
HERE=$(cd "$(dirname "$0")/.." && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
status=0
plant() { # name, sed expression: applied to every Lua file of the ruleset's copy; it must change exactly one
  rm -rf "$TMP/lost-valley" && cp -r "$HERE" "$TMP/lost-valley"
  rm -rf "$TMP/lost-valley/tests/golden"
  local changed=0 f
  for f in "$HERE"/*.lua; do
    f=$(basename "$f")
    sed -i "$2" "$TMP/lost-valley/$f"
    cmp -s "$TMP/lost-valley/$f" "$HERE/$f" || changed=$((changed + 1))
  done
  if [ "$changed" -ne 1 ]; then echo "NOT PLANTED (changed $changed files): $1"; status=1; return; fi
  if HOUSERULES_PATH="$TMP" "$HR" test "$TMP/lost-valley/tests" > "$TMP/out.txt" 2>&1; then
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
plant "the source where the river flows out of an enclosed hole" 's/    if hole then rules.lay_source(game); map_changed() end/    if false then rules.lay_source(game); map_changed() end/'
plant "the 32nd land rhombus lays the source first if needed" 's/^  rules.lay_source(game)$/  local _ = 0/'
plant "a river tile that cannot be laid goes under its pile" 's/    put_under(game, t, PILE_RIVER)/    do return nil end/'
plant "enclosed holes get a triangle" 's/and g ~= ef and enclosed(game, g) then/and false then/'
plant "the 32nd land rhombus brings the ice" 's/if not top_of(game, PILE_LAND) then rules.ice_enters(game) end/local _ = 0/'
plant "a sieve takes two" 's/rules.owns(game, s, SIEVE) and 2 or 1/1/'
plant "same bank" 's/^  if v == w then return true end$/  do return true end/'
plant "each bank of a river tile gets its tokens" 's/if part then same = first == w or pf ~= nil and pf == part\[w\] else/if part then same = first == w else/'
plant "a crate takes two" 's/if rules.owns(game, s, CRATE) then n = 2 elseif/if false then n = 2 elseif/'
plant "the survey of an intersection keeps its hunt sites" 's/hunt = hunt_sites_around(game, v, R),/hunt = NONE,/'
plant "an axe doubles the logs" 's/  if rules.owns(game, s, AXE) then n = n + 1 end/  if rules.owns(game, s, AXE) then n = n + 0 end/'
plant "the fish sources add up" 's/  if around \& FISH_BIT ~= 0 then n = n + 1 end/  if around \& FISH_BIT ~= 0 and n == 0 then n = n + 1 end/'
plant "one whisky per turn" 's/    local may_drink = counter(game, CN.drank) < whisky$/    local may_drink = true/'
plant "dried fish gives food (the goods read once)" 's/elseif i == DRIED_FISH then fish_held = true end/end/'
plant "the turn's budget decides the actions" 's/  set_counter(game, CN.acts, 0, budget.actions)/  set_counter(game, CN.acts, 0, 1)/'
plant "the excess is discarded" 's/    if pack or equip then/    if false then/'
plant "a cart adds backpack slots (overflows' one pass)" 's/        if cart_zone and i == CART then cart = true end/        local _ = 0/'
plant "big items take two slots (overflows' one pass)" 's/        used = used + item_slots(i)$/        used = used + 1/'
plant "the ice die" 's/if G.random(game, P.die) < P.ice_roll then return end/if G.random(game, P.die) < 99 then return end/'
plant "ten tokens to declare the end" 's/size_of(game, GOLD\[s\]) >= P.end_tokens/size_of(game, GOLD[s]) >= P.end_tokens - 1/'
plant "no change given" 's/    if sum >= price and (not target or sum < target) then target = sum end/    if sum >= price and (not target or sum > target) then target = sum end/'
plant "the bear cave refills" 's/if land_of(game, a) == CAVE then lay_tokens/if false then lay_tokens/'
# issue 33: the rulebook's gaps
plant "a river token lies on its own tile, not on a corner other tiles share" 's/          lay_tokens(game, POOL_GREEN, P.river_green_per_bank, "face", f)/          lay_tokens(game, POOL_GREEN, P.river_green_per_bank, "vertex", FVERTS[f][j])/'
plant "each bank's tokens on the face marked with that bank" 's/          set_mark(game, B, "bank", f, j)/          set_mark(game, B, "bank", f, 1)/'
plant "a gold event goes to the gold bag" 's/  if NUGGETS\[c\] > 0 then move(game, c, GOLD\[s\]); return end/  local _ = 0/'
plant "gold events are laid among the events" 's/for _, v in ipairs(sorted_keys(P.event_gold or {})) do/for _, v in ipairs({}) do/'
plant "the player chooses the tokens that pay" 's/if not seen\[NAME\[c\]\] then seen\[NAME\[c\]\] = true; out\[#out + 1\] = act(AK.PAY, c) end/local _ = c/'
plant "an exact payment ends shopping" 's/^  if owed <= 0 then$/  if owed < 0 then/'
plant "a token given pays its nuggets" 's/  local owed = counter(game, CN.basket) - NUGGETS\[c\]/  local owed = counter(game, CN.basket) - 1/'
plant "the source is no river bank" 's/    if land_of(game, fs\[i\]) == RIVER then return true end/    if land_of(game, fs[i]) == RIVER or land_of(game, fs[i]) == SOURCE then return true end/'
plant "the source is no water to fish" 's/  if around \& WATER_BITS ~= 0 and rules.owns(game, s, ROD) then n = n + 1 end/  if around \& (WATER_BITS | (1 << SOURCE)) ~= 0 and rules.owns(game, s, ROD) then n = n + 1 end/'
plant "the source is no water for a canal" 's/  faces = { \["0,0u"\] = SOURCE }, sides/  faces = { ["0,0u"] = SOURCE | WATER }, sides/'
plant "a store sells a tool from the supply" 's/  if rules.sells_tool(game) and P.prices.tool <= wealth then/  if false then/'
exit $status
