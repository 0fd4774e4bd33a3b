#!/usr/bin/env python3
"""example_lines.py — every house rule of examples/ is short and reads no internals (issue 35).

Usage: example_lines.py EXAMPLES_DIR [--max N]

For each .lua file under EXAMPLES_DIR: counts its lines of Lua that are neither blank nor comments (`--` lines and
`--[[ ... ]]` blocks) and fails when one has more than N (20, the issue's bound); and fails on any line that reads
an internal of a ruleset instead of a named rule: `rules.constants` (the historic integer codes), `game:phase()` /
`view:phase()` (the phase's number; `phase_name()` answers by name), a phase number given to `set_phase` or
`set_to_move`, or an action compared with an integer literal (`action >= 100`: an integer code).
Prints `file:line: message` for each problem (or the counts when all pass); exit status 1 when any.
"""
import pathlib
import re
import sys

INTERNALS = [
    (re.compile(r"rules\.constants"), "reads rules.constants (integer codes): use rules.encoding or a named rule"),
    (re.compile(r":phase\(\s*\)"), "reads the phase's number: use game:phase_name()"),
    (re.compile(r"set_phase\(\s*-?\d"), "sets a phase by number: name it (game:set_phase(\"draw\"))"),
    (re.compile(r"set_to_move\([^)]*,\s*-?\d+\s*\)"), "sets a phase by number: name it"),
    (re.compile(r"\b(action|out\[\w+\]|a)\s*(==|~=|<=|>=|<|>)\s*\d"), "compares an action with an integer code: read it with rules.encoding:read"),
]


def code_lines(text):
    """Yields (line number, line) for each line that is neither blank nor a comment."""
    in_block = False
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.strip()
        if in_block:
            if "]]" in stripped:
                in_block = False
            continue
        if stripped.startswith("--[[") or stripped.startswith("--[=["):
            in_block = "]]" not in stripped[4:]
            continue
        if not stripped or stripped.startswith("--"):
            continue
        yield number, line


def main(argv):
    if len(argv) < 2:
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    root = pathlib.Path(argv[1])
    limit = int(argv[argv.index("--max") + 1]) if "--max" in argv else 20
    problems, counts = [], []
    files = sorted(root.rglob("*.lua"))
    if not files:
        problems.append(f"{root}: no .lua file found")
    for path in files:
        lines = list(code_lines(path.read_text(encoding="utf-8")))
        counts.append(f"{path.relative_to(root)}: {len(lines)}")
        if len(lines) > limit:
            problems.append(f"{path}:1: {len(lines)} lines of Lua (non-blank, non-comment), more than {limit}")
        for number, line in lines:
            code = line.split("--", 1)[0]
            for pattern, message in INTERNALS:
                if pattern.search(code):
                    problems.append(f"{path}:{number}: {message}: {line.strip()}")
    for problem in problems:
        print(problem)
    if not problems:
        print("every example within", limit, "lines, none reads an internal:", ", ".join(counts))
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
