#!/usr/bin/env bash
# sweep_test.sh HOUSERULES GAMES RULESET SEATS... — greedy against greedy in every seat, GAMES games at each seat
# count: no game may fail, in particular none may hit the action cap (issue 37: two greedy seats that both avoid
# ending a round used to play until the cap of 100,000 actions). CTest label `sweep`, one test per ruleset or
# variant (tests/tools/CMakeLists.txt says how many games and why).
set -uo pipefail
hr=$1 games=$2 ruleset=$3
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
shift 3
for seats in "$@"; do
  players=$(printf 'greedy%.0s,' $(seq "$seats")); players=${players%,}
  "$hr" simulate "$ruleset" --players "$players" --games "$games" --seed 37 --threads 2 --no-progress --json \
    > "$tmp" 2>&1
  status=$?
  python3 - "$ruleset" "$seats" "$status" "$tmp" <<'PY' || exit 1
import json, sys
ruleset, seats, status = sys.argv[1], sys.argv[2], int(sys.argv[3])
text = open(sys.argv[4]).read()
try:
    doc = json.loads(text[text.index("{"):])
except ValueError:
    sys.exit(f"FAIL: {ruleset} with {seats} seats: no summary (exit {status}): {text[:2000]}")
for g in doc["failures"]:
    print(f"failed: game {g['index']} after {g['plies']} actions: {g['error']}\n  {g['reproduce']}")
assert status == 0 and not doc["failures"] and not doc["overlong"], f"FAIL: {ruleset} with {seats} seats: {len(doc['failures'])} failed"
print(f"{ruleset}, {seats} seats: {doc['completed']} games, length mean {doc['length']['mean']:.0f}, max {doc['length']['max']} actions")
PY
done
