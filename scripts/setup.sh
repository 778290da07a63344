#!/usr/bin/env bash
# Installs every build and run dependency of wormcast from Debian's archive.
# Idempotent: packages already present are left alone; safe to run as root on a
# fresh Debian bookworm machine (uses sudo when not root and sudo exists).
# usage: scripts/setup.sh [--tool]
#   --tool: only what building and running the wormcast tool needs (the
#   quickstart): about half the download of the full set, which adds
#   Python's plotting and GNU parallel for sweeps across processes.
set -euo pipefail
PKGS=(
  build-essential cmake ninja-build pkg-config
  libsystemc-dev            # SystemC 2.3.4 + TLM-2.0 (pkg-config: systemc, tlm)
  catch2                    # Catch2 v2 test framework (small; the build configures the tests)
  libspdlog-dev libfmt-dev  # logging
  libjemalloc-dev           # the wormcast tool's allocator (huge pages; CMake WORMCAST_JEMALLOC)
  libyaml-cpp-dev           # experiment/topology files
  libcli11-dev              # command line
  nlohmann-json3-dev        # results files
)
case "${1:-}" in
  --tool) ;;
  "") PKGS+=(
        python3 python3-matplotlib  # plots
        parallel                    # sweeps across processes/hosts
      ) ;;
  *) echo "setup: unknown option '$1' (usage: scripts/setup.sh [--tool])" >&2; exit 2 ;;
esac
missing=()
for p in "${PKGS[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
  echo "setup: all dependencies already installed"
  exit 0
fi
SUDO=""
if [ "$(id -u)" -ne 0 ]; then
  if command -v sudo >/dev/null; then SUDO=sudo; else
    echo "setup: need root (or sudo) to install: ${missing[*]}" >&2; exit 1; fi
fi
echo "setup: installing ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -q
$SUDO apt-get install -y -q --no-install-recommends "${missing[@]}"
