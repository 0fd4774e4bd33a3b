#!/usr/bin/env bash
# example_lines_test.sh — the examples checker (example_lines.py) finds what it is for: a house rule of 21 lines
# of Lua, and each kind of internal read (rules.constants, a phase number read or set, an integer action code);
# comments and blank lines do not count. Run by CTest ("examples: the line counter finds planted ...").
set -u
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

mkdir -p "$tmp/ok" "$tmp/long" "$tmp/internals"
{ echo "-- a comment"; echo "--[[ a block"; echo "of comment ]]"; echo; for i in $(seq 20); do echo "local x$i = $i"; done; } \
  > "$tmp/ok/ok.lua"
python3 "$here/example_lines.py" "$tmp/ok" > "$tmp/out" || fail "20 lines and comments refused: $(cat "$tmp/out")"
grep -q "ok.lua: 20" "$tmp/out" || fail "20 lines not counted as 20: $(cat "$tmp/out")"

{ for i in $(seq 21); do echo "local x$i = $i"; done; } > "$tmp/long/long.lua"
python3 "$here/example_lines.py" "$tmp/long" > "$tmp/out" && fail "21 lines accepted"
grep -q "long.lua:1: 21 lines of Lua" "$tmp/out" || fail "no line count in: $(cat "$tmp/out")"

cat > "$tmp/internals/bad.lua" <<'LUA'
local rules = ...
local C = rules.constants
if game:phase() == 10 then end
game:set_phase(3)
game:set_to_move(2, 0)
if action >= 100 then end
-- rules.constants in a comment is fine
return rules
LUA
python3 "$here/example_lines.py" "$tmp/internals" > "$tmp/out" && fail "internals accepted"
for line in 2 3 4 5 6; do
  grep -q "bad.lua:$line:" "$tmp/out" || fail "line $line not reported: $(cat "$tmp/out")"
done
grep -q "bad.lua:7:" "$tmp/out" && fail "a comment reported: $(cat "$tmp/out")"
echo "PASS: example_lines.py finds long examples and internal reads"
