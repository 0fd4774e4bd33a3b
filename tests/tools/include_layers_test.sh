#!/usr/bin/env bash
# include_layers_test.sh — the include-rule checker (include_layers.py) fails on each kind of upward include,
# planted in a small tree of its own, and passes on the same tree without them.
set -euo pipefail
checker="$(dirname "$0")/include_layers.py"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"/engine "$tmp"/scripting "$tmp"/cli/play "$tmp"/cli/web "$tmp"/cli/testing
echo '#pragma once' > "$tmp/engine/rules.hpp"
printf '#include "rules.hpp"\n' > "$tmp/scripting/sandbox.hpp"
printf '#include "sandbox.hpp"\n#include "transcript.hpp"\n' > "$tmp/cli/play/play.hpp"
echo '#pragma once' > "$tmp/cli/play/transcript.hpp"
printf '#include "play/play.hpp"\n' > "$tmp/cli/web/serve.cpp"
printf '#include "play/play.hpp"\n' > "$tmp/cli/testing/scenario.cpp"
printf '#include "play/play.hpp"\n' > "$tmp/cli/main.cpp"
python3 "$checker" "$tmp" > "$tmp/out" || { cat "$tmp/out"; echo "FAIL: the clean tree was refused"; exit 1; }
expect() {  # file, line to write, text the checker must print
  cp "$tmp/$1" "$tmp/$1.bak"
  printf '%s\n' "$2" >> "$tmp/$1"
  if python3 "$checker" "$tmp" > "$tmp/out"; then echo "FAIL: $1 with '$2' passed"; exit 1; fi
  grep -qF -- "$3" "$tmp/out" || { cat "$tmp/out"; echo "FAIL: no '$3' for $1 with '$2'"; exit 1; }
  mv "$tmp/$1.bak" "$tmp/$1"
}
expect engine/rules.hpp '#include "sandbox.hpp"' 'that header is in scripting, above or beside engine'
expect scripting/sandbox.hpp '#include "play/play.hpp"' 'scripting may not include play/'
expect cli/play/play.hpp '#include "web/web.hpp"' 'play may not include web/'
expect cli/web/serve.cpp '#include "testing/testing.hpp"' 'web may not include testing/'
expect cli/web/serve.cpp '#include "play/transcript.hpp"' 'through its public header "play/play.hpp" only'
expect cli/testing/scenario.cpp '#include "transcript.hpp"' 'included by bare name from outside its folder'
echo "include_layers_test: 6 planted upward includes found, the clean tree passes"
