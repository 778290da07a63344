#!/usr/bin/env bash
# The sanitizer pass of CI (docs/testing.md): builds wormcast and its tests
# with AddressSanitizer + LeakSanitizer + UndefinedBehaviorSanitizer into
# build-asan/ (separate from build/), runs the whole ctest suite with leak
# detection on, then the loader fuzz test. Any sanitizer report fails the run.
# Extra arguments go to the first ctest (e.g. -R 'node:').
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh
GEN=()
command -v ninja >/dev/null && GEN=(-G Ninja)
if [ ! -f build-asan/build.ninja ] && [ ! -f build-asan/Makefile ]; then   # as scripts/build.sh
  cmake -S . -B build-asan "${GEN[@]}" -DCMAKE_BUILD_TYPE=RelWithDebInfo -DWORMCAST_SANITIZE=ON
fi
# The sanitizer pass is also the checked build: the fast paths' invariants
# are tested where they are relied on (rtl_models/core/checked.h).
if ! grep -q '^WORMCAST_CHECKED:BOOL=ON' build-asan/CMakeCache.txt; then
  echo "test_sanitize.sh: build-asan is not a checked build (WORMCAST_CHECKED is off)" >&2
  exit 1
fi
cmake --build build-asan -j "$(nproc)"

# halt_on_error: the first report ends the process with a failure.
# detect_stack_use_after_return=0: SystemC switches SC_THREAD stacks itself
#   (QuickThreads), which ASan's fake stacks do not follow.
# detect_leaks=1: LeakSanitizer at exit; scripts/lsan.supp lists the only
#   leaks that are not ours (SystemC's own, with the reason for each).
export ASAN_OPTIONS="halt_on_error=1:detect_leaks=1:detect_stack_use_after_return=0"
export UBSAN_OPTIONS="halt_on_error=1:print_stacktrace=1"
export LSAN_OPTIONS="suppressions=$PWD/scripts/lsan.supp:print_suppressions=0"

cd build-asan
ctest --output-on-failure -j "$(nproc)" -LE fuzz "$@"
ctest --output-on-failure -L fuzz
