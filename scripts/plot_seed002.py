#!/usr/bin/env python3
"""Plots of the seed 002 reproduction (docs/seed002.md).

    python3 scripts/plot_seed002.py [--results results] [--out docs/img] [--wormcast build/wormcast]

Reads the runs CSVs the sweeps in experiments/seed002/ write
(results/seed002_vs_m, seed002_vs_n, seed002_step_gap, seed002_conventional)
and asks `wormcast plan kbinomial` for the analytical optimal k (Fig. 12).
Each simulated point averages all its runs (destination sets x topologies);
error bars are 95% confidence intervals of that mean (normal approximation).
Latencies are converted from cycles to microseconds with the 5 ns clock of
experiments/seed002/base.yaml. Writes PNG and SVG files into --out and prints
the plotted numbers as JSON on stdout (the tables of docs/seed002.md).

Needs Python 3 and matplotlib (Debian: python3-matplotlib).
"""

import argparse
import csv
import json
import math
import os
import subprocess
import sys
from collections import defaultdict

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from system_python import import_matplotlib, save_figure  # noqa: E402

matplotlib = import_matplotlib("plot_seed002.py")
import matplotlib.pyplot as plt  # noqa: E402

CYCLE_US = 0.005
LAT = "metrics.multicast.latency_cycles.mean"


def read_runs(path):
    if not os.path.exists(path):
        sys.exit(f"plot_seed002.py: error: {path} not found (run the sweep first, see docs/seed002.md)")
    with open(path, newline="") as f:
        rows = [r for r in csv.DictReader(f) if r.get("status", "ok") == "ok" and r.get(LAT, "") != ""]
    if not rows:
        sys.exit(f"plot_seed002.py: error: {path} has no successful runs")
    return rows


def mean_ci(values):
    n = len(values)
    m = sum(values) / n
    if n < 2:
        return m, 0.0, n
    sd = math.sqrt(sum((v - m) ** 2 for v in values) / (n - 1))
    return m, 1.96 * sd / math.sqrt(n), n


def series(rows, keys, x, y=LAT, scale=CYCLE_US):
    """{label tuple: [(x, mean, ci, n), ...]} averaging over everything not in keys + [x]."""
    groups = defaultdict(list)
    for r in rows:
        groups[(tuple(r[k] for k in keys), float(r[x]))].append(float(r[y]) * scale)
    out = defaultdict(list)
    for (label, xv), vals in sorted(groups.items(), key=lambda kv: (kv[0][0], kv[0][1])):
        m, ci, n = mean_ci(vals)
        out[label].append((xv, m, ci, n))
    return out


def draw(ax, data, label_fn, style_fn=lambda label: {}):
    for i, (label, pts) in enumerate(sorted(data.items(), key=lambda kv: [float(v) for v in kv[0]])):
        xs, ms, cis = [p[0] for p in pts], [p[1] for p in pts], [p[2] for p in pts]
        ax.errorbar(xs, ms, yerr=cis, marker="osD^v<>"[i % 7], capsize=3, label=label_fn(label),
                    **style_fn(label))


def save(fig, out, name):
    for ext in ("png", "svg"):
        save_figure(fig, os.path.join(out, f"{name}.{ext}"), dpi=110, bbox_inches="tight")
    plt.close(fig)


def plan(wormcast, n, m):
    res = subprocess.run([wormcast, "plan", "kbinomial", "--set-size", str(n), "--packets", str(m), "--json"],
                         capture_output=True, text=True, check=True)
    j = json.loads(res.stdout)
    return j["k"], j["steps"]


def fig12(wormcast, out, report):
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
    ms = list(range(1, 65))
    report["fig12a"] = {}
    for n in (8, 16, 32, 64):
        ks = [plan(wormcast, n, m)[0] for m in ms]
        report["fig12a"][n] = ks
        a.step(ms, ks, where="mid", marker=".", label=f"n = {n}")
    a.set_xlabel("message length m (packets)")
    a.set_ylabel("optimal k")
    a.set_title("Fig. 12(a): optimal k vs m, fixed n")
    a.legend()
    ns = list(range(2, 129))
    report["fig12b"] = {}
    for m in (1, 2, 4, 8):
        ks = [plan(wormcast, n, m)[0] for n in ns]
        report["fig12b"][m] = dict(zip(ns, ks))
        b.step(ns, ks, where="mid", label=f"m = {m}")
    b.set_xlabel("multicast set size n (source included)")
    b.set_ylabel("optimal k")
    b.set_title("Fig. 12(b): optimal k vs n, fixed m")
    b.legend()
    save(fig, out, "seed002_fig12")


def fig13_14(results, out, report):
    vm = read_runs(os.path.join(results, "seed002_vs_m", "seed002_vs_m_runs.csv"))
    vn = read_runs(os.path.join(results, "seed002_vs_n", "seed002_vs_n_runs.csv"))
    for r in vm + vn:
        r["m"] = str(int(r["message.size"]) // 64)
        r["tree"] = "optimal" if r["traffic.k"] == "0" else "binomial"
    opt = lambda rows: [r for r in rows if r["tree"] == "optimal"]  # noqa: E731
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
    d = series(opt(vm), ["traffic.set_size"], "m")
    report["fig13a"] = {k[0]: v for k, v in d.items()}
    draw(a, d, lambda l: f"n = {l[0]} ({int(l[0]) - 1} dest.)")
    a.set_xlabel("message length m (64-byte packets)")
    a.set_ylabel("latency (µs)")
    a.set_title("Fig. 13(a): optimal k-binomial tree, fixed n")
    a.legend()
    d = series(opt(vn), ["m"], "traffic.set_size")
    report["fig13b"] = {k[0]: v for k, v in d.items()}
    draw(b, d, lambda l: f"m = {l[0]}")
    b.set_xlabel("multicast set size n")
    b.set_ylabel("latency (µs)")
    b.set_title("Fig. 13(b): optimal k-binomial tree, fixed m")
    b.legend()
    save(fig, out, "seed002_fig13")

    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
    dash = lambda l: {"linestyle": "--"} if l[-1] == "binomial" else {}  # noqa: E731
    d = series(vn, ["m", "tree"], "traffic.set_size")
    report["fig14a"] = {f"m={k[0]} {k[1]}": v for k, v in d.items()}
    d = {k: v for k, v in d.items() if k[0] in ("4", "8")}
    data = {(k[0], k[1]): v for k, v in d.items()}
    for i, (label, pts) in enumerate(sorted(data.items())):
        a.errorbar([p[0] for p in pts], [p[1] for p in pts], yerr=[p[2] for p in pts], capsize=3,
                   marker="os"[label[1] == "binomial"], label=f"m = {label[0]}, {label[1]}", **dash(label))
    a.set_xlabel("multicast set size n")
    a.set_ylabel("latency (µs)")
    a.set_title("Fig. 14(a): k-binomial vs binomial, fixed m")
    a.legend()
    d = series(vm, ["traffic.set_size", "tree"], "m")
    report["fig14b"] = {f"n={k[0]} {k[1]}": v for k, v in d.items()}
    for label, pts in sorted(d.items(), key=lambda kv: (int(kv[0][0]), kv[0][1])):
        b.errorbar([p[0] for p in pts], [p[1] for p in pts], yerr=[p[2] for p in pts], capsize=3,
                   marker="os"[label[1] == "binomial"], label=f"n = {label[0]}, {label[1]}", **dash(label))
    b.set_xlabel("message length m (64-byte packets)")
    b.set_ylabel("latency (µs)")
    b.set_title("Fig. 14(b): k-binomial vs binomial, fixed n")
    b.legend(fontsize=8)
    save(fig, out, "seed002_fig14")
    # speed-up binomial / optimal per point
    ratio = {}
    for name, key, xk in (("vs_n", "m", "traffic.set_size"), ("vs_m", "traffic.set_size", "m")):
        s = series(vn if name == "vs_n" else vm, [key, "tree"], xk)
        for (grp, tree), pts in s.items():
            if tree != "binomial":
                continue
            o = {p[0]: p[1] for p in s[(grp, "optimal")]}
            ratio[f"{name} {key}={grp}"] = [(p[0], round(p[1] / o[p[0]], 3)) for p in pts if p[0] in o]
    report["binomial_over_optimal"] = ratio


def timing_label(sc, eng):
    if sc != "0":
        return "step timing"
    return "cycle model, separate engines" if eng == "separate" else "cycle model"


def step_gap(results, out, report):
    rows = read_runs(os.path.join(results, "seed002_step_gap", "seed002_step_gap_runs.csv"))
    for r in rows:
        r["m"] = str(int(r["message.size"]) // 64)
        r["timing"] = timing_label(r["ni.step_cycles"], r.get("ni.engines", "single"))
    d = series(rows, ["timing", "traffic.k"], "m")
    styles = {"cycle model": "-", "step timing": "--", "cycle model, separate engines": ":"}
    fig, (a, b) = plt.subplots(1, 2, figsize=(12, 4.5))
    colors = {1: "C0", 2: "C1", 3: "C2", 4: "C3"}
    for (timing, k), pts in sorted(d.items(), key=lambda kv: (kv[0][0], int(kv[0][1]))):
        a.errorbar([p[0] for p in pts], [p[1] for p in pts], yerr=[p[2] for p in pts], capsize=3,
                   marker="osD^"[int(k) - 1], linestyle=styles[timing], color=colors[int(k)],
                   label=f"k = {k}, {timing}")
    a.set_xscale("log", basex=2) if matplotlib.__version__ < "3.3" else a.set_xscale("log", base=2)
    a.set_xlabel("message length m (64-byte packets)")
    a.set_ylabel("latency (µs)")
    a.set_title("n = 16: cycle model (solid), step timing (dashed),\nseparate engines (dotted)", fontsize=9)
    a.legend(fontsize=6, ncol=2)
    best = {}
    for timing in styles:
        per_m = defaultdict(dict)
        for (t, k), pts in d.items():
            if t == timing:
                for p in pts:
                    per_m[p[0]][int(k)] = p[1]
        if per_m:
            best[timing] = sorted((m, min(v, key=v.get)) for m, v in per_m.items())
    for i, (timing, pts) in enumerate(best.items()):
        b.plot([p[0] for p in pts], [p[1] + 0.05 * (i - 1) for p in pts], marker="osD"[i], linestyle=styles[timing],
               drawstyle="steps-mid", label=timing)
    b.set_xscale("log", basex=2) if matplotlib.__version__ < "3.3" else b.set_xscale("log", base=2)
    b.set_xlabel("message length m (64-byte packets)")
    b.set_ylabel("fastest k (measured; curves offset by 0.05)")
    b.set_title("fastest measured k (Theorem 3: 4; 2 for m = 2..11; 1 from 12)", fontsize=9)
    b.legend(fontsize=8)
    save(fig, out, "seed002_step_gap")
    report["step_gap"] = {f"{k[0]} k={k[1]}": v for k, v in d.items()}
    report["step_gap_best_k"] = best


def conventional(results, out, report):
    rows = read_runs(os.path.join(results, "seed002_conventional", "seed002_conventional_runs.csv"))
    for r in rows:
        r["m"] = str(int(r["message.size"]) // 64)
        r["scheme"] = r["ni.firmware"] + (", binomial" if r["traffic.k"] != "0" else ", optimal k")
    d = series(rows, ["scheme"], "m")
    fig, (a, b) = plt.subplots(1, 2, figsize=(11, 4))
    for label, pts in sorted(d.items()):
        a.errorbar([p[0] for p in pts], [p[1] for p in pts], yerr=[p[2] for p in pts], capsize=3, marker="o",
                   label=label[0])
    a.set_xlabel("message length m (64-byte packets)")
    a.set_ylabel("latency (µs)")
    a.set_title("n = 16: conventional NI (hosts relay) vs smart NI")
    a.legend(fontsize=8)
    mem = series([r for r in rows if r["ni.firmware"] != "conventional"], ["scheme"], "m",
                 y="metrics.multicast.ni_memory.destinations_max_peak_flits", scale=1.0 / 64)
    for label, pts in sorted(mem.items()):
        b.errorbar([p[0] for p in pts], [p[1] for p in pts], yerr=[p[2] for p in pts], capsize=3, marker="o",
                   label=label[0])
    b.set_xlabel("message length m (64-byte packets)")
    b.set_ylabel("peak NI memory of any destination NI (packets)")
    b.set_title("NI buffer use at relays: FCFS vs FPFS (seed002 §3.3)")
    b.legend(fontsize=8)
    save(fig, out, "seed002_conventional")
    report["conventional"] = {k[0]: v for k, v in d.items()}
    report["ni_memory_destinations_max_peak_packets"] = {k[0]: v for k, v in mem.items()}


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--results", default="results")
    ap.add_argument("--out", default="docs/img")
    ap.add_argument("--wormcast", default="build/wormcast")
    ap.add_argument("--only", choices=["fig12", "fig13_14", "step_gap", "conventional"], action="append")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    report = {}
    todo = a.only or ["fig12", "fig13_14", "step_gap", "conventional"]
    if "fig12" in todo:
        fig12(a.wormcast, a.out, report)
    if "fig13_14" in todo:
        fig13_14(a.results, a.out, report)
    if "step_gap" in todo:
        step_gap(a.results, a.out, report)
    if "conventional" in todo:
        conventional(a.results, a.out, report)
    json.dump(report, sys.stdout, indent=1, default=str)
    print()


if __name__ == "__main__":
    main()
