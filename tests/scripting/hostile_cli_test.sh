#!/usr/bin/env bash
# hostile_cli_test.sh HOUSERULES BACKSTOP_PROBE SOURCE-DIR — issue 17's tricks that take a whole process.
#  1. trick: a hook stuck in C code (the watchdog's backstop ends the process with one line, status 70)
#  2. trick: a round that never ends in `play` (the ply cap)
#  3. trick: an error raised in ranks, ranks returning nil, in `play` (a clean error, no abort)
#  4. trick: a symlink planted at <golden>.jsonl.tmp for `test --update`
#  5. trick: hidden state in a Lua upvalue across games (check calls the heuristic in play, not in replay)
set -uo pipefail
hr=$1
probe=$2
src=$3
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

echo "--- 1. trick: a hook stuck in C code"
timeout 120 "$probe" 2>"$tmp/err"
status=$?
cat "$tmp/err"
[ "$status" -eq 70 ] || fail "the backstop probe exited $status, expected 70"
[ "$(wc -l <"$tmp/err")" -eq 1 ] || fail "expected one line"
grep -q "^houserules: hook 'apply' (backstop.lua:2) still ran .* the process is stopped$" "$tmp/err" ||
  fail "the line does not name the hook, file and line"

echo "--- 2. trick: a round that never ends in play"
timeout 600 "$hr" play "$src/tests/fixtures/planted-bugs/endless-round" --players random,random --quiet >"$tmp/out" 2>"$tmp/err"
status=$?
cat "$tmp/err"
[ "$status" -eq 1 ] || fail "play exited $status, expected 1"
grep -q "not over after 100000 actions" "$tmp/err" || fail "no ply-cap message"

echo "--- 3. trick: an error raised in ranks, ranks returning nil"
for body in "error('no ranks today')" "return nil" "return {0, 0}"; do
  printf 'extends = "lost-cities"\nscript = "v.lua"\n' >"$tmp/v.toml"
  printf 'local rules = ...\nrules.ranks = function() %s end\nreturn rules\n' "$body" >"$tmp/v.lua"
  timeout 600 "$hr" play "$tmp/v.toml" --players random,random --quiet >"$tmp/out" 2>"$tmp/err"
  status=$?
  cat "$tmp/err"
  [ "$status" -eq 1 ] || fail "play with ranks '$body' exited $status, expected 1"
  grep -q "^error: hook 'ranks'" "$tmp/err" || fail "no clean error for ranks '$body'"
done

echo "--- 4. trick: a symlink planted at <golden>.jsonl.tmp"
cp -r "$src/rulesets/lost-cities" "$tmp/"
golden="$tmp/lost-cities/tests/golden"
for file in "$golden"/*.jsonl; do
  head -n 1 "$file" | grep '"ruleset":"lost-cities"' > /dev/null || rm "$file"
done
echo "precious" >"$tmp/victim"
for file in "$golden"/*.jsonl; do ln -s "$tmp/victim" "$file.tmp"; done
sed -i 's/^expedition_cost = 20$/expedition_cost = 25/' "$tmp/lost-cities/ruleset.toml"
"$hr" test --update "$golden" || fail "test --update failed"
[ "$(cat "$tmp/victim")" = "precious" ] || fail "test --update wrote through the planted link"
"$hr" test "$golden" || fail "the updated golden files do not pass"
ls "$golden" | grep -v -e '\.jsonl$' -e '\.jsonl\.tmp$' > /dev/null && fail "a temporary file was left behind"

echo "--- 5. trick: hidden state in a Lua upvalue across games"
"$hr" check "$src/tests/scripting/fixtures/hostile/heuristic-counter.toml" --games 3 >"$tmp/out" 2>&1
status=$?
cat "$tmp/out"
[ "$status" -eq 1 ] || fail "check exited $status, expected 1 (a violation)"
grep -m1 '^VIOLATION' "$tmp/out" | grep ": replay: " > /dev/null || fail "the first violation is not a replay violation"
grep -q "same Lua state after the played game" "$tmp/out" || fail "check does not say how it replays"
echo "PASS"
