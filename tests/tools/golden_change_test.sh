#!/usr/bin/env bash
# golden_change_test.sh HOUSERULES SOURCE-DIR
# A deliberate rule change must make `houserules test` fail on the golden transcripts with a readable first
# divergence, and `houserules test --update` must re-record them. Works on a copy of rulesets/lost-cities:
#  1. the unchanged copy passes (its golden files replay against the copy's own rules);
#  2. expedition_cost = 25: every golden game diverges at the end of its first round, and the report names
#     the action and the fields that differ (match_scores, round_scores), expected vs got;
#  3. hand_size = 7: the divergence is at the setup, and the report shows the hands and the deck;
#  4. `--update` re-records the files, which then pass.
set -uo pipefail
hr=$1
source_dir=$2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
cp -r "$source_dir/rulesets/lost-cities" "$tmp/"
golden="$tmp/lost-cities/tests/golden"
toml="$tmp/lost-cities/ruleset.toml"
# Only the base ruleset's games: a variant's golden games (header "lost-cities/<variant>") may set the changed
# parameters themselves, and their `extends = "lost-cities"` names the built-in ruleset, not this copy.
for file in "$golden"/*.jsonl; do
  head -n 1 "$file" | grep '"ruleset":"lost-cities"' > /dev/null || rm "$file"
done
count=$(ls "$golden"/*.jsonl | wc -l)
[ "$count" -ge 1 ] || fail "no golden files in rulesets/lost-cities/tests/golden"

echo "--- 1. the unchanged copy"
"$hr" test "$golden" || fail "the unchanged copy does not pass"

echo "--- 2. expedition_cost = 25"
sed -i 's/^expedition_cost = 20$/expedition_cost = 25/' "$toml"
grep -q '^expedition_cost = 25$' "$toml" || fail "could not change expedition_cost in ruleset.toml"
out=$("$hr" test "$golden" 2>&1) && fail "houserules test passed after the rule change:
$out"
printf '%s\n' "$out"
grep -q "^0 passed, $count failed$" <<<"$out" || fail "expected '0 passed, $count failed'"
grep -qE "^FAIL .*\.jsonl:[0-9]+: first divergence at action [0-9]+ \(round 1, seat [12]: 'draw deck'\): the state after it differs" <<<"$out" ||
  fail "no readable first-divergence line (action number, round, seat, action)"
grep -qE "^    match_scores: expected \[-?[0-9]+, -?[0-9]+\], got \[-?[0-9]+, -?[0-9]+\]$" <<<"$out" ||
  fail "the report does not show the match scores expected vs got"
grep -qE "^    round_scores: expected " <<<"$out" || fail "the report does not show the round scores"

echo "--- 3. hand_size = 7"
sed -i 's/^expedition_cost = 25$/expedition_cost = 20/; s/^hand_size = 8$/hand_size = 7/' "$toml"
grep -q '^hand_size = 7$' "$toml" || fail "could not change hand_size in ruleset.toml"
out=$("$hr" test "$golden" 2>&1) && fail "houserules test passed after the rule change"
printf '%s\n' "$out"
grep -q "first divergence at the setup" <<<"$out" || fail "the divergence is not reported at the setup"
grep -qE "^    hand\.1: expected ([^ ]+ ){7}[^ ]+, got ([^ ]+ ){6}[^ ]+$" <<<"$out" ||
  fail "the report does not show hand.1 with 8 cards expected and 7 got"

echo "--- 4. --update re-records, then the files pass"
"$hr" test --update "$golden" || fail "--update failed"
"$hr" test "$golden" || fail "the re-recorded files do not pass"
echo "OK"
