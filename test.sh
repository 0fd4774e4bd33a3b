#!/usr/bin/env bash
# Builds houserules (if needed) and runs every test through CTest: kernel and scripting unit tests,
# Lost Cities random playouts, and every ruleset's and example's scenario files.
set -euo pipefail
cd "$(dirname "$0")"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build build -j"$(nproc)"
ctest --test-dir build --output-on-failure -j"$(nproc)"
