#!/usr/bin/env bash
# One command from a fresh machine to a green test run: install dependencies,
# build, run every test with ctest (each test case in its own process).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
cd build
ctest --output-on-failure -j "$(nproc)" "$@"
