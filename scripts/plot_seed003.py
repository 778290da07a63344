#!/usr/bin/env python3
"""The plots of docs/seed003.md from the seed003 sweeps' summaries.

Figs. 8-16 as two 3x3 grids (rows: 1, 51, 128 senders; columns: groups of
13, 51, 128 members; completion time against message size, one line per
scheme), one for the small and one for the large sweep, and Fig. 17 (the
speedup T_OpenSM / T_cyclic against group size), and Fig. 17 under each
unstated choice from the assumptions sweeps' committed summaries. Writes PNG
and SVG.

  python3 scripts/plot_seed003.py [--small CSV] [--large CSV] [-o DIR]
  python3 scripts/plot_seed003.py --only assumptions [--assumptions DIR]
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
GROUPS_ALL = [13, 51, 90, 128]   # the assumptions sweeps add the paper's 70 %
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


def assumptions(data, out):
    """Fig. 17 at 51 senders under each choice: rows 32 B and 1 KB, columns
    parallel and serial-per-input replication; colour = buffers and OpenSM's
    senders (marker o in the tree, x out of it), line style = switching."""
    rows = {}
    for scheme in ("cyclic", "opensm"):
        rows[scheme] = load(os.path.join(data, f"seed003_assumptions_{scheme}_summary.csv"))
    fig, axes = plt.subplots(2, 2, figsize=(11, 8), sharex=True, sharey=True)
    colours = {(2, "in_tree"): "C0", (2, "out_of_tree"): "C1", (1, "in_tree"): "C2", (1, "out_of_tree"): "C3"}
    for i, size in enumerate((32, 1024)):
        for j, serial in enumerate((False, True)):
            ax = axes[i][j]
            for adm, style in (("store_and_forward", "-"), ("virtual_cut_through", "--")):
                for (bufs, ports), colour in colours.items():
                    def pick(r):
                        return (int(r["message.size"]) == size and r["switch.admission"] == adm
                                and int(r["traffic.sources"]) == 51
                                and int(r["switch.buffer"]) == bufs * (size + 1)
                                and (int(r["switch.pass_interval"]) > 0) == serial)
                    cyc = {int(r["traffic.group"]): float(r[Y]) for r in rows["cyclic"] if pick(r)}
                    osm = {int(r["traffic.group"]): float(r[Y]) for r in rows["opensm"]
                           if pick(r) and r["traffic.sender_ports"] == ports}
                    xs = [g for g in GROUPS_ALL if g in cyc and g in osm]
                    label = (f"{'SAF' if adm == 'store_and_forward' else 'VCT'}, {bufs} pkt/input, "
                             f"senders {'in' if ports == 'in_tree' else 'out of'} tree")
                    ax.plot(xs, [osm[g] / cyc[g] for g in xs], marker="o" if ports == "in_tree" else "x",
                            ms=4 if ports == "in_tree" else 7, ls=style, color=colour, label=label)
            ax.axhline(1.0, color="grey", lw=0.8)
            ax.set_title(f"{'32 B' if size == 32 else '1 KB'}, "
                         f"{'serial per input (100 ns a copy)' if serial else 'parallel replication'}", fontsize=9)
            ax.grid(True, alpha=0.3)
            if i == 1:
                ax.set_xlabel("multicast group size (members of 128)")
            if j == 0:
                ax.set_ylabel("speedup T_OpenSM / T_cyclic")
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, fontsize=8, loc="lower center", ncol=4)
    fig.suptitle("seed003 Fig. 17 under each unstated choice (51 senders; SAF store-and-forward, "
                 "VCT virtual cut-through)")
    fig.tight_layout(rect=(0, 0.07, 1, 1))
    for ext in ("png", "svg"):
        save_figure(fig, os.path.join(out, f"seed003_fig17_assumptions.{ext}"), dpi=110)
    plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--small", default="results/seed003_small/seed003_small_summary.csv")
    ap.add_argument("--large", default="results/seed003_large/seed003_large_summary.csv")
    ap.add_argument("--tight", default="results/seed003_one_packet_buffers/seed003_one_packet_buffers_summary.csv")
    ap.add_argument("--serial", default="results/seed003_serial_passes/seed003_serial_passes_summary.csv")
    ap.add_argument("--assumptions", default="docs/data/seed003",
                    help="directory of the assumptions sweeps' summaries")
    ap.add_argument("--only", choices=["assumptions"], help="draw only this figure")
    ap.add_argument("-o", "--out", default="docs/img")
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    assumptions(a.assumptions, a.out)
    if a.only:
        return
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
