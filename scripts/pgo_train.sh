#!/usr/bin/env bash
# The profile-guided build's training runs (scripts/build.sh; docs/performance.md,
# "The profile-guided build"): the instrumented tool given as $1 runs the
# quick benchmark suite (switch networks at three loads, meshes and tori of
# VC routers with and without the link hold, the large tori) and one
# experiment of each kind of multicast, with short windows. Each run adds
# its branch and call counts to the profile. Well under a minute here.
set -euo pipefail
cd "$(dirname "$0")/.."
tool=${1:?usage: pgo_train.sh path/to/instrumented/wormcast}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
"$tool" bench --quick > "$out/bench.txt"
short=(--no-progress --set sim.warmup=2000 --set sim.measure=30000)
for e in experiments/default_unicast.yaml experiments/direct_torus_8x8.yaml \
         experiments/seed000/multicast_load.yaml experiments/seed000/ni.yaml \
         experiments/seed001/utorus.yaml experiments/seed001/hypercube.yaml \
         experiments/seed002/base.yaml experiments/seed003/ib_fat_tree.yaml \
         experiments/seed004/sci_torus.yaml experiments/smart_ni_multicast.yaml; do
  "$tool" run "$e" --out "$out/$(basename "$e" .yaml)" "${short[@]}" > /dev/null
done
echo "pgo_train.sh: training runs done"
