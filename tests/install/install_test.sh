#!/usr/bin/env bash
# install_test.sh BUILD_DIR — `cmake --install` into a temporary prefix gives a houserules that works from any
# folder, without the source tree (issue 38; docs/install.md):
#   - the prefix's `houserules list` finds the built-in rulesets under <prefix>/share/houserules/rulesets (its
#     --json search_path says so), also after the whole prefix is moved elsewhere;
#   - its `play lost-cities --players random,random --seed 1`, run from /, plays the same game as the build tree's;
#   - `man -l <prefix>/share/man/man1/houserules-play.1` shows play's options; houserules.1 lists the commands;
#   - the bash completion completes `houserules play lost-<TAB>`, commands, options and player names;
#   - README.md and docs/ are in <prefix>/share/doc/houserules.
# Skipped (exit 77) without help2man or man (no man pages to check).
set -euo pipefail
build=$(cd "$1" && pwd)
for tool in help2man man python3; do
  if ! command -v "$tool" >/dev/null; then echo "SKIP: $tool is not installed (apt-get install $tool)"; exit 77; fi
done
fail() { echo "FAIL: $*" >&2; exit 1; }

cmake --build "$build" --target man_pages >/dev/null  # the man pages are made at build time from --help
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cmake --install "$build" --prefix "$tmp/prefix" >/dev/null
unset HOUSERULES_PATH

# A moved tree works as well as the installed one: check both.
cp -a "$tmp/prefix" "$tmp/moved"
for prefix in "$tmp/prefix" "$tmp/moved"; do
  hr=$prefix/bin/houserules
  [ -x "$hr" ] || fail "$hr was not installed"
  (cd / && "$hr" list --json) > "$tmp/list.json"
  python3 - "$tmp/list.json" "$prefix/share/houserules/rulesets" <<'PY' || fail "$hr list does not read the prefix's rulesets"
import json, sys
doc = json.load(open(sys.argv[1]))
want = sys.argv[2]
assert doc["search_path"] == [want], f"search_path {doc['search_path']} != [{want!r}]"
ids = {r["id"] for r in doc["rulesets"]}
assert {"lost-cities", "lost-valley"} <= ids, ids
for r in doc["rulesets"]:
    dirs = [v for k, v in r.items() if k in ("dir", "path", "folder")]
    for d in dirs:
        assert d.startswith(want), f"{r['id']} found at {d}, outside {want}"
PY
  (cd / && "$hr" play lost-cities --players random,random --seed 1) > "$tmp/installed.txt" ||
    fail "$hr play lost-cities from / failed"
  # the prompt's help names the installed copy of the ruleset's rules (issue 38)
  printf 'help\nquit\n' | (cd / && "$hr" play lost-cities --players human,random --seed 1) > "$tmp/help.txt" || true
  grep -qxF "The rules: $prefix/share/houserules/rulesets/lost-cities/README.md" "$tmp/help.txt" ||
    fail "help at the prompt does not name $prefix/share/houserules/rulesets/lost-cities/README.md: $(grep 'The rules' "$tmp/help.txt")"
  # the Python module under a prefix other than /usr reads the prefix's rulesets through HOUSERULES_PATH (docs/python.md)
  if ls "$prefix"/lib/python3/dist-packages/houserules.*.so > /dev/null 2>&1; then
    (cd / && PYTHONPATH=$prefix/lib/python3/dist-packages HOUSERULES_PATH=$prefix/share/houserules/rulesets /usr/bin/python3 -c '
import random, sys, houserules
assert houserules.__file__.startswith(sys.argv[1]), houserules.__file__
state, rng = houserules.load("lost-cities").new_game(1), random.Random(1)
while not state.is_terminal():
    state.apply_action(rng.choice(state.legal_actions()))' "$prefix") > /dev/null || fail "the Python module installed under $prefix does not play with HOUSERULES_PATH"
  fi
done
"$build/cli/houserules" play lost-cities --players random,random --seed 1 > "$tmp/build.txt"
cmp -s "$tmp/build.txt" "$tmp/installed.txt" || fail "the installed play lost-cities --seed 1 differs from the build tree's"
grep -q "$("$build/cli/houserules" --version | cut -d' ' -f2)" <("$tmp/prefix/bin/houserules" --version) || fail "--version"

# Man pages: one for houserules and one for each command, with the command's options.
man_dir=$tmp/prefix/share/man/man1
page=$(MANWIDTH=120 man -P cat -l "$man_dir/houserules-play.1" 2>/dev/null)
grep -q "houserules-play" <<<"$page" || fail "houserules-play.1 has no NAME houserules-play"
for option in --players --seed --log --resume; do
  grep -q -- "$option" <<<"$page" || fail "man houserules-play does not show $option"
done
page=$(MANWIDTH=120 man -P cat -l "$man_dir/houserules.1" 2>/dev/null)
for command in play test simulate compare serve; do
  grep -qw "$command" <<<"$page" || fail "man houserules does not list $command"
  [ -f "$man_dir/houserules-$command.1" ] || fail "no man page houserules-$command.1"
done

# The bash completion, called as bash calls it (COMP_WORDS, COMP_CWORD), with the prefix's houserules on PATH.
completion=$tmp/prefix/share/bash-completion/completions/houserules
[ -f "$completion" ] || fail "no bash completion at $completion"
complete_words() {  # complete_words WORD... : prints COMPREPLY for the last word, one a line, sorted
  PATH="$tmp/prefix/bin:$PATH" bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _houserules
                                        printf "%s\n" "${COMPREPLY[@]}"' _ "$completion" "$@" | sort
}
got=$(complete_words houserules play lost-)
for want in lost-cities lost-cities/three-player lost-valley; do
  grep -qx "$want" <<<"$got" || fail "houserules play lost-<TAB> does not offer $want: $(tr '\n' ' ' <<<"$got")"
done
if grep -qv '^lost-' <<<"$got"; then fail "houserules play lost-<TAB> offers a word not starting lost-: $got"; fi
[ "$(complete_words houserules pl)" = play ] || fail "houserules pl<TAB> is not play"
grep -qx -- --players <<<"$(complete_words houserules play lost-cities --pl)" || fail "play --pl<TAB> lacks --players"
[ "$(complete_words houserules play lost-cities --players random,gr)" = random,greedy ] ||
  fail "--players random,gr<TAB> is not random,greedy"
grep -qx lost-cities <<<"$(complete_words houserules new my-rule --from lost-c)" || fail "new --from lost-c<TAB>"

# The docs.
for doc in README.md docs/cli.md docs/install.md; do
  [ -f "$tmp/prefix/share/doc/houserules/$doc" ] || fail "share/doc/houserules/$doc was not installed"
done
echo "install test: ok (prefix and moved prefix list and play from /, man pages, completion, docs)"
