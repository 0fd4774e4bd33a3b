#!/usr/bin/env bash
# Builds houserules (if needed) and runs every test through CTest: kernel and scripting unit tests,
# Lost Cities random playouts, every ruleset's and example's scenario files, and `serve` in a headless browser.
set -euo pipefail
cd "$(dirname "$0")"
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo > /dev/null
cmake --build build -j"$(nproc)"
# The browser test of `houserules serve` drives chromium with the playwright-core pinned in tests/web/package.json;
# it is skipped (with a message) where npm is missing.
if command -v npm > /dev/null && [ ! -f tests/web/node_modules/playwright-core/package.json ]; then
  (cd tests/web && npm ci --no-audit --no-fund --loglevel=error) || echo "test.sh: npm ci in tests/web failed: the browser test will be skipped"
fi
ctest --test-dir build --output-on-failure -j"$(nproc)"
