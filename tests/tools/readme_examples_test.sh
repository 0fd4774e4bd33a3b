#!/usr/bin/env bash
# Every Lua example of a ruleset README's "For variant authors" section loads as a variant script over that
# ruleset and plays random games that `houserules check` finds nothing wrong in (issue 16: the examples a rule
# author copies must work). Usage: readme_examples_test.sh <houserules> <source dir> <ruleset id>...
set -u
hr=$1
src=$2
shift 2
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
count=0
for id in "$@"; do
  readme=$src/rulesets/$id/README.md
  # the ```lua blocks between "## For variant authors" and the next "## " heading, one file each
  awk -v out="$dir/$id" '
    /^## / { inside = ($0 == "## For variant authors") }
    inside && /^```lua$/ { n++; file = out "-" n ".lua"; next }
    inside && /^```$/ && file { file = ""; next }
    file { print > file }' "$readme"
  for lua in "$dir/$id"-*.lua; do
    [ -e "$lua" ] || { echo "FAIL: $readme has no Lua example under 'For variant authors'"; exit 1; }
    toml=${lua%.lua}.toml
    printf 'extends = "%s"\nscript = "%s"\n' "$id" "$(basename "$lua")" > "$toml"
    if ! out=$("$hr" check "$toml" --games 3 2>&1); then
      echo "FAIL: example $(basename "$lua") of $readme:"; cat "$lua"; echo "$out"; exit 1
    fi
    count=$((count + 1))
  done
done
echo "ok: $count README examples load and pass check"
