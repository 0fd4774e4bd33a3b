#!/usr/bin/env bash
# readme_first_page_test.sh HOUSERULES SOURCE-DIR — the README's first page says true things (issue 38):
#   - the quick start is exactly two commands, ./setup.sh and ./test.sh;
#   - each command of "What people do with it" runs as written, in order, in a fresh folder (the house rule
#     that `new` writes is the one `test` and `compare` use; `compare --games` scaled down to 20; the
#     interactive `play` gets no input, so it stops at end of input);
#   - every relative link of the README names a file that exists.
set -euo pipefail
hr=$(realpath "$1")
src=$(realpath "$2")
fail() { echo "FAIL: $*"; exit 1; }
readme=$src/README.md
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

quick=$(awk '/^## Quick start/ {on = 1; next} on && /^## / {exit} on' "$readme" |
        awk '/^```sh$/ {on = 1; next} /^```$/ {on = 0} on' | sed 's/ *#.*//')
[ "$quick" = $'./setup.sh\n./test.sh' ] || fail "the quick start is not exactly ./setup.sh and ./test.sh: $quick"

mkdir -p "$tmp/bin" "$tmp/work"
ln -s "$hr" "$tmp/bin/houserules"
ln -s "$src/examples" "$tmp/work/examples"  # the bot's path is relative to the source tree
commands=$(awk '/^## What people do/ {on = 1; next} on && /^## / {exit} on && /^\| \*\*/' "$readme" |
           awk -F' \\| ' '{print $2}' | sed -e 's/^`//' -e 's/`$//')
[ "$(wc -l <<<"$commands")" -eq 5 ] || fail "expected five things people do, found: $commands"
while IFS= read -r command; do
  [[ $command == houserules\ * ]] || fail "not a houserules command: $command"
  run=${command/--games 2000/--games 20}
  echo "\$ $run"
  out=$(cd "$tmp/work" && PATH="$tmp/bin:$PATH" bash -c "$run" </dev/null 2>&1) || fail "'$command' failed: $out"
done <<<"$commands"

links=$(grep -oE '\]\([^)#]+' "$readme" | sed 's/^](//' | grep -v '^https\?:')
for link in $links; do
  [ -e "$src/$link" ] || fail "the README links $link, which does not exist"
done
echo "OK: quick start, the five commands and $(wc -w <<<"$links") links of the README"
