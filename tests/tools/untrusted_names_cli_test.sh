#!/usr/bin/env bash
# untrusted_names_cli_test.sh HOUSERULES SOURCE_DIR — what a person sees for names and parameter values that
# used to end in a raw library message or a Lua traceback (issue 18): one line on stderr naming the file (and
# line) in words, the input cut, exit status 2. Fails naming the broken promise.
set -euo pipefail
hr=$1
src=$2
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
long=$(printf 'a%.0s' $(seq 300))

# expect NAME STATUS PATTERN COMMAND...: the command exits with STATUS, prints one line on stderr matching
# PATTERN, and nothing of the raw messages (filesystem error, File name too long, stack traceback, the 300 bytes)
expect() {
  local name=$1 status=$2 pattern=$3
  shift 3
  local code=0
  (cd "$d" && "$@") > "$d/out.txt" 2> "$d/err.txt" || code=$?
  [ "$code" = "$status" ] || { echo "FAIL $name: exit $code, not $status"; cat "$d/out.txt" "$d/err.txt"; exit 1; }
  [ "$(wc -l < "$d/err.txt")" -le 1 ] || { echo "FAIL $name: more than one line on stderr"; cat "$d/err.txt"; exit 1; }
  grep -qE "$pattern" "$d/err.txt" "$d/out.txt" || { echo "FAIL $name: no '$pattern'"; cat "$d/out.txt" "$d/err.txt"; exit 1; }
  if grep -qE "filesystem error|File name too long \[|stack traceback|$long" "$d/err.txt" "$d/out.txt"; then
    echo "FAIL $name: a raw message or the whole input"; cat "$d/out.txt" "$d/err.txt"; exit 1
  fi
  echo "ok $name: $(head -c 200 "$d/err.txt")"
}

printf '{"type":"header","format":1,"ruleset":"%s","seats":2,"seed":1}\n' "$long" > "$d/long.jsonl"
expect "test of a transcript naming a 300-byte ruleset" 1 "long.jsonl:1: cannot load the ruleset: no ruleset 'aaa" "$hr" test long.jsonl
expect "replay of it" 2 "long.jsonl:1: no ruleset 'aaa" "$hr" replay long.jsonl
expect "new with a 300-byte name" 2 "is not a name: use 1 to 64 letters" "$hr" new "$long" --from lost-cities
expect "new in a folder with a 300-byte name" 2 "cannot use 'aaa.*': File name too long" "$hr" new x --from lost-cities --dir "$long"
[ ! -e "$d/x" ] || { echo "FAIL: new created something"; exit 1; }

# parameter values the scripts cannot handle: refused by the schema, at the variant's line
variant() { printf 'extends = "%s/rulesets/%s"\n[params]\n%s\n' "$src" "$1" "$2" > "$d/v.toml"; }
variant lost-cities 'teams = [1]'
expect "lost-cities teams for 1 of 2 seats" 2 "v.toml:3: parameter 'teams' has 1 entry, but 2 players play" "$hr" play v.toml --players random,random
variant lost-cities 'colours = ["yellow", "zzz"]'
expect "lost-cities colour without a letter" 2 "v.toml:3: parameter 'colours' has 'zzz', which 'letters' has no entry for" "$hr" describe ./v.toml
variant lost-cities-rivals 'copies = [2]'
expect "rivals copies not one per value" 2 "v.toml:3: parameter 'copies' has 1 entry, but needs one per value" "$hr" play v.toml --players random,random
variant lost-cities-board 'arrows = 1000000'
expect "board a million arrows" 2 "v.toml:3: parameter 'arrows' = 1000000 is above its maximum 25" "$hr" simulate v.toml --players random,random --games 1
variant lost-valley 'events = { axe = 100000 }'
expect "lost-valley 100000 axes" 2 "v.toml:3: parameter 'events' entry 'axe' = 100000 is above its maximum 20" "$hr" play v.toml --players random,random,random
echo "untrusted names and parameters: ok"
