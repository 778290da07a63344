#!/usr/bin/env python3
"""A/B speed of two wormcast builds: `wormcast bench` of each, alternated in
a shuffled order every round, medians of router flit-hops/s per case.

usage: scripts/bench_ab.py BEFORE_BINARY AFTER_BINARY [--rounds N] [--quick]

The order is shuffled each round because on a shared machine the position in
a round biases a fixed order. Prints one line per bench case: the medians and
their ratio (after / before). Run from the repository (bench reads nothing
from it, but its working directory is where it runs).
"""
import argparse
import random
import re
import statistics
import subprocess
import sys

ROW = re.compile(r"^(.+?)\s+([0-9.]+)\s+(\S+)\s+\d+\s+\S+\s+\S+\s+\S+\s+\d+\s+(\d+)\s+\S+\s*(.*)$")


def bench(binary, quick):
    out = subprocess.run([binary, "bench"] + (["--quick"] if quick else []), capture_output=True, text=True,
                         check=True).stdout
    rows = {}
    for line in out.splitlines():
        m = ROW.match(line)
        if m:
            # The note names the case; a measured part of it (the scale cases' bytes per router) would make
            # every run a case of its own.
            note = re.sub(r"; [0-9.]+ bytes/router", "", m.group(5))
            rows[f"{m.group(1).strip()} {m.group(2)} {note[:40]}".strip()] = int(m.group(4))
    if not rows:
        sys.exit(f"bench_ab: no bench rows in the output of {binary}")
    return rows


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--quick", action="store_true", help="bench --quick (short runs)")
    a = ap.parse_args()
    if a.rounds < 1:
        sys.exit("bench_ab: --rounds must be at least 1")
    res = {"before": {}, "after": {}}
    for _ in range(a.rounds):
        order = [("before", a.before), ("after", a.after)]
        random.shuffle(order)
        for side, binary in order:
            for case, v in bench(binary, a.quick).items():
                res[side].setdefault(case, []).append(v)
    for case, vals in res["before"].items():
        b = statistics.median(vals)
        n = statistics.median(res["after"].get(case, [0]))
        print(f"{case:72s} before {b / 1e6:7.2f} M  after {n / 1e6:7.2f} M  ratio {n / b if b else 0:5.3f}")


if __name__ == "__main__":
    main()
