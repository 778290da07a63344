#!/usr/bin/env bash
# ctest "slurm: ...": `wormcast sweep --slurm` against a real single-node
# Slurm from Debian (slurmctld, slurmd, munge), which this script installs
# if missing, starts on localhost in a temporary folder (start_slurm.sh)
# and stops again (stop_slurm.sh), whatever happens.
#   test_sweep_slurm.sh WORMCAST_BINARY SOURCE_DIR
set -euo pipefail
wormcast=$1
src=$2
here=$(cd "$(dirname "$0")" && pwd -P)
fail() { echo "test_sweep_slurm: FAILED: $*" >&2; exit 1; }

if [ "$(id -u)" -ne 0 ]; then fail "needs root to start slurmd (run the tests as root, as CI does)"; fi
pkgs=(slurmctld slurmd slurm-client munge)
missing=()
for p in "${pkgs[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if [ ${#missing[@]} -gt 0 ]; then
  echo "test_sweep_slurm: installing ${missing[*]}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null 2>&1 ||
    { apt-get update -q >/dev/null && apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null; } ||
    fail "cannot install ${missing[*]} from Debian's archive"
fi

tmp=$(mktemp -d)
trap 'bash "$here/stop_slurm.sh" "$tmp/cluster" || true; rm -rf "$tmp"' EXIT
eval "$(bash "$here/start_slurm.sh" "$tmp/cluster")"   # exports SLURM_CONF
[ -n "${SLURM_CONF:-}" ] || fail "start_slurm.sh gave no SLURM_CONF"

# A sweep of three short runs.
printf 'name: slurm_test\nexperiment: %s/experiments/default_unicast.yaml\nset:\n  sim.warmup: 500\n  sim.measure: 2000\ngrid:\n  traffic.load: [0.01, 0.02, 0.03]\n' \
  "$src" >"$tmp/sweep.yaml"
# A sweep whose runs deadlock (a cyclic single-VC routing on a ring, its
# check off: tests/app/test_direct_network.cpp), so its tasks leave no results.
printf 'name: ring_deadlock\ntopology: {kind: torus, dims: [6], direction: unidirectional}\nrouting: {function: broken_single_vc_ring, check: never}\nrouter: {buffer: 1}\ntraffic: {load: 0.95, packet_size: 16}\nsim: {warmup: 200, measure: 5000, watchdog: 500}\n' \
  >"$tmp/ring.yaml"
printf 'name: slurm_bad\nexperiment: %s/ring.yaml\ngrid:\n  traffic.load: [0.9, 0.95]\n' "$tmp" >"$tmp/bad.yaml"
out=$tmp/out

echo "test_sweep_slurm: 1. three runs as one job array, collected"
"$wormcast" sweep "$tmp/sweep.yaml" --slurm --out "$out" 2>&1 | tee "$tmp/first.txt"
grep -q "submitted 3 runs as Slurm job [0-9]*" "$tmp/first.txt" || fail "no job array submitted"
grep -q "3 runs in .*: 0 ok, 3 cached, 0 failed" "$tmp/first.txt" || fail "the three runs were not collected"
[ "$(wc -l <"$out/slurm_test_runs.csv")" -eq 4 ] || fail "slurm_test_runs.csv has not 3 rows"
[ "$(wc -l <"$out/slurm/tasks.txt")" -eq 3 ] || fail "the task list has not 3 lines"

echo "test_sweep_slurm: 2. again: everything cached, nothing submitted"
"$wormcast" sweep "$tmp/sweep.yaml" --slurm --out "$out" 2>&1 | tee "$tmp/second.txt"
if grep -q "submitted" "$tmp/second.txt"; then fail "submitted a job with every run cached"; fi
grep -q "3 runs in .*: 0 ok, 3 cached, 0 failed" "$tmp/second.txt" || fail "the cached runs were not collected"

echo "test_sweep_slurm: 3. a job Slurm refuses"
if "$wormcast" sweep "$tmp/sweep.yaml" --slurm --force --slurm-args=--partition=nonexistent --out "$out" \
    >"$tmp/refused.txt" 2>&1; then
  fail "a refused job array succeeded"
fi
cat "$tmp/refused.txt"
{ grep -q "Slurm refused the job array" "$tmp/refused.txt" && grep -q "invalid partition" "$tmp/refused.txt"; } ||
  fail "the refusal does not say why"

echo "test_sweep_slurm: 4. a task that fails is reported with its log"
status=0
"$wormcast" sweep "$tmp/bad.yaml" --slurm --out "$tmp/bad" >"$tmp/bad.txt" 2>&1 || status=$?
cat "$tmp/bad.txt"
[ "$status" -ne 0 ] || fail "a sweep whose tasks failed exited 0"
grep -q "FAILED: .*no results after the Slurm job: see .*log.txt" "$tmp/bad.txt" || fail "the failed task is not named"

echo "test_sweep_slurm: 5. Slurm's commands missing, then Slurm stopped"
if PATH=/nonexistent "$wormcast" sweep "$tmp/sweep.yaml" --slurm --force --out "$out" >"$tmp/nopath.txt" 2>&1; then
  fail "ran without sbatch"
fi
grep -q "Slurm's commands are not installed here" "$tmp/nopath.txt" || { cat "$tmp/nopath.txt"; fail "unclear error without sbatch"; }
bash "$here/stop_slurm.sh" "$tmp/cluster"
if "$wormcast" sweep "$tmp/sweep.yaml" --slurm --force --out "$out" >"$tmp/down.txt" 2>&1; then
  fail "ran with Slurm stopped"
fi
cat "$tmp/down.txt"
grep -q "Unable to contact slurm controller" "$tmp/down.txt" || fail "unclear error with Slurm stopped"
echo "test_sweep_slurm: all passed"
