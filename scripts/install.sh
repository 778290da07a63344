#!/usr/bin/env bash
# Installs wormcast under a prefix (docs/embedding.md): headers in
# PREFIX/include/wormcast, the libraries, the CMake package
# (find_package(wormcast)), the pkg-config file wormcast.pc and the wormcast
# tool. It builds what it installs in build-install/: Release, without
# link-time optimisation, so the libraries carry neither debug information
# nor GCC's intermediate code.
#   bash scripts/install.sh PREFIX              libraries, headers and the tool
#   bash scripts/install.sh --libraries PREFIX  without the tool
# WORMCAST_INSTALL_BUILD names another build folder.
set -euo pipefail
usage() {
  echo "usage: scripts/install.sh [--libraries] PREFIX" >&2
  exit 2
}
tools=ON
prefix=""
for a in "$@"; do
  case "$a" in
    --libraries) tools=OFF ;;
    -*) echo "install.sh: unknown option '$a'" >&2; usage ;;
    *) [ -z "$prefix" ] || usage; prefix=$a ;;
  esac
done
[ -n "$prefix" ] || usage
case "$prefix" in /*) ;; *) prefix="$PWD/$prefix" ;; esac
if ! mkdir -p "$prefix" 2>/dev/null || [ ! -w "$prefix" ]; then
  echo "install.sh: cannot write to the install prefix '$prefix' (choose a folder you can write, or run as root)" >&2
  exit 1
fi
cd "$(dirname "$0")/.."
bash scripts/setup.sh
build=${WORMCAST_INSTALL_BUILD:-build-install}
GEN=()
command -v ninja >/dev/null && GEN=(-G Ninja)
cmake -S . -B "$build" "${GEN[@]}" -DCMAKE_BUILD_TYPE=Release -DWORMCAST_LTO=OFF -DWORMCAST_PGO= \
  -DWORMCAST_BUILD_TOOLS="$tools" -DWORMCAST_BUILD_TESTS=OFF -DCMAKE_INSTALL_PREFIX="$prefix" >/dev/null
cmake --build "$build" -j "$(nproc)"
cmake --install "$build" >/dev/null
pc=$(dirname "$(find "$prefix" -name wormcast.pc -print -quit)")
echo "install.sh: wormcast installed under $prefix ($(du -sh "$prefix" | cut -f1));" \
  "CMake: -DCMAKE_PREFIX_PATH=$prefix, pkg-config: PKG_CONFIG_PATH=$pc"
