#!/usr/bin/env python3
"""The verdicts of seed004's Figs. 2 and 3 under each unstated choice.

The paper does not say how its groups were formed, nor until when its root
polls. This reads the Fig. 2 sweeps with random groups
(experiments/seed004/sweeps/fig2_small.yaml, fig2_large.yaml) and with
fixed ones (fig2_small_fixed.yaml, fig2_large_fixed.yaml: root node 0, a
group of d is nodes 0..d-1), and judges the paper's statements with each
predicate and threshold stated in FIG2 and FIG3 below. Fig. 3's root CPU
time is read two ways: until the root's own sends are delivered
(multicast.root_busy_cycles, the model's default) or until the whole
multicast completes (a root that keeps polling: the completion latency).

  python3 scripts/seed004_sensitivity.py [--data DIR]            # print the tables
  python3 scripts/seed004_sensitivity.py --write docs/seed004.md # replace them in the page
  python3 scripts/seed004_sensitivity.py --check docs/seed004.md # exit 1 if the page's tables differ
  python3 scripts/seed004_sensitivity.py --save docs/data/seed004 # keep the columns read, from results/
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verdict_table  # noqa: E402
from verdict_table import DataError, cell, read_rows, save_columns, summary_path  # noqa: E402

LAT = "metrics.multicast.latency_cycles.mean_us.mean"
ROOT = "metrics.multicast.root_busy_cycles.mean_us.mean"
SCHEMES = ["sci-separate", "sci-utorus", "sci-storus", "sci-mdtorus", "sci-mutorus"]
NAMES = {"sci-separate": "separate", "sci-utorus": "U-torus", "sci-storus": "S-torus", "sci-mdtorus": "M_d",
         "sci-mutorus": "M_u"}
D = [4, 6, 8, 10, 12, 14, 16]
SMALL, LARGE = 2, 524288
SWEEPS = {("random", SMALL): "seed004_fig2_small", ("random", LARGE): "seed004_fig2_large",
          ("fixed", SMALL): "seed004_fig2_small_fixed", ("fixed", LARGE): "seed004_fig2_large_fixed"}
GROUPS = {"random": "random groups (a fresh draw per trial)", "fixed": "fixed groups (root 0, nodes 0..d-1)"}
READINGS = {"own_sends": "until its own sends are delivered", "completion": "until the multicast completes"}


def r2(ys):
    """Coefficient of determination of the least-squares line through (D, ys)."""
    n = len(D)
    mx, my = sum(D) / n, sum(ys) / n
    sxx = sum((x - mx) ** 2 for x in D)
    sxy = sum((x - mx) * (y - my) for x, y in zip(D, ys))
    ss = sum((y - my) ** 2 for y in ys)
    if ss == 0:
        return 0.0
    return (sxy * sxy / sxx) / ss


def fmt(ys):
    return "/".join(f"{y:.3g}" for y in ys)


def worst(t, s, tie=1.0):
    """s at least `tie` x every other scheme at every d."""
    return all(t[s][i] >= tie * max(t[o][i] for o in SCHEMES if o != s) for i in range(len(D)))


def best(t, s, ds=D):
    return all(t[s][D.index(d)] <= min(t[o][D.index(d)] for o in SCHEMES if o != s) for d in ds)


def ratio_range(ys):
    return max(ys) / min(ys)


# (id, statement, size, predicate text, judge(latency table) -> (ok, evidence))
FIG2 = [
    ("S-torus worst (2 B)", SMALL, "S-torus's latency >= every other scheme's at every d",
     lambda t: (worst(t, "sci-storus"), f"S-torus {fmt(t['sci-storus'])} us")),
    ("separate addressing best (2 B)", SMALL, "separate addressing's latency <= every other scheme's at every d",
     lambda t: (best(t, "sci-separate"), f"separate {fmt(t['sci-separate'])}, U-torus {fmt(t['sci-utorus'])}")),
    ("U-torus nearly flat (2 B)", SMALL, "U-torus's latency at d = 16 at most 1.5x that at d = 4",
     lambda t: (t["sci-utorus"][-1] / t["sci-utorus"][0] <= 1.5,
                f"{t['sci-utorus'][-1] / t['sci-utorus'][0]:.2f}x")),
    ("M_d and M_u nearly identical (2 B)", SMALL, "|M_d - M_u| <= 10 % of M_d at every d >= 8",
     lambda t: md_mu(t)),
    ("separate addressing linear (512 KB)", LARGE, "the least-squares line through its latencies has R^2 >= 0.99",
     lambda t: (r2(t["sci-separate"]) >= 0.99, f"R^2 {r2(t['sci-separate']):.3f}")),
    ("S-torus worst (512 KB)", LARGE, "S-torus's latency >= 0.99 x every other scheme's at every d (1 % for ties)",
     lambda t: (worst(t, "sci-storus", 0.99), "S-torus / slowest other " + fmt(
         [t["sci-storus"][i] / max(t[o][i] for o in SCHEMES if o != "sci-storus") for i in range(len(D))]))),
    ("M_d best (512 KB)", LARGE, "M_d's latency <= every other scheme's at every d >= 8",
     lambda t: (best(t, "sci-mdtorus", [8, 10, 12, 14, 16]),
                f"M_d / best other at d = 16: "
                f"{t['sci-mdtorus'][-1] / min(t[o][-1] for o in SCHEMES if o != 'sci-mdtorus'):.2f}")),
    ("M_u above M_d at d = 10 and 14 (512 KB)", LARGE, "M_u's latency > M_d's at d = 10 and at d = 14",
     lambda t: (all(t["sci-mutorus"][D.index(d)] > t["sci-mdtorus"][D.index(d)] for d in (10, 14)),
                "M_u/M_d " + "/".join(f"{t['sci-mutorus'][D.index(d)] / t['sci-mdtorus'][D.index(d)]:.3f}"
                                      for d in (10, 14)))),
]

FIG3 = [
    ("3(a) S-torus constant", SMALL, "S-torus's root CPU time varies by at most 1.2x over d",
     lambda c: (ratio_range(c["sci-storus"]) <= 1.2, f"{fmt(c['sci-storus'])} us")),
    ("3(a) separate addressing linear", SMALL, "rising, and its least-squares line has R^2 >= 0.95",
     lambda c: (c["sci-separate"][-1] > c["sci-separate"][0] and r2(c["sci-separate"]) >= 0.95,
                f"R^2 {r2(c['sci-separate']):.3f}")),
    ("3(a) M_d nearly constant", SMALL, "M_d's root CPU time varies by at most 1.2x over d >= 8",
     lambda c: (ratio_range(c["sci-mdtorus"][2:]) <= 1.2, f"{fmt(c['sci-mdtorus'][2:])} us")),
    ("3(b) separate addressing nearly linear", LARGE, "rising, and its least-squares line has R^2 >= 0.95",
     lambda c: (c["sci-separate"][-1] > c["sci-separate"][0] and r2(c["sci-separate"]) >= 0.95,
                f"R^2 {r2(c['sci-separate']):.3f}")),
    ("3(b) S-torus rises with d", LARGE, "S-torus's root CPU time at d = 16 at least 2x that at d = 4",
     lambda c: (c["sci-storus"][-1] >= 2 * c["sci-storus"][0], f"{c['sci-storus'][-1] / c['sci-storus'][0]:.2f}x")),
    ("3(b) M_d rises beyond d = 10", LARGE, "M_d's root CPU time at d = 16 at least 1.1x that at d = 10",
     lambda c: (c["sci-mdtorus"][-1] >= 1.1 * c["sci-mdtorus"][3],
                f"{c['sci-mdtorus'][-1] / c['sci-mdtorus'][3]:.2f}x")),
]


def md_mu(t):
    gaps = [abs(t["sci-mdtorus"][i] - t["sci-mutorus"][i]) / t["sci-mdtorus"][i] for i in range(2, len(D))]
    return max(gaps) <= 0.10, f"largest gap {100 * max(gaps):.0f} %"


def load(path, sweep):
    """{scheme: ([latency per d], [root busy per d])} of one summary."""
    rows = read_rows(path, ["traffic.scheme", "traffic.set_size", LAT, ROOT], f"experiments/seed004/sweeps/"
                     f"{sweep.replace('seed004_', '')}.yaml")
    got = {}
    for line, r in enumerate(rows, start=2):
        try:
            if r[LAT] == "" or r[ROOT] == "":
                raise DataError("a point without results: rerun the sweep")
            got[(r["traffic.scheme"], int(r["traffic.set_size"]))] = (float(r[LAT]), float(r[ROOT]))
        except ValueError as e:
            raise DataError(f"{path}:{line}: {e}") from None
        except DataError as e:
            raise DataError(f"{path}:{line}: {e}") from None
    out = {}
    for s in SCHEMES:
        for d in D:
            if (s, d) not in got:
                raise DataError(f"{path}: no point {s} at d = {d}")
        out[s] = ([got[(s, d)][0] for d in D], [got[(s, d)][1] for d in D])
    return out


def tables(data):
    runs = {key: load(summary_path(data, name), name) for key, name in SWEEPS.items()}
    lines = ["Fig. 2, completion latency:", "",
             "| groups | " + " | ".join(c[0] for c in FIG2) + " |", "|---|" + "---|" * len(FIG2)]
    for g in GROUPS:
        cells = [cell(*judge({s: runs[(g, size)][s][0] for s in SCHEMES})) for _, size, _, judge in FIG2]
        lines.append(f"| {GROUPS[g]} | " + " | ".join(cells) + " |")
    lines += ["", "Fig. 3, the root's CPU time:", "",
              "| groups | root polls | " + " | ".join(c[0] for c in FIG3) + " |",
              "|---|---|" + "---|" * len(FIG3)]
    for g in GROUPS:
        for reading, col in (("own_sends", 1), ("completion", 0)):
            cells = [cell(*judge({s: runs[(g, size)][s][col] for s in SCHEMES})) for _, size, _, judge in FIG3]
            lines.append(f"| {GROUPS[g]} | {READINGS[reading]} | " + " | ".join(cells) + " |")
    lines += ["", "Predicates (means over the trials of each point; latencies and CPU times in us):", ""]
    for name, size, pred, _ in FIG2 + FIG3:
        lines.append(f"* {name}: {pred}.")
    return "\n".join(lines) + "\n"


def save(data, out):
    keep = {"traffic.scheme", "traffic.set_size", "traffic.source", "n", LAT, ROOT,
            LAT.rsplit(".", 1)[0] + ".ci95", ROOT.rsplit(".", 1)[0] + ".ci95"}
    for name in SWEEPS.values():
        src = summary_path(data, name)
        load(src, name)
        save_columns(src, out, keep)


if __name__ == "__main__":
    sys.exit(verdict_table.main("seed004_sensitivity.py", __doc__, tables, save))
