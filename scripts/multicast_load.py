#!/usr/bin/env python3
"""Multicast latency against offered load on the 8x8 torus
(experiments/load/sweeps/torus_multicast_load.yaml, docs/multicast_load.md):
each scheme's zero-load latency, its saturation point and the figure.

A point counts as saturated when any of its runs reported saturation
(metrics.saturated, the run's own evidence: measured multicasts incomplete,
a backlog that grew, or not drained). A scheme's saturation point lies
between its highest load with no saturated run below it and the next load
of the grid; loads are given as effective loads, degree x traffic.load
message flits delivered per cycle per node.

  python3 scripts/multicast_load.py [--data DIR]                   # print the table
  python3 scripts/multicast_load.py --write docs/multicast_load.md  # replace it in the page
  python3 scripts/multicast_load.py --check docs/multicast_load.md  # exit 1 if the page's table differs
  python3 scripts/multicast_load.py --save docs/data/load           # keep the columns read, from results/
  python3 scripts/multicast_load.py --plot docs/img/multicast_load_torus.svg [--data DIR]
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verdict_table  # noqa: E402
from verdict_table import DataError, read_rows, save_columns, summary_path  # noqa: E402

SWEEP = "torus_multicast_load"
SWEEP_FILE = "experiments/load/sweeps/torus_multicast_load.yaml"
DEGREE = 8                     # traffic.degree of ../torus_multicast_load.yaml
MESSAGE_FLITS = 64             # message.size
LAT = "metrics.multicast.latency_cycles.mean.mean"
LAT_CI = "metrics.multicast.latency_cycles.mean.ci95"
AVG = "metrics.multicast.mean_latency_cycles.mean.mean"
SAT = "metrics.saturated.mean"
DELIVERED = "metrics.multicast.delivered_rate.mean"
LINK_MAX = "metrics.link_utilization.max.mean"
LINK_MEAN = "metrics.link_utilization.mean.mean"
COLUMNS = [LAT, LAT_CI, AVG, SAT, DELIVERED, LINK_MAX, LINK_MEAN]
KEYS = ["traffic.scheme", "traffic.r", "routing.function", "traffic.load"]
NAMES = {("storus", "0"): "S-torus", ("mdtorus", "0"): "M_d-torus", ("mutorus", "8"): "M_u-torus(8)",
         ("mutorus", "2"): "M_u-torus(2), unicast-based", ("utorus", "0"): "U-torus"}


def curves(data):
    """{scheme name: (routing, [(load, row), ...] by load)}, every scheme of NAMES present."""
    path = summary_path(data, SWEEP)
    rows = read_rows(path, KEYS + COLUMNS, SWEEP_FILE)
    out = {}
    for r in rows:
        name = NAMES.get((r["traffic.scheme"], r["traffic.r"]))
        if name is None:
            raise DataError(f"{path}: scheme {r['traffic.scheme']} r {r['traffic.r']} is not one of the sweep's")
        out.setdefault(name, (r["routing.function"], []))[1].append((float(r["traffic.load"]), r))
    for name in NAMES.values():
        if name not in out:
            raise DataError(f"{path}: no rows of {name}: rerun {SWEEP_FILE}")
        out[name][1].sort(key=lambda p: p[0])
    return out


def stable_prefix(points):
    """The points below the first saturated one."""
    out = []
    for load, r in points:
        if float(r[SAT]) > 0:
            break
        out.append((load, r))
    return out


def saturation(points):
    """'between a and b' effective loads, or a bound when the grid ends first."""
    stable = stable_prefix(points)
    eff = [DEGREE * load for load, _ in points]
    if not stable:
        return f"below {eff[0]:.3f}"
    if len(stable) == len(points):
        return f"above {eff[-1]:.3f}"
    return f"{eff[len(stable) - 1]:.3f} - {eff[len(stable)]:.3f}"


def common_stable_load(c):
    """The highest load of the grid at which every scheme is stable (None: none is)."""
    loads = [load for load, _ in next(iter(c.values()))[1]]
    ok = [load for load in loads if all(any(l == load for l, _ in stable_prefix(p)) for _, p in c.values())]
    return ok[-1] if ok else None


def table(data):
    c = curves(data)
    common = common_stable_load(c)
    at = f"{DEGREE * common:.3f}" if common is not None else "none"
    out = ["| scheme | routing | zero-load latency (cycles, last / mean destination) | saturates between "
           "(flits/cycle/node delivered) | delivered at the highest load (flits/cycle/node) | "
           f"link utilization at {at}, hottest / mean |",
           "|---|---|---|---|---|---|"]
    for name in NAMES.values():
        routing, points = c[name]
        first = points[0][1]
        top_load, top = points[-1]
        delivered = f"{float(top[DELIVERED]) * MESSAGE_FLITS:.3f} of {DEGREE * top_load:.3f} offered"
        links = "-"
        if common is not None:
            r = next(r for load, r in points if load == common)
            links = f"{float(r[LINK_MAX]):.3f} / {float(r[LINK_MEAN]):.3f}"
        out.append(f"| {name} | {routing} | {float(first[LAT]):.0f} / {float(first[AVG]):.0f} "
                   f"(effective load {DEGREE * points[0][0]:.3f}) | {saturation(points)} | {delivered} | {links} |")
    return "\n".join(out) + "\n"


def save(data, out):
    curves(data)   # complete and readable before anything is written
    save_columns(summary_path(data, SWEEP), out, set(KEYS + COLUMNS))


def plot(data, path):
    from system_python import import_matplotlib, save_figure
    import_matplotlib("multicast_load.py")
    import matplotlib.pyplot as plt
    c = curves(data)
    fig, ax = plt.subplots(figsize=(7, 4.5))
    for name in NAMES.values():
        routing, points = c[name]
        stable = stable_prefix(points)
        xs = [DEGREE * load for load, _ in stable]
        line = ax.errorbar(xs, [float(r[LAT]) for _, r in stable], yerr=[float(r[LAT_CI]) for _, r in stable],
                           marker="o", ms=4, capsize=2, label=f"{name} ({routing})")
        if len(stable) < len(points):   # the first saturated load, on the axis
            ax.axvline(DEGREE * points[len(stable)][0], color=line[0].get_color(), ls=":", lw=1)
    ax.set_yscale("log")
    ax.set_xlabel("effective load (message flits delivered per cycle per node = 8 x traffic.load)")
    ax.set_ylabel("multicast latency, creation to last t_R (cycles)")
    ax.set_title("8x8 unidirectional torus, 8 random destinations, 64-flit messages\n"
                 "stable points only; dotted: each scheme's first saturated load", fontsize=9)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    save_figure(fig, path)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    verdict_table.add_arguments(ap)
    ap.add_argument("--plot", metavar="FILE", help="draw the latency-load figure into FILE (needs matplotlib)")
    args = ap.parse_args()
    if args.plot:
        try:
            plot(args.data, args.plot)
        except DataError as e:
            sys.stderr.write(f"multicast_load.py: {e}\n")
            return 1
        return 0
    return verdict_table.run_cli("multicast_load.py", table, save, args)


if __name__ == "__main__":
    sys.exit(main())
