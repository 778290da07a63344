#!/usr/bin/env python3
"""Compare two folders of wormcast results: every simulation result must be identical.

usage: scripts/compare_results.py BEFORE_DIR AFTER_DIR [--verbose]

Walks BEFORE_DIR and compares each file with the file of the same relative
path under AFTER_DIR (a file missing on either side is a difference):

* *.json: every value (metrics, invariants, topology, config, status, error,
  router_flit_hops, flit_moves, ...) must be equal, except timing and
  speed fields (TIMING_KEYS below), which differ from run to run, and
  parameters that choose only how a run is computed (HOW_KEYS: sim.streams,
  sim.run_ahead, router.impl),
  so runs with and without streams, or from an older binary, compare.
* *.csv (sweep tables): every cell, except columns whose name ends in one of
  TIMING_KEYS, and the HOW_KEYS columns.
* *.vcd: byte-identical after dropping the $date section.
* *.log (console output, holds timings): skipped.
* anything else: byte-identical.

Exit status 0 when identical, 1 when something differs (each difference is
printed), 2 on bad usage. Used to check that speed optimisations leave
results bit-identical (docs/performance.md).
"""
import csv
import json
import math
import os
import re
import sys

TIMING_KEYS = {
    "setup_seconds", "wall_seconds", "simulation_seconds", "process_seconds",
    "cycles_per_second", "flit_hops_per_second", "peak_rss_mb", "seconds",
    "streamed_flits", "received_stream_flits", "worm_hops",   # how the run was computed (sim.streams), not a result
    "allocator",                                 # the memory allocator the tool runs on, not a result
    "run_ahead", "run_ahead_off", "scheduler_activations",   # how the run was computed (sim.run_ahead)
    "scheduler_evaluations",                     # how much work the modules' evaluations were, not a result
    "build_id",                                  # which build computed the run (sweep cache), not a result
}
# Parameters that change how a run is computed, never its results: they may
# be missing on the before side (a binary older than the parameter) and
# differ between the two sides.
HOW_KEYS = {"config.sim.streams", "config.sim.run_ahead", "config.router.impl"}
# Top-level descriptions of the results that a binary older than them does
# not write: compared when both sides have them.
META_KEYS = {"statistics"}


def is_timing(key):
    return key in TIMING_KEYS or any(key.endswith("." + k) for k in TIMING_KEYS)


def is_how(path):
    return any(path.endswith("." + k) for k in HOW_KEYS)


def diff_json(a, b, path, out, top=False):
    if isinstance(a, dict) and isinstance(b, dict):
        for k in sorted(set(a) | set(b)):
            if is_timing(k) or is_how(f"{path}.{k}"):
                continue
            if top and k in META_KEYS and (k not in a) != (k not in b):
                continue
            if k not in a or k not in b:
                out.append(f"{path}.{k}: only in {'after' if k not in a else 'before'}")
                continue
            diff_json(a[k], b[k], f"{path}.{k}", out)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            out.append(f"{path}: list length {len(a)} != {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            diff_json(x, y, f"{path}[{i}]", out)
    else:
        same = a == b or (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b))
        if not same or type(a) is not type(b):
            out.append(f"{path}: {a!r} != {b!r}")


def diff_csv(fa, fb, out, name):
    with open(fa, newline="") as f:
        ra = list(csv.DictReader(f))
    with open(fb, newline="") as f:
        rb = list(csv.DictReader(f))
    if len(ra) != len(rb):
        out.append(f"{name}: {len(ra)} rows != {len(rb)} rows")
    for i, (x, y) in enumerate(zip(ra, rb)):
        for k in sorted(set(x) | set(y)):
            if is_timing(k) or is_how("." + k):
                continue
            if x.get(k) != y.get(k):
                out.append(f"{name} row {i} column {k}: {x.get(k)!r} != {y.get(k)!r}")


def read_vcd(fn):
    with open(fn, "rb") as f:
        data = f.read()
    return re.sub(rb"\$date.*?\$end", b"", data, count=1, flags=re.S)


def compare(before, after):
    out = []
    files = set()
    for root_dir in (before, after):
        for d, _, names in os.walk(root_dir):
            for n in names:
                files.add(os.path.relpath(os.path.join(d, n), root_dir))
    for rel in sorted(files):
        fa, fb = os.path.join(before, rel), os.path.join(after, rel)
        if not os.path.exists(fa) or not os.path.exists(fb):
            out.append(f"{rel}: only in {'before' if os.path.exists(fa) else 'after'}")
            continue
        if rel.endswith(".log"):
            continue
        if rel.endswith(".json"):
            with open(fa) as f:
                ja = json.load(f)
            with open(fb) as f:
                jb = json.load(f)
            diff_json(ja, jb, rel, out, top=True)
        elif rel.endswith(".csv"):
            diff_csv(fa, fb, out, rel)
        elif rel.endswith(".vcd"):
            if read_vcd(fa) != read_vcd(fb):
                out.append(f"{rel}: VCD differs")
        else:
            with open(fa, "rb") as f1, open(fb, "rb") as f2:
                if f1.read() != f2.read():
                    out.append(f"{rel}: differs")
    return len(files), out


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--")]
    if len(args) != 2 or any(a not in ("--verbose",) for a in argv[1:] if a.startswith("--")):
        print(__doc__.strip().splitlines()[2], file=sys.stderr)
        return 2
    for d in args:
        if not os.path.isdir(d):
            print(f"compare_results: {d}: not a directory", file=sys.stderr)
            return 2
    n, diffs = compare(args[0], args[1])
    for d in diffs[:200]:
        print(d)
    if len(diffs) > 200:
        print(f"... and {len(diffs) - 200} more differences")
    print(f"{n} files compared: {'identical' if not diffs else str(len(diffs)) + ' differences'}")
    return 0 if not diffs else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
