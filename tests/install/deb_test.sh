#!/usr/bin/env bash
# deb_test.sh BUILD_DIR — the Debian package route of docs/install.md, end to end, as CI runs it (.ci/run):
# `cpack -G DEB` builds houserules_<version>_<arch>.deb; its Depends are Debian runtime packages (dpkg-shlibdeps;
# liblua5.4-0 only for the Python module: the CLI links Lua statically); `apt-get install ./houserules_*.deb` installs it; from another folder
# the installed houserules plays a Lost Cities match, runs `houserules test` on an installed ruleset's
# scenarios, prints the package's version; `man houserules` and `man houserules-play` show; the completion
# completes `houserules play lost-<TAB>`; `apt-get remove` takes it all away again. The package is removed on
# every exit (trap), failed or not. Needs root or sudo (apt-get): skipped (exit 77) otherwise, and when houserules is
# already installed from elsewhere (this test does not remove what it did not install).
set -euo pipefail
src=$(cd "$(dirname "$0")/../.." && pwd)
mkdir -p "$1"
build=$(cd "$1" && pwd)
sudo=""  # apt-get as root: through sudo when not root, as setup.sh does
if [ "$(id -u)" -ne 0 ]; then
  if sudo -n true 2>/dev/null; then sudo="sudo -n"; else echo "SKIP: deb_test.sh installs a package: run it as root (or with sudo)"; exit 77; fi
fi
for tool in cpack apt-get dpkg-shlibdeps man help2man; do
  if ! command -v "$tool" >/dev/null; then echo "SKIP: $tool is not installed"; exit 77; fi
done
if dpkg-query -W -f='${Status}' houserules 2>/dev/null | grep "install ok installed" > /dev/null; then
  echo "SKIP: a houserules package is already installed; this test installs and removes its own"; exit 77
fi
fail() { echo "FAIL: $*" >&2; exit 1; }
export DEBIAN_FRONTEND=noninteractive

# Configured as test.sh does (a no-op when it is), so that CI's ./test.sh afterwards reuses this build.
[ -f "$build/CMakeCache.txt" ] || cmake -S "$src" -B "$build" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
targets="houserules man_pages"
if grep -q '^houserules_python:' "$build/Makefile" 2>/dev/null; then targets="$targets houserules_python"; fi
cmake --build "$build" -j"$(nproc)" --target $targets >/dev/null
rm -f "$build"/houserules_*.deb
(cd "$build" && cpack -G DEB >/dev/null) || fail "cpack -G DEB failed"
deb=$(ls "$build"/houserules_*.deb)
version=$(dpkg-deb -f "$deb" Version)
depends=$(dpkg-deb -f "$deb" Depends)
echo "package: $(basename "$deb"), Depends: $depends"
grep -q 'libc6' <<<"$depends" || fail "Depends lacks libc6: $depends"
grep -q 'libstdc++6' <<<"$depends" || fail "Depends lacks libstdc++6: $depends"
# The CLI links Lua statically; the Python module (when built) links Debian's shared liblua5.4-c++.
contents=$(dpkg-deb -c "$deb")
if grep -q "dist-packages/houserules" <<<"$contents"; then python_module=1; else python_module=""; fi
if [ -n "$python_module" ]; then
  grep -q 'liblua5.4-0' <<<"$depends" || fail "Depends lacks liblua5.4-0, which the Python module links: $depends"
elif grep -q 'lua' <<<"$depends"; then fail "Depends names Lua, which the CLI links statically: $depends"; fi

tmp=$(mktemp -d)
cleanup() {
  $sudo apt-get remove -y -q houserules >/dev/null 2>&1 || true
  rm -rf "$tmp"
}
trap cleanup EXIT
(cd "$build" && $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "./$(basename "$deb")" >/dev/null) || fail "apt-get install ./$(basename "$deb") failed"

cd "$tmp"
unset HOUSERULES_PATH
[ "$(command -v houserules)" = /usr/bin/houserules ] || fail "houserules is not /usr/bin/houserules"
[ "$(houserules --version)" = "houserules $version" ] || fail "houserules --version '$(houserules --version)' is not $version"
houserules play lost-cities --players greedy,random --seed 7 > play.txt || fail "houserules play lost-cities failed"
grep -qi "wins\|draw\|score" play.txt || fail "the match printed no result: $(tail -3 play.txt)"
houserules test /usr/share/houserules/rulesets/lost-cities/tests > test.txt || fail "houserules test of an installed ruleset failed: $(tail -5 test.txt)"
grep -q "passed, 0 failed" test.txt || fail "houserules test: $(tail -1 test.txt)"
if [ -n "$python_module" ]; then  # Debian's python3 imports the installed module and plays a game to the end
  /usr/bin/python3 -c '
import random, houserules
s = houserules.load("lost-cities").new_game(7)
while not s.is_terminal(): s.apply_action(random.Random(1).choice(s.legal_actions()))
print("python:", s.returns())' || fail "the installed Python module does not play a game"
fi
MANWIDTH=120 man -P cat houserules 2>/dev/null | grep -w simulate > /dev/null || fail "man houserules does not list simulate"
MANWIDTH=120 man -P cat houserules-play 2>/dev/null | grep -- --players > /dev/null || fail "man houserules-play does not show --players"
completion=$(pkg-config --variable=completionsdir bash-completion 2>/dev/null || echo /usr/share/bash-completion/completions)/houserules
got=$(bash -c 'source "$1"; COMP_WORDS=(houserules play lost-); COMP_CWORD=2; _houserules; printf "%s\n" "${COMPREPLY[@]}"' _ "$completion")
grep -qx lost-cities <<<"$got" || fail "the installed completion does not complete houserules play lost-<TAB>: $got"

$sudo apt-get remove -y -q houserules >/dev/null || fail "apt-get remove houserules failed"
[ ! -e /usr/bin/houserules ] || fail "/usr/bin/houserules is still there after apt-get remove"
[ ! -e /usr/share/houserules/rulesets/lost-cities ] || fail "the rulesets are still there after apt-get remove"
echo "deb test: ok ($(basename "$deb"): installed, played, tested, man, completion, removed)"
