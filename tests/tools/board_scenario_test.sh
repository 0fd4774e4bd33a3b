#!/usr/bin/env bash
# Board scenarios fail when they should: wrong expectations about tiles, free faces, lying tokens, marks and
# figures each fail with a message naming the board and the site, and malformed texts are errors naming the
# file, the line and the text. Usage: board_scenario_test.sh <houserules> <source dir>
set -u
hr=$1
src=$2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

cat > "$dir/wrong.toml" <<TOML
ruleset = "$src/tests/fixtures/tiny-board"
[[scenario]]
name = "wrong tile"
[scenario.expect.board.valley]
tiles = { "0,0 r1" = "start" }
[[scenario]]
name = "wrong free"
[scenario.expect.board.valley]
free = ["0,0d"]
[[scenario]]
name = "wrong lying"
[scenario.expect.board.valley]
lying = { "face 0,0d" = ["gold"] }
[[scenario]]
name = "wrong mark"
[scenario.expect.board.valley]
marks = { explored = { "0,0" = 0 } }
[[scenario]]
name = "wrong figure"
[scenario.expect.board.valley]
figures = { "prospector.1" = "vertex 1,1" }
[[scenario]]
name = "bad face"
[scenario.board.valley]
lying = { "face 1,1x" = [] }
[[scenario]]
name = "bad placement"
[scenario.board.valley]
tiles = { "0,0 r9" = "start" }
[[scenario]]
name = "taken face"
[scenario.board.valley]
tiles = { "0,0 r0" = "start", "1,1 r3" = "forest" }
[[scenario]]
name = "unknown board"
[scenario.board.meadow]
marks = {}
TOML
out=$("$hr" test "$dir/wrong.toml" 2>&1) && fail "the wrong expectations passed: $out"
expect() { grep -qF -- "$1" <<<"$out" || fail "missing '$1' in:
$out"; }
expect "'wrong tile': board 'valley': '0,0 r1' does not hold 'start' (anchored there: start r0)"
expect "'wrong free': board 'valley': face 0,0d is under tile 'start', expected free"
expect "'wrong lying': board 'valley': face 0,0d holds [gold, gold], expected [gold]"
expect "'wrong mark': board 'valley': mark 'explored' at 0,0 is 1, expected 0"
expect "'wrong figure': figures 'prospector.1' stand on [valley vertex 0,0], expected [valley vertex 1,1]"
expect "wrong.toml:25 'bad face': board 'valley': '1,1x' is not a face of a triangular board"
expect "wrong.toml:29 'bad placement': '0,0 r9' is not a placement on board 'valley'"
expect "wrong.toml:33 'taken face': tile 'forest' at 1,1 r3: face 0,0d of board 'valley' already holds tile 'start'"
expect "'unknown board': unknown board 'meadow'"
expect "0 passed, 9 failed"
echo "ok: board scenarios fail with readable messages"
