#!/usr/bin/env bash
# Configure and build wormcast (Release-with-debug-info) into build/.
#
# Profile-guided (docs/performance.md, "The profile-guided build"): on the
# first build, the tool is built instrumented in build/pgo-gen and run on
# scripts/pgo_train.sh's experiments; its profile (build/pgo-profile) then
# guides GCC's optimisation of the simulator in build/. Later builds reuse
# the profile. Options:
#   --retrain   measure the profile again (after large changes to the code)
#   --tool      build only the wormcast tool (not the tests and testbenches)
#   WORMCAST_PGO=off in the environment: no profile (a plain -O3 + LTO build;
#               a build/ configured with one keeps it until --retrain or a
#               fresh build/)
set -euo pipefail
cd "$(dirname "$0")/.."
retrain=0
TARGET=()
for a in "$@"; do
  case "$a" in
    --retrain) retrain=1 ;;
    --tool) TARGET=(--target wormcast) ;;
    *) echo "build.sh: unknown option '$a' (expected --retrain or --tool)" >&2; exit 2 ;;
  esac
done
GEN=()
command -v ninja >/dev/null && GEN=(-G Ninja)
PROFILE="$PWD/build/pgo-profile"
pgo=${WORMCAST_PGO:-on}
case "$pgo" in on|off) ;; *) echo "build.sh: WORMCAST_PGO='$pgo' (expected on or off)" >&2; exit 2 ;; esac
if [ "$pgo" = on ] && ! "${CXX:-c++}" --version 2>/dev/null | grep -qi 'gcc\|g++\|free software'; then
  echo "build.sh: the compiler is not GCC: building without a profile" >&2
  pgo=off
fi

if [ "$pgo" = on ] && { [ "$retrain" = 1 ] || [ ! -f "$PROFILE/.complete" ]; }; then
  echo "build.sh: building the instrumented tool (build/pgo-gen) for the profile"
  rm -rf "$PROFILE"
  mkdir -p "$PROFILE"
  if [ ! -f build/pgo-gen/build.ninja ] && [ ! -f build/pgo-gen/Makefile ]; then
    cmake -S . -B build/pgo-gen "${GEN[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo \
      -DWORMCAST_PGO=generate -DWORMCAST_PGO_DIR="$PROFILE"
  fi
  cmake --build build/pgo-gen -j "$(nproc)" --target wormcast
  bash scripts/pgo_train.sh build/pgo-gen/wormcast
  touch "$PROFILE/.complete"
  # The build system does not know that objects depend on the profile: the
  # profiled objects of an existing build/ are deleted, so they compile again.
  for d in build/CMakeFiles/wormcast_{topo,algo,rtl,net,app}.dir build/CMakeFiles/wormcast.dir; do
    if [ -d "$d" ]; then find "$d" -name '*.o' -delete; fi
  done
fi

# Configure when there is no generated build system yet (also after a failed
# configure, which leaves a CMakeCache.txt but no build.ninja/Makefile), or
# to switch the profile on.
if [ ! -f build/build.ninja ] && [ ! -f build/Makefile ]; then
  PGO_ARGS=()
  [ "$pgo" = on ] && PGO_ARGS=(-DWORMCAST_PGO=use -DWORMCAST_PGO_DIR="$PROFILE")
  cmake -S . -B build "${GEN[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo "${PGO_ARGS[@]}"
elif [ "$pgo" = on ] && [ "$(sed -n 's/^WORMCAST_PGO:STRING=//p' build/CMakeCache.txt)" != use ]; then
  cmake -S . -B build -DWORMCAST_PGO=use -DWORMCAST_PGO_DIR="$PROFILE"
fi
cmake --build build -j "$(nproc)" "${TARGET[@]}"
