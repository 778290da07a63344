#!/usr/bin/env bash
# Runs a fixed set of experiments whose results must not change when the
# simulator is only made faster, into one folder per run under OUTDIR.
# usage: scripts/regression_runs.sh OUTDIR [WORMCAST_BINARY] [JOBS]
# Then: scripts/compare_results.py BEFORE_OUTDIR AFTER_OUTDIR
# Covers both node models (endpoint, host_ni, smart NI multicast, switch- and
# NI-based multicast under load with small messages), 32 and 256
# nodes, loads from light to saturated, 128- and 16-flit packets, both
# switch.next_header rules, every port-selection policy, both arbitrations,
# virtual cut-through, and a VCD trace; and direct networks (VC routers):
# mesh DOR, torus UTR / BTR / UTPR, hypercube E-cube, light and saturating
# loads, 5- and 8-flit packets, 1-flit and deep VC buffers, extra VCs, the
# "3-way" shared links, several VCs per class, dateline routing, replication on, links held per packet
# (router.link_hold, the yardstick of a worm-level path), all-port processor nodes with message
# traffic, traffic patterns, and a VCD of a small direct run.
# About 3-5 minutes on 2 cores.
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
M=experiments/direct_mesh_8x8.yaml
T=experiments/direct_torus_8x8.yaml
DSHORT="--set sim.warmup=2000 --set sim.measure=10000"
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
  "l09_t3_grant|$D --set topology.seed=3 --set traffic.load=0.09 $SHORT --set switch.next_header=after_grant"
  "l13_t3_grant|$D --set topology.seed=3 --set traffic.load=0.13 $SHORT --set switch.next_header=after_grant"
  "fixed_prio_vct_grant|$D --set switch.arbitration=fixed_priority --set switch.admission=virtual_cut_through $SHORT --set traffic.load=0.08 --set switch.next_header=after_grant"
  "smart_ni_grant|experiments/smart_ni_multicast.yaml --set switch.next_header=after_grant"
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
  "hostni_small|$D --set node.model=host_ni --set traffic.load=0.005 --set message.size=8 --set ni.packet_size=8flits --set sim.warmup=0 --set sim.measure=20000"
  "mcast_load_path|experiments/seed000/multicast_load.yaml --seed 609 --set topology.switches=11 --set topology.nodes=29 --set topology.seed=19 --set routing.selection=deterministic --set traffic.scheme=path-lg --set traffic.degree=5 --set traffic.load=0.002 --set message.size=16 --set ni.packet_size=64flits --set sim.warmup=0 --set sim.measure=20000 --set sim.drain_limit=50000"
  "mcast_load_ni|experiments/seed000/multicast_load.yaml --set traffic.scheme=ni --set traffic.degree=3 --set traffic.load=0.01 --set sim.warmup=20000 --set sim.measure=100000"
  "vcd|$D --set sim.warmup=0 --set sim.measure=3000 --vcd @OUT@/trace.vcd --vcd-filter net.sw*"
  "d_mesh_l02|$M --set traffic.load=0.02 $DSHORT"
  "d_mesh_l08|$M $DSHORT"
  "d_mesh_sat|$M --set traffic.load=0.5 $DSHORT"
  "d_mesh_cnsim|$M --set traffic.packet_size=5flits --set router.buffer=20flits --set traffic.load=0.1 $DSHORT"
  "d_mesh_buf1|$M --set router.buffer=1flits --set traffic.load=0.2 $DSHORT"
  "d_mesh_transpose|$M --set traffic.pattern=transpose --set traffic.load=0.2 $DSHORT"
  "d_mesh_asc_hot|$M --set routing.order=ascending --set traffic.pattern=hotspot --set traffic.load=0.05 $DSHORT"
  "d_torus_btr_l08|$T $DSHORT"
  "d_torus_btr_sat|$T --set traffic.load=0.6 --set traffic.packet_size=5flits $DSHORT"
  "d_torus_btr_deep|$T --set router.buffer=32flits --set traffic.load=0.3 $DSHORT"
  "d_torus_utr_l05|$T --set topology.direction=unidirectional --set routing.function=utr --set traffic.load=0.05 $DSHORT"
  "d_torus_utr_sat|$T --set topology.direction=unidirectional --set routing.function=utr --set traffic.load=0.5 --set router.buffer=2flits $DSHORT"
  "d_torus_utpr|$T --set topology.direction=unidirectional --set routing.function=utpr --set traffic.load=0.2 --set traffic.pattern=bit_complement $DSHORT"
  "d_torus_3way|$T --set router.link_sharing=bidirectional --set traffic.load=0.3 $DSHORT"
  "d_torus_3way_light|$T --set router.link_sharing=bidirectional --set traffic.load=0.03 $DSHORT"
  "d_torus_repl|$T --set router.replication=true --set traffic.load=0.1 $DSHORT"
  "d_hcube_ecube|$M --set topology.kind=hypercube --set topology.dims=2x2x2x2x2x2 --set routing.function=ecube --set traffic.load=0.3 $DSHORT"
  "d_torus_3d|$T --set topology.dims=4x4x4 --set traffic.load=0.1 $DSHORT"
  "d_mesh_2vc_sat|$M --set router.vcs=2 --set traffic.load=0.5 $DSHORT"
  "d_mesh_hold_cnsim|$M --set router.vcs=2 --set router.link_hold=packet --set traffic.packet_size=5flits --set router.buffer=20flits --set traffic.load=0.1 $DSHORT"
  "d_mesh_hold_sat|$M --set router.vcs=2 --set router.link_hold=packet --set traffic.load=0.5 $DSHORT"
  "d_hcube_hold|$M --set topology.kind=hypercube --set topology.dims=2x2x2x2x2x2 --set routing.function=ecube --set router.vcs=2 --set router.link_hold=packet --set traffic.load=0.3 $DSHORT"
  "d_torus_dateline|$T --set routing.function=dateline --set router.vcs=4 --set traffic.load=0.3 $DSHORT"
  "d_proc_allport|$T --set node.model=processor --set router.ports=all_port --set traffic.load=0.002 --set message.size=64 --set sim.warmup=2000 --set sim.measure=20000"
  "d_proc_oneport|$T --set node.model=processor --set traffic.load=0.002 --set message.size=64 --set sim.warmup=2000 --set sim.measure=20000"
  "d_vcd|$T --set topology.dims=4x4 --set traffic.load=0.2 --set sim.warmup=0 --set sim.measure=1500 --vcd @OUT@/trace.vcd"
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
