#!/usr/bin/env bash
# The worked examples of docs/writing-rules.md, "Six kinds of house rule", work (issue 16): every code block
# there follows a line `<!-- file: PATH -->`. A PATH under examples/ must equal that file of the repository
# (whose own scenario tests run as "example: ..."); any other PATH is written to a scratch folder, and each
# TOML file there must pass `houserules check`. Each of the six subsections shows at least one file.
# Usage: writing_rules_examples_test.sh <houserules> <source dir>
set -u
hr=$1
src=$2
doc=$src/docs/writing-rules.md
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
# one line per file: "<subsection number> <path>"; the block's text goes to $dir/<path>
awk -v out="$dir" '
  /^## / { inside = ($0 == "## Six kinds of house rule") }
  inside && /^### / { sub_n++ }
  inside && /^<!-- file: .* -->$/ { path = $3; next }
  inside && path && /^```(toml|lua)$/ { file = out "/" path; system("mkdir -p \"$(dirname " file ")\""); \
                                        printf "" > file; print sub_n, path; path = ""; next }
  file && /^```$/ { close(file); file = ""; next }
  file { print > file }' "$doc" > "$dir/list"
fail=0
for k in 1 2 3 4 5 6; do
  grep -q "^$k " "$dir/list" || { echo "FAIL: subsection $k of 'Six kinds of house rule' shows no file"; fail=1; }
done
[ "$(cut -d' ' -f1 "$dir/list" | sort -u | wc -l)" = 6 ] || { echo "FAIL: 'Six kinds of house rule' needs six subsections"; fail=1; }
checked=0; same=0
while read -r _ path; do
  case $path in
    examples/*)
      if diff -u "$src/$path" "$dir/$path"; then same=$((same + 1))
      else echo "FAIL: $doc shows $path differently from the file (above: -file +doc)"; fail=1; fi ;;
    *.toml)
      if out=$("$hr" check "$dir/$path" --games 3 2>&1); then checked=$((checked + 1))
      else echo "FAIL: the example $path of $doc:"; echo "$out"; fail=1; fi ;;
  esac
done < "$dir/list"
[ $fail = 0 ] || exit 1
echo "ok: $same files equal their examples/ copy, $checked new example(s) pass check"
