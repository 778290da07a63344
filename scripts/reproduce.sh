#!/usr/bin/env bash
# Reruns one paper's reproduction page in one command: every sweep of
# experiments/SEED (cached runs are reused unless --force), then the
# page's figures (scripts/plot_SEED.sh or .py, when there is one) and its
# computed verdict tables (each scripts/SEED_*.py: its columns saved to
# docs/data/SEED, its tables written into docs/SEED.md). Prints each sweep's
# runs and wall time as a table, and the total.
#
#   bash scripts/reproduce.sh seed001 [--jobs N] [--wormcast BUILD/wormcast] [--force]
#
# Fails, naming the sweep, when a sweep fails; nothing after it runs.
set -euo pipefail
cd "$(dirname "$0")/.."
usage() { echo "usage: scripts/reproduce.sh SEED [--jobs N] [--wormcast BIN] [--force]" >&2; exit 2; }
[[ $# -ge 1 ]] || usage
seed=$1
shift
jobs=$(nproc) bin=build/wormcast force=()
while [[ $# -gt 0 ]]; do
  case $1 in
    --jobs) [[ $# -ge 2 ]] || usage; jobs=$2; shift 2 ;;
    --wormcast) [[ $# -ge 2 ]] || usage; bin=$2; shift 2 ;;
    --force) force=(--force); shift ;;
    *) usage ;;
  esac
done
# The sweep files: experiments/SEED/sweeps/*.yaml, and those beside the
# experiments in experiments/SEED (a sweep file names its `experiment:`).
[[ -d experiments/$seed && $seed == seed* ]] ||
  { echo "reproduce: no folder experiments/$seed (SEED is one of: $(cd experiments && ls -d seed* | tr '\n' ' '))" >&2; exit 2; }
mapfile -t sweeps < <(ls experiments/"$seed"/sweeps/*.yaml 2>/dev/null; grep -l "^experiment:" experiments/"$seed"/*.yaml 2>/dev/null)
[[ ${#sweeps[@]} -gt 0 ]] || { echo "reproduce: experiments/$seed holds no sweep file" >&2; exit 2; }
[[ -x $bin ]] || { echo "reproduce: $bin is not an executable (build it, or pass --wormcast)" >&2; exit 2; }

start_all=$(date +%s)
table="| sweep | runs (cached before) | wall time |"$'\n'"|---|---|---|"
for f in "${sweeps[@]}"; do
  name=$(basename "$f" .yaml)
  # The dry run's first line: "... = N runs, C cached, ..."
  plan=$("$bin" sweep "$f" --dry-run "${force[@]}" 2>/dev/null) || { echo "reproduce: $f: cannot plan it" >&2; exit 1; }
  runs=$(sed -n '1s/.* = \([0-9]*\) runs, \([0-9]*\) cached.*/\1 (\2)/p' <<< "$plan")
  echo "reproduce: $f: $runs runs (cached)"
  t0=$(date +%s)
  "$bin" sweep "$f" -j "$jobs" "${force[@]}" > /dev/null || { echo "reproduce: $f failed" >&2; exit 1; }
  table+=$'\n'"| $name | $runs | $(( $(date +%s) - t0 )) s |"
done
if [[ -f scripts/plot_$seed.sh ]]; then bash "scripts/plot_$seed.sh"; fi
if [[ -f scripts/plot_$seed.py ]]; then python3 "scripts/plot_$seed.py"; fi
for s in scripts/"$seed"_*.py; do
  [[ -f $s ]] || continue
  python3 "$s" --save "docs/data/$seed"
  python3 "$s" --data "docs/data/$seed" --write "docs/$seed.md"
done
echo "$table"
echo "reproduce: $seed in $(( $(date +%s) - start_all )) s on $jobs jobs"
