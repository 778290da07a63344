#!/usr/bin/env bash
# Runs a fixed set of experiments whose results must not change when the
# simulator is only made faster, into one folder per run under OUTDIR.
# usage: scripts/regression_runs.sh OUTDIR [WORMCAST_BINARY] [JOBS]
# Then: scripts/compare_results.py BEFORE_OUTDIR AFTER_OUTDIR
# Covers both node models (endpoint, host_ni, smart NI multicast), 32 and 256
# nodes, loads from light to saturated, 128- and 16-flit packets, both
# switch.next_header rules, every port-selection policy, both arbitrations,
# virtual cut-through, and a VCD trace. About 2-4 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
OUT=${1:?usage: scripts/regression_runs.sh OUTDIR [WORMCAST_BINARY] [JOBS]}
BIN=$(realpath "${2:-build/wormcast}")
JOBS=${3:-2}
mkdir -p "$OUT"
OUT=$(realpath "$OUT")
D=experiments/default_unicast.yaml
S256="--set topology.switches=64 --set topology.nodes=256"
SHORT="--set sim.warmup=2000 --set sim.measure=20000"
cases=(
  "default|$D"
  "default_drain|$D --set switch.next_header=after_drain"
  "l01_t3|$D --set topology.seed=3 --set traffic.load=0.01 $SHORT"
  "l09_t3|$D --set topology.seed=3 --set traffic.load=0.09 $SHORT"
  "l13_t3|$D --set topology.seed=3 --set traffic.load=0.13 $SHORT"
  "l13_t3_drain|$D --set topology.seed=3 --set traffic.load=0.13 $SHORT --set switch.next_header=after_drain"
  "sel_adaptive|$D --set routing.selection=adaptive $SHORT --set traffic.load=0.08"
  "sel_random|$D --set routing.selection=random $SHORT --set traffic.load=0.08"
  "sel_rr|$D --set routing.selection=round_robin $SHORT --set traffic.load=0.08"
  "fixed_prio_vct|$D --set switch.arbitration=fixed_priority --set switch.admission=virtual_cut_through $SHORT --set traffic.load=0.08"
  "n256_l01|$D $S256 --set traffic.load=0.01 $SHORT"
  "n256_l03|$D $S256 --set traffic.load=0.03 $SHORT"
  "n256_l03_drain|$D $S256 --set traffic.load=0.03 $SHORT --set switch.next_header=after_drain"
  "n256_l04|$D $S256 --set traffic.load=0.04 $SHORT"
  "n256_p16_l02|$D $S256 --set traffic.load=0.02 --set traffic.packet_size=16flits $SHORT"
  "n32_p16_l04|$D --set traffic.load=0.04 --set traffic.packet_size=16flits $SHORT"
  "hostni|$D --set node.model=host_ni --set traffic.load=0.002 --set message.size=512 --set sim.warmup=20000 --set sim.measure=200000"
  "hostni_fast|$D --set node.model=host_ni --set traffic.load=0.01 --set ni.t_ns=200 --set ni.t_nr=200 --set message.size=256 --set sim.warmup=5000 --set sim.measure=100000 --set switch.next_header=after_drain"
  "smart_ni|experiments/smart_ni_multicast.yaml"
  "smart_ni_fcfs|experiments/smart_ni_multicast.yaml --set ni.firmware=fcfs"
  "vcd|$D --set sim.warmup=0 --set sim.measure=3000 --vcd @OUT@/trace.vcd --vcd-filter net.sw*"
)
run_case() {
  local name=${1%%|*} args=${1#*|}
  local dir="$OUT/$name"
  mkdir -p "$dir"
  args=${args//@OUT@/$dir}
  # shellcheck disable=SC2086
  "$BIN" run $args --out "$dir" --no-progress >"$dir/run.log" 2>&1 || echo "exit $?" >"$dir/exit.txt"
}
export -f run_case
export OUT BIN
printf '%s\n' "${cases[@]}" | xargs -P "$JOBS" -I{} bash -c 'run_case "$1"' _ {}
echo "results in $OUT"
