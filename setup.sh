#!/usr/bin/env bash
# Sets up houserules on a fresh Debian 12 machine: installs the Debian packages it needs, builds it, and
# plays a whole Lost Cities match between two bots. `./setup.sh --deps-only` installs the packages only.
set -euo pipefail
cd "$(dirname "$0")"

# libcpp-httplib-dev: `houserules serve` (docs/serve.md); its browser tests (tests/web) also need node and npm,
# used when present (./test.sh runs `npm ci` there; skipped with a message otherwise).
# chromium: tests/tools/report_test.sh renders the HTML report of `houserules simulate` in it headless (the
# test is skipped where chromium is missing). clang and libclang-rt-14-dev (libFuzzer, clang's sanitizer
# runtimes): the fuzz targets of tests/fuzz/ that .ci/run runs (docs/fuzzing.md). lcov: genhtml renders the
# tracefile of `houserules test --coverage --lcov` (docs/testing-rules.md; its test skips the HTML without it).
# libreadline-dev: line editing at the play prompt; tmux: tests/tools/terminal_test.sh plays in a pseudo-terminal.
# python3: the example external bot and the tests that parse --json/--junit output; curl: the serve API test;
# jq: tests/web/host_test.sh reads the seat views it gets (skipped without it).
# help2man: the man pages, made from --help at build time; bash-completion: where the completion is installed;
# dpkg-dev, file: `cpack -G DEB` (dpkg-shlibdeps computes the package's Depends); man-db: the install tests
# read the man pages (docs/install.md). slurmctld, slurmd, munge: tests/cluster/slurm_test.sh runs
# docs/simulation.md's Slurm example on a real one-node Slurm; python3-yaml: the Kubernetes manifests' check.
# pybind11-dev, python3-dev, python3-pytest: the Python module `import houserules` and its tests (docs/python.md).
# bc: tests/web/budget_test.sh compares the answers' times; procps: pgrep, which tests/tools/external_player_test.sh
# uses to see that a timed-out bot's child was stopped (neither is on a minimal Debian 12 machine).
packages=(build-essential cmake pkg-config liblua5.4-dev libtomlplusplus-dev catch2 libcli11-dev libfmt-dev
          nlohmann-json3-dev libcpp-httplib-dev chromium clang libclang-rt-14-dev lcov libreadline-dev tmux
          python3 curl jq help2man bash-completion dpkg-dev file man-db
          slurmctld slurmd munge python3-yaml pybind11-dev python3-dev python3-pytest bc procps)
sudo=""
if [ "$(id -u)" -ne 0 ]; then sudo="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -q
$sudo apt-get install -y -q --no-install-recommends "${packages[@]}"
if [ "${1:-}" = "--deps-only" ]; then exit 0; fi

cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo
cmake --build build -j"$(nproc)"
echo
./build/cli/houserules play lost-cities --players greedy,random --seed 7
