#!/usr/bin/env bash
# `houserules new NAME --from RULESET [--dir P]` (issue 35): writes P/NAME/ (NAME/ without --dir), lists the
# parent's named rules (extension points) with their docstrings' first sentence in its output and in the Lua
# scaffold's comments, writes no absolute path into the files, and its scenario passes.
# Usage: new_scaffold_test.sh <houserules> <source dir>
set -u
hr=$(realpath "$1")
src=$(realpath "$2")
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
fail() { echo "FAIL: $*"; exit 1; }

out=$("$hr" new short-hands --from "$src/rulesets/lost-cities" --dir "$dir/rules" 2>&1) || fail "new exited $?: $out"
printf '%s\n' "$out"
for f in short-hands.toml short-hands.lua tests/short-hands.toml; do
  [ -f "$dir/rules/short-hands/$f" ] || fail "--dir rules did not write rules/short-hands/$f"
done
grep -qF "The named rules of lost-cities" <<<"$out" || fail "the output does not list the named rules"
grep -qF "  may_play(game, seat, card, column, n) -> boolean [, reason]" <<<"$out" || fail "the output lacks may_play's signature"
grep -qF "May \`seat\` lay \`card\` on its expedition" <<<"$out" || fail "the output lacks may_play's docstring"
grep -qF "  may_draw(game, seat, pile, discarded)" <<<"$out" || fail "the output lacks may_draw"
lua=$dir/rules/short-hands/short-hands.lua
grep -qF -- "--   rules.column_score(sum, wagers, cards)" "$lua" || fail "the scaffold's comments lack column_score"
grep -qF -- "--       May \`seat\` end its turn by drawing" "$lua" || fail "the scaffold's comments lack may_draw's docstring"
# comments name paths relative to the folder that holds short-hands/; `extends` is relative to the new folder
if grep -rhE '^[[:space:]]*(#|--)' "$dir/rules/short-hands" | grep -F -e "$dir" -e "$src"; then
  fail "an absolute path in the scaffold's comments"
fi
grep -q '^extends = "\.\./' "$dir/rules/short-hands/short-hands.toml" || fail "extends is not a relative path"
grep -qF "houserules play short-hands/short-hands.toml" "$dir/rules/short-hands/short-hands.toml" ||
  fail "the TOML's comment does not show the relative command"
"$hr" test "$dir/rules/short-hands/tests" || fail "the scaffold's scenario does not pass"
"$hr" describe "$dir/rules/short-hands/short-hands.toml" >/dev/null || fail "the scaffold does not load"

# without --dir: ./NAME/; Rivals lists its auction's rules
(cd "$dir" && "$hr" new bids --from lost-cities-rivals) > "$dir/rivals.txt" 2>&1 || fail "new --from lost-cities-rivals: $(cat "$dir/rivals.txt")"
[ -f "$dir/bids/bids.lua" ] || fail "new without --dir did not write ./bids/"
grep -qF "  auction_winner(game)" "$dir/rivals.txt" || fail "Rivals' named rules lack auction_winner: $(cat "$dir/rivals.txt")"
echo "OK"
