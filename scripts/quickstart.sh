#!/usr/bin/env bash
# One command from a fresh machine to a result: install dependencies, build,
# and run the default example (32-node irregular network, uniform unicast).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
bash scripts/build.sh
./build/wormcast run experiments/default_unicast.yaml "$@"
