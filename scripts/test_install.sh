#!/usr/bin/env bash
# CI's install test (docs/embedding.md, docs/testing.md): installs wormcast
# into a temporary prefix with scripts/install.sh, then builds the examples
# (examples/) as a user's own project would and runs them:
#   1. CMake, find_package(wormcast) in the prefix;
#   2. pkg-config's wormcast.pc, a plain compiler command line;
#   3. FetchContent (add_subdirectory) of the source tree, the libraries
#      only, no tests;
# and checks the errors a user sees for a wrong prefix. Leaves nothing
# behind but build-install/.
set -euo pipefail
cd "$(dirname "$0")/.."
src=$PWD
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "test_install: FAILED: $*" >&2; exit 1; }
start=$SECONDS

prefix=$tmp/prefix
bash scripts/install.sh --libraries "$prefix"
for f in include/wormcast/embed/network.h include/wormcast/rtl_models/node/network_interface.h \
         include/wormcast/testbenches/app/experiment.h; do
  [ -f "$prefix/$f" ] || fail "$f not installed"
done
config=$(find "$prefix" -name wormcastConfig.cmake -print -quit)
pc=$(find "$prefix" -name wormcast.pc -print -quit)
[ -n "$config" ] || fail "no wormcastConfig.cmake under $prefix"
[ -n "$pc" ] || fail "no wormcast.pc under $prefix"
libs_mb=$(du -cm "$(dirname "$pc")"/../libwormcast_*.a | tail -1 | cut -f1)
echo "test_install: libraries ${libs_mb} MB"
[ "$libs_mb" -lt 150 ] || fail "the installed libraries take ${libs_mb} MB (a Release build without LTO should take far less)"

check_examples() {   # $1: folder with soc_ni/soc_ni and torus_multicast/torus_multicast
  "$1/soc_ni/soc_ni" 20 | tee "$tmp/soc.txt"
  grep -q "all messages delivered" "$tmp/soc.txt" || fail "soc_ni did not deliver every message"
  "$1/torus_multicast/torus_multicast" "$src/experiments/seed001/path_torus.yaml" mdtorus 4 | tee "$tmp/torus.txt"
  grep -q "every multicast reached every destination exactly once" "$tmp/torus.txt" || fail "torus_multicast failed"
}

echo "test_install: 1. find_package(wormcast) in the prefix"
cmake -S examples -B "$tmp/cmake" -G Ninja -DCMAKE_PREFIX_PATH="$prefix" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$tmp/cmake" -j "$(nproc)"
check_examples "$tmp/cmake"

echo "test_install: 2. pkg-config wormcast"
export PKG_CONFIG_PATH
PKG_CONFIG_PATH=$(dirname "$pc")
# shellcheck disable=SC2046
g++ -std=c++17 -O1 examples/soc_ni/soc_ni.cpp -o "$tmp/soc_ni_pc" $(pkg-config --cflags --libs wormcast)
"$tmp/soc_ni_pc" 5 | grep -q "all messages delivered" || fail "soc_ni built with pkg-config failed"

echo "test_install: 3. errors for a wrong prefix"
if cmake -S examples -B "$tmp/wrong" -DCMAKE_PREFIX_PATH="$tmp/no-such-prefix" >"$tmp/wrong.txt" 2>&1; then
  fail "configuring the examples against a missing prefix succeeded"
fi
grep -q "wormcastConfig.cmake" "$tmp/wrong.txt" || { cat "$tmp/wrong.txt"; fail "no word of wormcastConfig.cmake"; }
if bash scripts/install.sh --libraries /proc/wormcast >"$tmp/badprefix.txt" 2>&1; then
  fail "installing into /proc/wormcast succeeded"
fi
grep -q "cannot write to the install prefix '/proc/wormcast'" "$tmp/badprefix.txt" || { cat "$tmp/badprefix.txt"; fail "unclear error"; }
if "$tmp/cmake/torus_multicast/torus_multicast" "$tmp/missing.yaml" >"$tmp/missing.txt" 2>&1; then
  fail "torus_multicast ran on a missing file"
fi
grep -q "missing.yaml" "$tmp/missing.txt" || { cat "$tmp/missing.txt"; fail "the error does not name the file"; }

echo "test_install: 4. FetchContent of the sources (libraries only, no tests)"
cmake -S examples -B "$tmp/fetch" -G Ninja -DWORMCAST_SOURCE_DIR="$src" -DCMAKE_BUILD_TYPE=Release >"$tmp/fetch.txt"
grep -q "test_topo" "$tmp/fetch/build.ninja" && fail "FetchContent configured wormcast's tests"
cmake --build "$tmp/fetch" -j "$(nproc)" --target soc_ni
"$tmp/fetch/soc_ni/soc_ni" 5 | grep -q "all messages delivered" || fail "soc_ni built with FetchContent failed"

echo "test_install: all passed in $((SECONDS - start)) s"
