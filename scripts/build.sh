#!/usr/bin/env bash
# Configure and build wormcast (Release-with-debug-info) into build/.
set -euo pipefail
cd "$(dirname "$0")/.."
GEN=()
command -v ninja >/dev/null && GEN=(-G Ninja)
# Configure when there is no generated build system yet (also after a failed
# configure, which leaves a CMakeCache.txt but no build.ninja/Makefile).
if [ ! -f build/build.ninja ] && [ ! -f build/Makefile ]; then
  cmake -S . -B build "${GEN[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo
fi
cmake --build build -j "$(nproc)"
