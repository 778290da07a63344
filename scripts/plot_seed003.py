#!/usr/bin/env python3
"""The plots of docs/seed003.md from the seed003 sweeps' summaries.

Figs. 8-16 as two 3x3 grids (rows: 1, 51, 128 senders; columns: groups of
13, 51, 128 members; completion time against message size, one line per
scheme), one for the small and one for the large sweep, and Fig. 17 (the
speedup T_OpenSM / T_cyclic against group size). Writes PNG and SVG.

  python3 scripts/plot_seed003.py [--small CSV] [--large CSV] [-o DIR]
"""
import argparse
import csv
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from system_python import import_matplotlib, save_figure  # noqa: E402

matplotlib = import_matplotlib("plot_seed003.py")
import matplotlib.pyplot as plt  # noqa: E402

Y = "metrics.multicast.completion_cycles.mean_us.mean"
SCHEMES = ["cyclic", "opensm", "unicast"]
SOURCES = [1, 51, 128]
GROUPS = [13, 51, 128]
FIG = {(1, 13): 8, (1, 51): 9, (1, 128): 10, (51, 13): 11, (51, 51): 12, (51, 128): 13,
       (128, 13): 14, (128, 51): 15, (128, 128): 16}


def load(path):
    if not os.path.exists(path):
        sys.exit(f"plot_seed003: {path} is missing: run the seed003 sweeps first (docs/seed003.md)")
    rows = list(csv.DictReader(open(path)))
    for r in rows:
        if r.get("n", "1") in ("", "0") or r.get(Y, "") == "":
            sys.exit(f"plot_seed003: {path}: a point without results ({r.get('traffic.scheme')}, "
                     f"{r.get('message.size')} B): rerun the sweep")
    return rows


def series(rows, sources, group, scheme):
    pts = sorted((int(r["message.size"]), float(r[Y]))
                 for r in rows if int(r["traffic.sources"]) == sources and int(r["traffic.group"]) == group
                 and r["traffic.scheme"] == scheme)
    return [p[0] for p in pts], [p[1] for p in pts]


def grid(rows, title, out, name):
    fig, axes = plt.subplots(3, 3, figsize=(12, 10), sharex=True)
    for i, s in enumerate(SOURCES):
        for j, g in enumerate(GROUPS):
            ax = axes[i][j]
            for scheme in SCHEMES:
                x, y = series(rows, s, g, scheme)
                ax.plot(x, y, marker="o", ms=3, label=scheme)   # means; 2-run ci95 bars would swamp the plot
            ax.set_xscale("log", base=2)
            ax.set_yscale("log")
            ax.set_title(f"Fig. {FIG[(s, g)]}: {s} sender{'s' if s > 1 else ''} to {g} members", fontsize=9)
            ax.grid(True, which="both", alpha=0.3)
            if i == 2:
                ax.set_xlabel("message size (bytes)")
            if j == 0:
                ax.set_ylabel("completion time (us)")
    axes[0][0].legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    for ext in ("png", "svg"):
        save_figure(fig, os.path.join(out, f"seed003_{name}.{ext}"), dpi=110)
    plt.close(fig)


def speedup(curves, out, name, title, legend="center right"):
    """curves: (summary rows or None, message size, label suffix, line style)."""
    fig, ax = plt.subplots(figsize=(7.5, 4.8))
    for rows, size, what, style in curves:
        if rows is None:
            continue
        for s in (51, 128):
            xs, ys = [], []
            for g in GROUPS:
                t = {r["traffic.scheme"]: float(r[Y]) for r in rows
                     if int(r["traffic.sources"]) == s and int(r["traffic.group"]) == g and int(r["message.size"]) == size}
                if "cyclic" in t and "opensm" in t:
                    xs.append(g)
                    ys.append(t["opensm"] / t["cyclic"])
            label = (f"{s} senders, {size // 1024} KB" if size >= 1024 else f"{s} senders, {size} B") + what
            ax.plot(xs, ys, marker="o", ls=style, label=label)
    ax.axhline(1.0, color="grey", lw=0.8)
    ax.set_xlabel("multicast group size (members of 128)")
    ax.set_ylabel("speedup T_OpenSM / T_cyclic")
    ax.set_title(title)
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=7, loc=legend)
    fig.tight_layout()
    for ext in ("png", "svg"):
        save_figure(fig, os.path.join(out, f"seed003_{name}.{ext}"), dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--small", default="results/seed003_small/seed003_small_summary.csv")
    ap.add_argument("--large", default="results/seed003_large/seed003_large_summary.csv")
    ap.add_argument("--tight", default="results/seed003_one_packet_buffers/seed003_one_packet_buffers_summary.csv")
    ap.add_argument("--serial", default="results/seed003_serial_passes/seed003_serial_passes_summary.csv")
    ap.add_argument("-o", "--out", default="docs/img")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    small = load(a.small)
    large = load(a.large) if os.path.exists(a.large) else None
    grid(small, "seed003 Figs. 8-16 (a): small messages, IBFT(8,3), completion time", a.out, "small")
    if large is not None:
        grid(large, "seed003 Figs. 8-16 (b): large messages, IBFT(8,3), completion time", a.out, "large")
    else:
        print(f"plot_seed003: {a.large} missing: large panels and 128 KB speedups skipped", file=sys.stderr)
    tight = load(a.tight) if os.path.exists(a.tight) else None
    speedup([(small, 32, "", "-"), (small, 1024, "", "-"), (large, 131072, "", "-"),
             (tight, 32, ", 1-packet buffers", "--"), (tight, 1024, ", 1-packet buffers", "--")],
            a.out, "fig17", "Fig. 17: speedup of cyclic over OpenSM")
    if os.path.exists(a.serial):
        serial = load(a.serial)
        speedup([(small, 32, "", "-"), (small, 1024, "", "-"),
                 (serial, 32, ", serial connections", ":"), (serial, 1024, ", serial connections", ":")],
                a.out, "fig17_serial", "Fig. 17 what-if: one switch connection per 100 ns", "upper right")
    else:
        print(f"plot_seed003: {a.serial} missing: the serial-connection what-if skipped", file=sys.stderr)


if __name__ == "__main__":
    main()
