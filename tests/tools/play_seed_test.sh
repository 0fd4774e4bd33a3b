#!/usr/bin/env bash
# play_seed_test.sh HOUSERULES — `play` without --players seats a human in seat 1 against greedy bots;
# without --seed each game gets a fresh seed, printed in the first line and recorded in the transcript,
# which replays. Fails naming the broken promise.
set -euo pipefail
hr=$1
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT

echo quit | "$hr" play lost-cities > "$d/human.txt"
grep -q 'seat 1 = human seat 2 = greedy' "$d/human.txt" || { echo "FAIL: default players are not human,greedy"; cat "$d/human.txt"; exit 1; }

"$hr" play lost-cities --players random,random --log "$d/a.jsonl" > "$d/a.txt"
"$hr" play lost-cities --players random,random > "$d/b.txt"
seed_a=$(sed -n '1s/.*, seed \([0-9]*\):.*/\1/p' "$d/a.txt")
seed_b=$(sed -n '1s/.*, seed \([0-9]*\):.*/\1/p' "$d/b.txt")
[ -n "$seed_a" ] && [ -n "$seed_b" ] || { echo "FAIL: the seed is not printed in the first line"; head -1 "$d/a.txt"; exit 1; }
[ "$seed_a" != "$seed_b" ] || { echo "FAIL: two games without --seed got the same seed $seed_a"; exit 1; }
grep -q "\"seed\":$seed_a[,}]" "$d/a.jsonl" || { echo "FAIL: the transcript does not record seed $seed_a"; exit 1; }
"$hr" replay "$d/a.jsonl" --quiet > /dev/null || { echo "FAIL: the game with a fresh seed does not replay"; exit 1; }
echo "play: default seats and fresh seeds: ok (seeds $seed_a, $seed_b)"
