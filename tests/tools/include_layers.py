#!/usr/bin/env python3
"""include_layers.py — checks the include rule of docs/architecture.md: every #include "..." of the source tree
goes to the same layer or one below it, never up.

The layers, lowest first:
  engine/                the kernel (no Lua)
  scripting/             Lua embedding, bindings, rulesets
  cli/play/              playing a game: the play loop, transcripts, external players, observations as JSON
  cli/testing/, cli/simulation/, cli/web/
                         the subsystems above play; none of them includes another
  cli/ (its own files)   the command-line front: main.cpp, arguments, the command table, cmd_*.cpp

A subsystem of cli/ is reached from outside its folder through its one public header only
(cli/play/play.hpp, cli/testing/testing.hpp, cli/simulation/simulation.hpp, cli/web/web.hpp), named with its
folder ("play/play.hpp"). tests/ is not checked: tests may include what they test.

Usage: include_layers.py [SOURCE_DIR]. Prints each broken include as file:line: message and exits 1 when there is
one; prints "include layers: N files, N includes checked" and exits 0 otherwise.
"""
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1] if len(sys.argv) > 1 else os.path.join(os.path.dirname(__file__), "..", ".."))
SUBSYSTEMS = ["play", "testing", "simulation", "web"]
PUBLIC = {name: f"{name}/{name}.hpp" for name in SUBSYSTEMS}
# What each layer may include (besides itself): the layers strictly below it in the order above.
MAY_USE = {
    "engine": set(),
    "scripting": {"engine"},
    "play": {"engine", "scripting"},
    "testing": {"engine", "scripting", "play"},
    "simulation": {"engine", "scripting", "play"},
    "web": {"engine", "scripting", "play"},
    "front": {"engine", "scripting", "play", "testing", "simulation", "web"},
}


def layer_of(path):
    """The layer of a file, by its path relative to ROOT; None for files outside the checked folders."""
    parts = path.split(os.sep)
    if parts[0] in ("engine", "scripting"):
        return parts[0]
    if parts[0] == "cli":
        if len(parts) > 2 and parts[1] in SUBSYSTEMS:
            return parts[1]
        if len(parts) == 2:
            return "front"
    return None


def sources():
    for top in ("engine", "scripting", "cli"):
        for folder, _, files in os.walk(os.path.join(ROOT, top)):
            for name in sorted(files):
                if name.endswith((".cpp", ".hpp", ".hpp.in")):
                    yield os.path.relpath(os.path.join(folder, name), ROOT)


def main():
    files = list(sources())
    # A bare header name ("rules.hpp") is found in the including file's folder first, then on the include path:
    # map each name to the layers that hold a file of that name.
    by_name = {}
    for f in files:
        by_name.setdefault(os.path.basename(f).replace(".hpp.in", ".hpp"), set()).add(layer_of(f))
    problems, checked = [], 0
    include = re.compile(r'^\s*#\s*include\s*"([^"]+)"')
    for f in files:
        layer = layer_of(f)
        with open(os.path.join(ROOT, f), encoding="utf-8") as text:
            for number, line in enumerate(text, 1):
                m = include.match(line)
                if not m:
                    continue
                checked += 1
                target = m.group(1)
                where = f"{f}:{number}"
                if "/" in target:
                    head = target.split("/")[0]
                    if head not in SUBSYSTEMS:
                        problems.append(f"{where}: #include \"{target}\": a path into an unknown folder")
                        continue
                    if head == layer:
                        problems.append(f"{where}: #include \"{target}\": a file of {head}/ includes its siblings "
                                        "by bare name")
                    elif head not in MAY_USE[layer]:
                        problems.append(f"{where}: #include \"{target}\": {layer} may not include {head}/ "
                                        f"(it may use: {', '.join(sorted(MAY_USE[layer])) or 'nothing'})")
                    elif target != PUBLIC[head]:
                        problems.append(f"{where}: #include \"{target}\": {head}/ is reached through its public "
                                        f"header \"{PUBLIC[head]}\" only")
                    continue
                if os.path.exists(os.path.join(ROOT, os.path.dirname(f), target)):
                    continue  # a sibling in the same folder (same layer)
                owners = by_name.get(target, set())
                if not owners:
                    # Generated (encoding_lua.hpp, web_assets.cpp's header) or a third-party header in quotes.
                    continue
                allowed = owners & (MAY_USE[layer] | {layer})
                if not allowed:
                    problems.append(f"{where}: #include \"{target}\": that header is in {', '.join(sorted(owners))}, "
                                    f"above or beside {layer} (it may use: "
                                    f"{', '.join(sorted(MAY_USE[layer])) or 'nothing'})")
                elif owners & {"play", "testing", "simulation", "web"} and layer not in owners:
                    problems.append(f"{where}: #include \"{target}\": a header of cli/{next(iter(owners))}/ "
                                    "included by bare name from outside its folder (use its public header)")
    for p in problems:
        print(p)
    print(f"include layers: {len(files)} files, {checked} includes checked, {len(problems)} broken")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
