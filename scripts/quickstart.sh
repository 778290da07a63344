#!/usr/bin/env bash
# One command from a fresh machine to a result: install dependencies, build,
# and run the default example (32-node irregular network, uniform unicast).
# It builds only the tool, without the profile-guided optimisation (which
# builds the tool twice and trains it: minutes more for a few per cent of
# speed); scripts/build.sh and scripts/test.sh add the profile later. It
# installs only the tool's packages (scripts/setup.sh --tool); test.sh
# installs the rest.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tool
WORMCAST_PGO=off bash scripts/build.sh --tool
./build/wormcast run experiments/default_unicast.yaml "$@"
