#!/usr/bin/env bash
# The plots of docs/seed001.md from the seed001 sweeps' summaries (run the
# sweeps first: docs/seed001.md, each figure's section). Writes PNG and SVG
# into docs/img (or the folder given as $1). A figure whose sweep has not
# been run is skipped with a note; the script fails if none could be drawn.
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/img}"
mkdir -p "$out"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
drawn=0 skipped=0

summary() { echo "results/$1/$1_summary.csv"; }
have() {   # SWEEP: is its summary there?
  [[ -f "$(summary "$1")" ]] && return 0
  echo "plot_seed001: skipping $1: $(summary "$1") is missing (run: build/wormcast sweep experiments/seed001/sweeps/$1.yaml -j 2)" >&2
  skipped=$((skipped + 1))
  return 1
}
plot() {   # CSV NAME X Y BY TITLE XLABEL YLABEL [plot.py options...]
  local csv=$1 name=$2 x=$3 y=$4 by=$5 title=$6 xlabel=$7 ylabel=$8
  shift 8
  python3 scripts/plot.py "$csv" --x "$x" --y "$y" --by "$by" --title "$title" --xlabel "$xlabel" \
    --ylabel "$ylabel" "$@" -o "$out/seed001_$name.png" -o "$out/seed001_$name.svg" > /dev/null
  drawn=$((drawn + 1))
}
where() {   # SWEEP OUT COLUMN=VALUE...: the rows of one panel
  local sweep=$1 file="$tmp/$2.csv"
  shift 2
  python3 scripts/csv_where.py "$(summary "$sweep")" "$file" "$@" > /dev/null
  echo "$file"
}
M=metrics.multicast
SCHEMES=traffic.scheme,traffic.r
latency_y() {   # average | maximum: the column of that latency over the destinations
  if [[ $1 == maximum ]]; then echo $M.latency_cycles.mean.mean; else echo $M.mean_latency_cycles.mean.mean; fi
}

# Chapter 3: hypercubes
for f in "fig3_10_steps 3_10 6" "fig3_11_steps 3_11 10"; do
  set -- $f
  have "$1" || continue
  plot "$(summary "$1")" "fig$2" traffic.set_size $M.plan_steps.mean.mean traffic.scheme \
    "Fig. ${2/_/.}: steps, $3-cube (100 sets per point)" "multicast set size n (destinations + 1)" "steps (mean over sets)"
done
for f in "fig3_12_ncube2 3_12 3_13 5 20" "fig3_14_15_multisim 3_14 3_15 10 100"; do
  set -- $f
  sweep=$1 cube=$4 sets=$5
  have "$sweep" || continue
  for g in "$2 average" "$3 maximum"; do
    set -- $g
    plot "$(summary "$sweep")" "fig$1" traffic.set_size "$(latency_y "$2")" traffic.scheme \
      "Fig. ${1/_/.}: $2 delay, $cube-cube, nCUBE-2 overheads ($sets sets per point)" \
      "multicast set size n (destinations + 1)" "$2 delay (cycles of 450 ns)"
  done
done

# Chapter 4: U-torus steps with physical link sharing
for f in "fig4_12_13_steps 4_12 4_13 8-64, 200" "fig4_14_15_steps 4_14 4_15 64-512, 100"; do
  set -- $f
  sweep=$1 avg=$2 max=$3 sets="$5"
  have "$sweep" || continue
  plot "$(summary "$sweep")" "fig$avg" traffic.set_size $M.shared_mean_step.mean.mean \
    topology.dims,topology.direction "Fig. ${avg/_/.}: U-torus average steps with link sharing" \
    "multicast set size m (source included; $sets sets per point)" "steps, mean over the destinations"
  plot "$(summary "$sweep")" "fig$max" traffic.set_size $M.shared_steps.mean.mean \
    topology.dims,topology.direction "Fig. ${max/_/.}: U-torus maximum steps with link sharing" \
    "multicast set size m (source included; $sets sets per point)" "steps to the last destination"
done
if have fig4_14_15_steps; then
  plot "$(where fig4_14_15_steps bi topology.direction=bidirectional)" fig4_17_type1 traffic.set_size \
    $M.type1_unicasts.mean.mean topology.dims "Fig. 4.17: U-torus unicasts sharing a link (Type 1, 2-way)" \
    "multicast set size m (bidirectional, 100 sets per point)" "unicasts per multicast"
fi

# Chapter 6: path-based multicast
panels() {   # SWEEP FIG NETWORK STARTUP: (a) 8 and (b) 512 flits, average and maximum
  local sweep=$1 fig=$2 net=$3 startup=$4 p kind
  have "$sweep" || return 0
  for p in "a 8" "b 512"; do
    set -- $p
    local csv
    csv="$(where "$sweep" "$sweep$2" message.size="$2")"
    for kind in average maximum; do
      plot "$csv" "fig${fig/./_}$1_$kind" traffic.set_size "$(latency_y $kind)" $SCHEMES \
        "Fig. $fig($1): $kind latency, $net, $startup startup, $2 flits" \
        "multicast size m (source included; 40 sets per point)" "$kind latency (cycles of 0.5 us)" --logx
    done
  done
}
panels fig6_3_2d_high 6.3 64x64 high
panels fig6_4_2d_low 6.4 64x64 low
panels fig6_5_3d_high 6.5 16x16x16 high
panels fig6_6_3d_low 6.6 16x16x16 low
if have fig6_3_three_cycle_hops; then   # Fig. 6.3(a)/(b) with the 3-cycle router, a what-if
  for p in "a 8" "b 512"; do
    set -- $p
    csv="$(where fig6_3_three_cycle_hops "three$2" message.size="$2")"
    for kind in average maximum; do
      plot "$csv" "fig6_3$1_three_cycle_$kind" traffic.set_size "$(latency_y $kind)" $SCHEMES \
        "Fig. 6.3($1), 3-cycle router: $kind latency, 64x64, high, $2 flits" \
        "multicast size m (source included; 40 sets per point)" "$kind latency (cycles of 0.5 us)" --logx
    done
  done
fi
# (c): 16384-flit messages at m = 16, 128, 512 (sweeps of their own)
for f in "fig6_3c_2d_high_long 6.3 64x64 high" "fig6_4c_2d_low_long 6.4 64x64 low" \
         "fig6_5c_3d_high_long 6.5 16x16x16 high" "fig6_6c_3d_low_long 6.6 16x16x16 low"; do
  set -- $f
  sweep=$1 fig=$2 net=$3 startup=$4
  have "$sweep" || continue
  for kind in average maximum; do
    plot "$(summary "$sweep")" "fig${fig/./_}c_$kind" traffic.set_size "$(latency_y $kind)" $SCHEMES \
      "Fig. $fig(c): $kind latency, $net, $startup startup, 16384 flits" \
      "multicast size m (source included; 10 sets per point)" "$kind latency (cycles of 0.5 us)" --logx
  done
done
for f in "fig6_7_2d_high_length a high (95/75 us)" "fig6_7_2d_low_length b low (10/8 us)"; do
  set -- $f
  sweep=$1 p=$2 startup="$3 $4"
  have "$sweep" || continue
  for kind in average maximum; do
    plot "$(summary "$sweep")" "fig6_7${p}_$kind" message.size "$(latency_y $kind)" $SCHEMES \
      "Fig. 6.7($p): $kind latency, 64x64, m = 512, $startup startup" "message length (flits; 10 sets per point)" \
      "$kind latency (cycles of 0.5 us)" --logx --logy
  done
done
if have fig6_8_link_visits; then
  for f in "a [64, 64] 64x64" "b [16, 16, 16] 16x16x16"; do
    p=${f%% *} rest=${f#* } net=${f##* }
    dims=${rest% *}
    plot "$(where fig6_8_link_visits "links$p" "topology.dims=$dims")" "fig6_8$p" traffic.set_size \
      $M.plan_link_visits.mean.mean $SCHEMES "Fig. 6.8($p): total link visits, $net torus" \
      "multicast size m (source included; 40 sets per point)" "links crossed by the multicast's messages" --logx
  done
fi

echo "plot_seed001: $drawn figures (PNG and SVG) in $out; $skipped sweeps missing"
[[ $drawn -gt 0 ]]
