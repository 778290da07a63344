#!/usr/bin/env bash
# The plots of docs/seed004.md from the four seed004 sweeps' summaries
# (run the sweeps first: docs/seed004.md, "Reproducing"). Writes PNG and SVG
# into docs/img (or the folder given as $1).
set -euo pipefail
cd "$(dirname "$0")/.."
out="${1:-docs/img}"
small=results/seed004_fig2_small/seed004_fig2_small_summary.csv
slow=results/seed004_fig2_small_slow_post/seed004_fig2_small_slow_post_summary.csv
large=results/seed004_fig2_large/seed004_fig2_large_summary.csv
turn=results/seed004_fig2_small_turn/seed004_fig2_small_turn_summary.csv
for f in "$small" "$slow" "$large" "$turn"; do
  [[ -f "$f" ]] || { echo "plot_seed004: $f is missing: run the seed004 sweeps first" >&2; exit 1; }
done
plot() {   # CSV COLUMN YLABEL TITLE NAME [BY]
  python3 scripts/plot.py "$1" --x traffic.set_size --by "${6:-traffic.scheme}" --xlabel 'group size d' \
    --y "metrics.multicast.$2" --ylabel "$3" --title "$4" -o "$out/seed004_$5.png" -o "$out/seed004_$5.svg"
}
plot "$small" latency_cycles.mean_us.mean "completion latency (us)" \
  "Fig. 2(a): completion latency, 2-byte messages (100 groups per point)" fig2a
plot "$slow" latency_cycles.mean_us.mean "completion latency (us)" \
  "Fig. 2(a) with o_s = 0.8 us (100 groups per point)" fig2a_slow_post
plot "$turn" latency_cycles.mean_us.mean "completion latency (us)" \
  "Fig. 2(a) with 300-ns dimension turns, 8- and 32-flit VC buffers" fig2a_turn traffic.scheme,router.buffer
plot "$large" latency_cycles.mean_us.mean "completion latency (us)" \
  "Fig. 2(b): completion latency, 512 KB messages (12 groups per point)" fig2b
plot "$small" root_busy_cycles.mean_us.mean "root busy (us per multicast)" "Fig. 3(a): root CPU time per multicast, 2 bytes" fig3a
plot "$small" root_cpu_utilization.mean.mean "root busy / completion latency" "Fig. 3(a): root CPU utilization, 2 bytes" fig3a_util
plot "$large" root_busy_cycles.mean_us.mean "root busy (us per multicast)" "Fig. 3(b): root CPU time per multicast, 512 KB" fig3b
plot "$large" root_cpu_utilization.mean.mean "root busy / completion latency" "Fig. 3(b): root CPU utilization, 512 KB" fig3b_util
plot "$small" plan_root_targets.mean.mean "nodes the root sends to" "Fig. 4(a): start-up latency / set-up cost" fig4a
plot "$small" plan_link_utilization.mean.mean "link visits / used links" "Fig. 5(a): link utilization" fig5a
plot "$small" plan_concurrency.mean.mean "most unicasts in one step" "Fig. 5(b): concurrency, step model" fig5b
plot "$small" concurrency.mean.mean "most messages in flight" "Fig. 5(b): concurrency measured, 2 bytes" fig5b_measured_small
plot "$large" concurrency.mean.mean "most messages in flight" "Fig. 5(b): concurrency measured, 512 KB" fig5b_measured_large
