#!/usr/bin/env python3
"""Multicast latency against offered load (docs/multicast_load.md): on the
8x8 torus (experiments/load/sweeps/torus_multicast_load.yaml), the 6-cube
(hypercube_multicast_load.yaml), seed004's SCI torus
(sci_torus_multicast_load.yaml) and seed003's fat tree
(fat_tree_multicast_load.yaml), each scheme's zero-load latency, its
saturation point and the figures.

Each sweep runs every scheme alone and beside uniform unicast background
traffic (background.load); a curve is a scheme at one background load.
A point counts as saturated when any of its runs reported saturation
(metrics.saturated, the run's own evidence: measured multicasts incomplete,
a backlog that grew, or not drained). A scheme's saturation point lies
between its highest load with no saturated run below it and the next load
of the grid. The direct networks' loads are effective loads, degree x
traffic.load message flits (bytes) delivered per cycle per node; the fat
tree's are traffic.load, message bytes created per cycle per sender.

  python3 scripts/multicast_load.py [--data DIR]                   # print the table
  python3 scripts/multicast_load.py --write docs/multicast_load.md  # replace it in the page
  python3 scripts/multicast_load.py --check docs/multicast_load.md  # exit 1 if the page's table differs
  python3 scripts/multicast_load.py --save docs/data/load           # keep the columns read, from results/
  python3 scripts/multicast_load.py --plot docs/img [--data DIR]   # multicast_load_<network>.svg
"""
import argparse
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verdict_table  # noqa: E402
from verdict_table import DataError, read_rows, save_columns, summary_path  # noqa: E402

# Per network: its sweep, its schemes by (traffic.scheme, traffic.r), the
# factor from traffic.load to the x-axis, the message's flits per delivery,
# the background loads of the sweep, and whether loads are per node (every
# node a source) or per sender.
NETWORKS = {
    "torus": {"sweep": "torus_multicast_load", "scale": 8, "flits": 64, "backgrounds": (0.0, 0.01),
              "background_unit": "flits/cycle/node", "per_node": True,
              "names": {("storus", "0"): "S-torus", ("mdtorus", "0"): "M_d-torus",
                        ("mutorus", "8"): "M_u-torus(8)", ("mutorus", "2"): "M_u-torus(2), unicast-based",
                        ("utorus", "0"): "U-torus"},
              "x": "effective load (message flits delivered per cycle per node = 8 x traffic.load)",
              "title": "8x8 unidirectional torus, 8 random destinations, 64-flit messages"},
    "hypercube": {"sweep": "hypercube_multicast_load", "scale": 8, "flits": 64, "backgrounds": (0.0, 0.1),
                  "background_unit": "flits/cycle/node", "per_node": True,
                  "names": {("ucube", ""): "U-cube", ("maxport", ""): "Maxport", ("combine", ""): "Combine",
                            ("wsort", ""): "W-sort"},
                  "x": "effective load (message flits delivered per cycle per node = 8 x traffic.load)",
                  "title": "binary 6-cube, all-port, 8 random destinations, 64-flit messages"},
    "sci_torus": {"sweep": "sci_torus_multicast_load", "scale": 5, "flits": 256, "backgrounds": (0.0, 0.05),
                  "background_unit": "bytes/cycle/host", "per_node": True,
                  "names": {("sci-separate", ""): "separate", ("sci-utorus", ""): "U-torus",
                            ("sci-storus", ""): "S-torus", ("sci-mdtorus", ""): "M_d-torus",
                            ("sci-mutorus", ""): "M_u-torus(4)"},
                  "x": "effective load (message bytes delivered per cycle per host = 5 x traffic.load)",
                  "title": "4x4 SCI torus, one-port hosts relaying store-and-forward, 5 random destinations, "
                           "256-byte messages"},
    "fat_tree": {"sweep": "fat_tree_multicast_load", "scale": 1, "flits": 256, "backgrounds": (0.0, 0.2),
                 "background_unit": "bytes/cycle/HCA", "per_node": False,
                 "names": {("cyclic", ""): "cyclic", ("opensm", ""): "opensm", ("unicast", ""): "unicast"},
                 "x": "offered load (message bytes created per cycle per sender = traffic.load)",
                 "title": "IBFT(8,3), 16 senders to one group of 32, 256-byte messages"},
}
LAT = "metrics.multicast.latency_cycles.mean.mean"
LAT_CI = "metrics.multicast.latency_cycles.mean.ci95"
AVG = "metrics.multicast.mean_latency_cycles.mean.mean"
SAT = "metrics.saturated.mean"
DELIVERED = "metrics.multicast.delivered_rate.mean"
LINK_MAX = "metrics.link_utilization.max.mean"
LINK_MEAN = "metrics.link_utilization.mean.mean"
COLUMNS = [LAT, LAT_CI, AVG, SAT, DELIVERED, LINK_MAX, LINK_MEAN]
KEYS = ["traffic.scheme", "traffic.load", "background.load"]


def sweep_file(net):
    return f"experiments/load/sweeps/{NETWORKS[net]['sweep']}.yaml"


def curves(data, net):
    """{(scheme name, background load): (routing, [(load, row), ...] by load)}, every curve of the network present."""
    cfg = NETWORKS[net]
    path = summary_path(data, cfg["sweep"])
    rows = read_rows(path, KEYS + COLUMNS, sweep_file(net))
    out = {}
    for r in rows:
        name = cfg["names"].get((r["traffic.scheme"], r.get("traffic.r", "")))
        if name is None:
            raise DataError(f"{path}: scheme {r['traffic.scheme']} r {r.get('traffic.r', '')} is not one of the sweep's")
        bg = float(r["background.load"])
        if bg not in cfg["backgrounds"]:
            raise DataError(f"{path}: background.load {r['background.load']} is not one of the sweep's")
        out.setdefault((name, bg), (r.get("routing.function", "-"), []))[1].append((float(r["traffic.load"]), r))
    for name in cfg["names"].values():
        for bg in cfg["backgrounds"]:
            if (name, bg) not in out:
                raise DataError(f"{path}: no rows of {name} at background.load {bg:g}: rerun {sweep_file(net)}")
            out[(name, bg)][1].sort(key=lambda p: p[0])
    return out


def stable_prefix(points):
    """The points below the first saturated one."""
    out = []
    for load, r in points:
        if float(r[SAT]) > 0:
            break
        out.append((load, r))
    return out


def saturation(points, scale):
    """'a - b' (x-axis loads), or a bound when the grid ends first."""
    stable = stable_prefix(points)
    eff = [scale * load for load, _ in points]
    if not stable:
        return f"below {eff[0]:.3f}"
    if len(stable) == len(points):
        return f"above {eff[-1]:.3f}"
    return f"{eff[len(stable) - 1]:.3f} - {eff[len(stable)]:.3f}"


def common_stable_load(c):
    """The highest load of the grid at which every curve is stable (None: none is)."""
    loads = [load for load, _ in next(iter(c.values()))[1]]
    ok = [load for load in loads if all(any(l == load for l, _ in stable_prefix(p)) for _, p in c.values())]
    return ok[-1] if ok else None


def table(data, net):
    cfg = NETWORKS[net]
    c = curves(data, net)
    scale, flits = cfg["scale"], cfg["flits"]
    common = common_stable_load(c)
    at = f"{scale * common:.3f}" if common is not None else "none"
    unit, got = (("flits/cycle/node", "flits/cycle/node") if cfg["per_node"]
                 else ("bytes/cycle/sender", "bytes received by members per cycle per sender"))
    out = [f"| scheme | routing | background ({cfg['background_unit']}) | zero-load latency (cycles, last / mean "
           f"destination) | saturates between ({unit}) | delivered at the highest load ({got}) | "
           f"link utilization at {at}, hottest / mean |",
           "|---|---|---|---|---|---|---|"]
    for name in cfg["names"].values():
        for bg in cfg["backgrounds"]:
            routing, points = c[(name, bg)]
            first = points[0][1]
            top_load, top = points[-1]
            delivered = f"{float(top[DELIVERED]) * flits:.3f} of {scale * top_load:.3f} offered"
            if not cfg["per_node"]:   # a sender's bytes reach every member: deliveries x bytes per sender
                delivered = f"{float(top[DELIVERED]) * flits:.3f} (offered {scale * top_load:.3f} per sender)"
            links = "-"
            if common is not None:
                r = next(r for load, r in points if load == common)
                links = f"{float(r[LINK_MAX]):.3f} / {float(r[LINK_MEAN]):.3f}"
            out.append(f"| {name} | {routing} | {bg:g} | {float(first[LAT]):.0f} / {float(first[AVG]):.0f} "
                       f"(load {scale * points[0][0]:.3f}) | {saturation(points, scale)} | {delivered} | {links} |")
    return "\n".join(out) + "\n"


def blocks(data):
    return {net: table(data, net) for net in NETWORKS}


def save(data, out):
    blocks(data)   # complete and readable before anything is written
    for cfg in NETWORKS.values():
        save_columns(summary_path(data, cfg["sweep"]), out, set(KEYS + COLUMNS + ["traffic.r", "routing.function"]))


def plot(data, out_dir):
    from system_python import import_matplotlib, save_figure
    import_matplotlib("multicast_load.py")
    import matplotlib.pyplot as plt
    for net, cfg in NETWORKS.items():
        c = curves(data, net)
        fig, axes = plt.subplots(1, len(cfg["backgrounds"]), figsize=(11, 4.8), sharey=True)
        for ax, bg in zip(axes, cfg["backgrounds"]):
            for i, name in enumerate(cfg["names"].values()):
                routing, points = c[(name, bg)]
                stable = stable_prefix(points)
                xs = [cfg["scale"] * load for load, _ in stable]
                label = f"{name} ({routing})" if routing != "-" else name
                ax.errorbar(xs, [float(r[LAT]) for _, r in stable], yerr=[float(r[LAT_CI]) for _, r in stable],
                            marker="o", ms=4, capsize=2, label=label, color=f"C{i}")
                if len(stable) < len(points):   # the first saturated load, on the axis
                    ax.axvline(cfg["scale"] * points[len(stable)][0], color=f"C{i}", ls=":", lw=1)
            ax.set_yscale("log")
            ax.set_xlabel(cfg["x"], fontsize=8)
            ax.set_title("no background traffic" if bg == 0 else
                         f"beside uniform unicast background of {bg:g} {cfg['background_unit']}", fontsize=9)
            ax.grid(True, which="both", alpha=0.3)
        axes[0].set_ylabel("multicast latency, creation to the last destination (cycles)")
        axes[0].legend(fontsize=8)
        fig.suptitle(cfg["title"] + "; stable points only, dotted: each scheme's first saturated load", fontsize=9)
        fig.tight_layout()
        save_figure(fig, os.path.join(out_dir, f"multicast_load_{net}.svg"))
        plt.close(fig)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    verdict_table.add_arguments(ap)
    ap.add_argument("--plot", metavar="DIR", help="draw the latency-load figures into DIR (needs matplotlib)")
    args = ap.parse_args()
    if args.plot:
        try:
            plot(args.data, args.plot)
        except DataError as e:
            sys.stderr.write(f"multicast_load.py: {e}\n")
            return 1
        return 0
    return verdict_table.run_cli("multicast_load.py", blocks, save, args)


if __name__ == "__main__":
    sys.exit(main())
