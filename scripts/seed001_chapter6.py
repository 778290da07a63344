#!/usr/bin/env python3
"""The verdicts and tables of seed001's Chapter 6 (Figs. 6.3-6.8), computed
from the sweeps' summaries.

Each statement of the thesis about a figure is judged by the predicate (with
its threshold) stated in CLAIMS below, under two router timings: one flit
time per hop (the thesis's tau_n; experiments/seed001/path_torus.yaml, the
default) and the 3-cycle pipelined router (route, crossbar, link; the
what-if sweep fig6_3_three_cycle_hops, which runs Fig. 6.3(a)/(b) only).
A claim whose data was not run under a timing "cannot be judged".

  python3 scripts/seed001_chapter6.py [--data DIR]             # print the tables
  python3 scripts/seed001_chapter6.py --write docs/seed001.md  # replace them in the page
  python3 scripts/seed001_chapter6.py --check docs/seed001.md  # exit 1 if the page's tables differ
  python3 scripts/seed001_chapter6.py --save docs/data/seed001 # keep the columns read, from results/
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verdict_table  # noqa: E402
from verdict_table import DataError, read_rows, save_columns, summary_path  # noqa: E402

AVG = "metrics.multicast.mean_latency_cycles.mean.mean"   # the average over the destinations
AVG_CI = "metrics.multicast.mean_latency_cycles.mean.ci95"   # its 95 % confidence interval over the runs
MAX = "metrics.multicast.latency_cycles.mean.mean"        # the last destination
LINKS = "metrics.multicast.plan_link_visits.mean.mean"
SCHEMES = {("storus", "0"): "S-torus", ("mdtorus", "0"): "M_d-torus", ("mutorus", "8"): "M_u-torus(8)",
           ("mutorus", "64"): "M_u-torus(64)", ("mutorus", "2"): "unicast-based"}
ORDER = list(SCHEMES.values())
PATH = ORDER[:4]
UB = "unicast-based"
PHASES_512 = {"S-torus": 1, "M_d-torus": 2, "M_u-torus(8)": 3, "M_u-torus(64)": 2, UB: 9}   # 64x64, m = 512
M_AB = [16, 32, 64, 128, 256, 512]
M_C = [16, 128, 512]
LENGTHS = [8, 64, 256, 1024, 4096, 16384]
TIMINGS = {"hop1": "one flit time per hop (τ_n; default)", "hop3": "3-cycle router (what-if)"}
TIMING_NAMES = {"hop1": "one-cycle hop", "hop3": "3-cycle router"}
# (figure, timing) -> {message size: sweep}; a size's m values: M_AB, or M_C at 16384 flits
PANELS = {
    ("6.3", "hop1"): {8: "fig6_3_2d_high", 512: "fig6_3_2d_high", 16384: "fig6_3c_2d_high_long"},
    ("6.3", "hop3"): {8: "fig6_3_three_cycle_hops", 512: "fig6_3_three_cycle_hops"},
    ("6.4", "hop1"): {8: "fig6_4_2d_low", 512: "fig6_4_2d_low", 16384: "fig6_4c_2d_low_long"},
    ("6.5", "hop1"): {8: "fig6_5_3d_high", 512: "fig6_5_3d_high", 16384: "fig6_5c_3d_high_long"},
    ("6.6", "hop1"): {8: "fig6_6_3d_low", 512: "fig6_6_3d_low", 16384: "fig6_6c_3d_low_long"},
}
LENGTH_SWEEPS = {"high": "fig6_7_2d_high_length", "low": "fig6_7_2d_low_length"}
LINK_SWEEP = "fig6_8_link_visits"
DIMS = {"2-D": "[64, 64]", "3-D": "[16, 16, 16]"}


class Missing(Exception):
    """A claim needs a panel that was not run under this timing."""


def sweep_file(name):
    return f"experiments/seed001/sweeps/{name}.yaml"


def load(data, name, keys, cols):
    """{(scheme, *keys values): {col: value}} of one summary; every value present."""
    path = summary_path(data, name)
    rows = read_rows(path, ["traffic.scheme", "traffic.r"] + keys + cols, sweep_file(name))
    out = {}
    for line, r in enumerate(rows, start=2):
        s = SCHEMES.get((r["traffic.scheme"], r["traffic.r"]))
        if s is None:
            raise DataError(f"{path}:{line}: scheme {r['traffic.scheme']} r {r['traffic.r']} is none of the five")
        try:
            out[(s,) + tuple(r[k] for k in keys)] = {c: float(r[c]) for c in cols}
        except ValueError:
            raise DataError(f"{path}:{line}: a point without results ({', '.join(c for c in cols if not r[c])}): "
                            f"rerun {sweep_file(name)}") from None
    return out, path


def need(rows, path, key, cols):
    """The values of `cols` at point `key`, or the error naming the file and the point."""
    if key not in rows:
        raise DataError(f"{path}: no point {' '.join(str(k) for k in key)}")
    return tuple(rows[key][c] for c in cols)


class Data:
    """The summaries, read once each; panels and tables from them."""

    def __init__(self, data):
        self.data = data
        self.cache = {}

    def rows(self, name, keys, cols):
        if name not in self.cache:
            self.cache[name] = load(self.data, name, keys, cols)
        return self.cache[name]

    def panel(self, fig, timing, size):
        """{scheme: [(average, maximum, average's CI) per m]} of one figure's panel, or Missing."""
        sweep = PANELS.get((fig, timing), {}).get(size)
        if sweep is None:
            raise Missing(f"Fig. {fig} at {size} flits not run with the {TIMING_NAMES[timing]}")
        long = size == 16384
        rows, path = self.rows(sweep, ["traffic.set_size"] if long else ["message.size", "traffic.set_size"],
                               [AVG, MAX, AVG_CI])
        key = (lambda s, m: (s, str(m))) if long else (lambda s, m: (s, str(size), str(m)))
        return {s: [need(rows, path, key(s, m), (AVG, MAX, AVG_CI)) for m in ms_of(size)] for s in ORDER}

    def lengths(self, startup):
        rows, path = self.rows(LENGTH_SWEEPS[startup], ["message.size"], [AVG, MAX])
        return {s: [need(rows, path, (s, str(n)), (AVG, MAX)) for n in LENGTHS] for s in ORDER}

    def links(self, net):
        rows, path = self.rows(LINK_SWEEP, ["topology.dims", "traffic.set_size"], [LINKS])
        return {s: [need(rows, path, (s, DIMS[net], str(m)), (LINKS,))[0] for m in M_AB] for s in ORDER}


def ms_of(size):
    return M_C if size == 16384 else M_AB


def avg(p, s):
    return [a[0] for a in p[s]]


def lowest(p, s, i):
    """s's average the lowest at the i-th m, or level with it: s's mean minus its CI at most the lowest mean
    plus that one's CI (M_u-torus(64) is S-torus's worm for m <= 64: a tie)."""
    low = min(ORDER, key=lambda o: p[o][i][0])
    return p[s][i][0] - p[s][i][2] <= p[low][i][0] + p[low][i][2]


def where(ms, flags):
    bad = [str(m) for m, ok in zip(ms, flags) if not ok]
    return "every m" if not bad else "m = " + ", ".join(bad)


# --- the predicates: each takes (Data, timing) and returns (ok, evidence) ---

def path_beat_ub(fig, size):
    def judge(d, t):
        p = d.panel(fig, t, size)
        ratios = [(max(avg(p, s)[i] / avg(p, UB)[i] for s in PATH), i) for i in range(len(ms_of(size)))]
        worst, i = max(ratios)
        slow = [s for s in PATH if any(avg(p, s)[j] >= avg(p, UB)[j] for j in range(len(ms_of(size))))]
        return worst < 1, (f"slowest path-based / unicast-based at most {worst:.2f}" if not slow else
                           "above unicast-based: " + ", ".join(slow) + f" (up to {worst:.2f}x)")
    return judge


def small_exception(fig):
    def judge(d, t):
        p = d.panel(fig, t, 8)
        slow = [s for s in PATH if any(a >= u for a, u in zip(avg(p, s), avg(p, UB)))]
        return bool(slow), ("above unicast-based at 8 flits: " + ", ".join(slow) if slow else
                            "every path-based scheme below unicast-based at 8 flits")
    return judge


def mu8_much_better(fig):
    def judge(d, t):
        p = d.panel(fig, t, 8)
        r = [a / u for a, u in zip(avg(p, "M_u-torus(8)"), avg(p, UB))]
        return max(r) <= 0.8, f"M_u-torus(8) / unicast-based {min(r):.2f}-{max(r):.2f}"
    return judge


def fewer_phases_favoured(fig):
    def judge(d, t):
        a, b = d.panel(fig, t, 8), d.panel(fig, t, 512)
        grow = {s: [y - x for x, y in zip(avg(a, s), avg(b, s))] for s in ("S-torus", "M_u-torus(8)", UB)}
        ok = [g1 < g3 < g9 for g1, g3, g9 in zip(grow["S-torus"], grow["M_u-torus(8)"], grow[UB])]
        return all(ok), (f"8 to 512 flits at m = 512: +{grow['S-torus'][-1]:.0f} (S-torus), "
                         f"+{grow['M_u-torus(8)'][-1]:.0f} (M_u-torus(8)), +{grow[UB][-1]:.0f} (unicast-based); "
                         f"ordered at {where(M_AB, ok)}")
    return judge


def best(fig, scheme, sizes):
    def judge(d, t):
        parts, ok = [], True
        for size in sizes:
            p = d.panel(fig, t, size)
            flags = [lowest(p, scheme, i) for i in range(len(ms_of(size)))]
            ok &= all(flags)
            if not all(flags):
                parts.append(f"{size} flits: not lowest at {where(ms_of(size), flags)}")
            else:
                own, other = avg(p, scheme)[-1], min(avg(p, o)[-1] for o in ORDER if o != scheme)
                gap = f"{100 * (1 - own / other):.0f} % below the next" if own <= other else \
                    f"{100 * (own / other - 1):.0f} % above the lowest, within the CIs"
                parts.append(f"{size} flits: lowest or level at every m, {gap} at m = 512")
        return ok, "; ".join(parts)
    return judge


def ub_near_mu8(fig):
    def judge(d, t):
        p = d.panel(fig, t, 8)
        r = [u / a for a, u in zip(avg(p, "M_u-torus(8)"), avg(p, UB))]
        return all(2 / 3 <= x <= 1.5 for x in r), f"unicast-based / M_u-torus(8) {min(r):.2f}-{max(r):.2f}"
    return judge


def ub_poor(fig, sizes):
    def judge(d, t):
        parts, ok = [], True
        for size in sizes:
            p = d.panel(fig, t, size)
            r = [avg(p, UB)[i] / min(avg(p, s)[i] for s in PATH) for i in range(len(ms_of(size)))]
            ok &= min(r) >= 1.25
            parts.append(f"{size} flits: {min(r):.2f}-{max(r):.2f}x the best")
        return ok, "; ".join(parts)
    return judge


def clearly_below(p, a, b):
    """a's average below b's at m = 512 beyond both CIs."""
    return p[a][-1][0] + p[a][-1][2] < p[b][-1][0] - p[b][-1][2]


def like_2d(fig3d, fig2d):
    def judge(d, t):
        parts, ok = [], True
        for size in (512, 16384):
            p3, p2 = d.panel(fig3d, t, size), d.panel(fig2d, t, size)
            flips = [f"{a} < {b}" for a in ORDER for b in ORDER
                     if clearly_below(p2, a, b) and clearly_below(p3, b, a)]
            ok &= not flips
            parts.append(f"{size} flits: " + ("no pair reversed" if not flips else "2-D orders reversed in 3-D: " +
                                                 ", ".join(flips)))
        return ok, "; ".join(parts)
    return judge


def improve_3d(fig3d, fig2d):
    def judge(d, t):
        parts, ok = [], True
        for size in (8, 512, 16384):
            p3, p2 = d.panel(fig3d, t, size), d.panel(fig2d, t, size)
            gains = {s: 1 - avg(p3, s)[-1] / avg(p2, s)[-1] for s in ("S-torus", "M_d-torus", "M_u-torus(64)")}
            ok &= all(g > 0 for g in gains.values())
            parts.append(f"{size} flits " + "/".join(f"{100 * g:+.0f} %" for g in gains.values()))
        return ok, "S-torus/M_d/M_u(64) faster in 3-D at m = 512 by: " + "; ".join(parts)
    return judge


def length_sensitivity(startup):
    def judge(d, t):
        if t != "hop1":
            raise Missing(f"Fig. 6.7 not run with the {TIMING_NAMES[t]}")
        L = d.lengths(startup)
        slope = {s: (L[s][-1][1] - L[s][0][1]) / (LENGTHS[-1] - LENGTHS[0]) for s in ORDER}
        by_phases = sorted(ORDER, key=lambda s: (PHASES_512[s], s))
        ok = min(slope, key=slope.get) == "S-torus" and max(slope, key=slope.get) == UB and all(
            slope[a] <= slope[b] + 0.01 for a, b in zip(by_phases, by_phases[1:]))
        return ok, "maximum latency per added flit " + ", ".join(f"{slope[s]:.2f}" for s in ORDER) + \
            " (phases " + ", ".join(str(PHASES_512[s]) for s in ORDER) + ")"
    return judge


def fewer_links():
    def judge(d, t):
        parts, ok = [], True
        for net in DIMS:
            L = d.links(net)
            flags = [all(L[s][i] < L[UB][i] for s in PATH) for i in range(len(M_AB))]
            ok &= all(flags)
            r = [L[UB][-1] / L[s][-1] for s in PATH]
            parts.append(f"{net}: {min(r):.1f}-{max(r):.1f}x fewer at m = 512" +
                         ("" if all(flags) else f", not at {where(M_AB, flags)}"))
        return ok, "; ".join(parts)
    return judge


def especially_2d():
    def judge(d, t):
        r = {net: [d.links(net)[UB][-1] / d.links(net)[s][-1] for s in PATH] for net in DIMS}
        ok = all(a > b for a, b in zip(r["2-D"], r["3-D"]))
        return ok, "unicast-based / path-based at m = 512: 2-D " + "/".join(f"{x:.2f}" for x in r["2-D"]) + \
            ", 3-D " + "/".join(f"{x:.2f}" for x in r["3-D"])
    return judge


def untimed(judge):
    """A claim about the plan (link visits): the same under every router timing."""
    def wrapped(d, t):
        if t != "hop1":
            raise Missing("link visits are the plan's: no timing")
        return judge(d, t)
    return wrapped


# (figure and statement, predicate, judge)
CLAIMS = [
    ("6.3(b): path-based methods beat unicast-based (512 flits)",
     "every path-based scheme's average below unicast-based's at every m, 512 flits", path_beat_ub("6.3", 512)),
    ("6.3(c): ... and at 16384 flits", "the same at 16384 flits", path_beat_ub("6.3", 16384)),
    ("6.3(a): \"except for very small messages\"",
     "some path-based scheme's average at or above unicast-based's at some m, 8 flits", small_exception("6.3")),
    ("6.3(a): even for small messages M_u-torus(8) \"performs much better\"",
     "M_u-torus(8)'s average at most 0.8 x unicast-based's at every m, 8 flits", mu8_much_better("6.3")),
    ("6.3: longer messages favour fewer phases",
     "from 8 to 512 flits the average grows less for S-torus (1 phase) than M_u-torus(8) (3) than unicast-based "
     "(9), at every m", fewer_phases_favoured("6.3")),
    ("6.3: M_u-torus(8) best for short and medium messages",
     "M_u-torus(8)'s average the lowest or level with it (95 % CIs overlapping) at every m, 8 and 512 flits",
     best("6.3", "M_u-torus(8)", (8, 512))),
    ("6.3(c): S-torus best for large messages",
     "S-torus's average the lowest or level with it (95 % CIs overlapping) at every m, 16384 flits",
     best("6.3", "S-torus", (16384,))),
    ("6.4(a): unicast-based ≈ M_u-torus(8) for small messages",
     "unicast-based's average between 2/3 and 3/2 of M_u-torus(8)'s at every m, 8 flits", ub_near_mu8("6.4")),
    ("6.4(b), (c): unicast-based poor for medium and large messages",
     "unicast-based's average at least 1.25 x the best path-based scheme's at every m, 512 and 16384 flits",
     ub_poor("6.4", (512, 16384))),
    ("6.4(c): S-torus best for large messages",
     "as 6.3(c), low startup", best("6.4", "S-torus", (16384,))),
    ("6.5: similar to 2-D except small messages",
     "no two schemes in the opposite order by average at m = 512 from Fig. 6.3's, each order beyond the 95 % CIs, "
     "512 and 16384 flits",
     like_2d("6.5", "6.3")),
    ("6.5: S-torus, M_d-torus, M_u-torus(64) improve in 3-D",
     "each one's average at m = 512 lower than in Fig. 6.3, at 8, 512 and 16384 flits", improve_3d("6.5", "6.3")),
    ("6.6: as 6.5 (similar to 2-D)", "as for 6.5, against Fig. 6.4", like_2d("6.6", "6.4")),
    ("6.6: as 6.5 (the three improve in 3-D)", "as for 6.5, against Fig. 6.4", improve_3d("6.6", "6.4")),
    ("6.7(a): sensitivity to length grows with the phases, S-torus least, unicast-based most (high startup)",
     "the maximum latency's rise per flit from 8 to 16384 flits lowest for S-torus, highest for unicast-based, "
     "and in the order of the phases (ties within 0.01)", length_sensitivity("high")),
    ("6.7(b): ... (low startup)", "as 6.7(a)", length_sensitivity("low")),
    ("6.8: path-based schemes use fewer links than unicast-based",
     "every path-based scheme's link visits below unicast-based's at every m, 2-D and 3-D", untimed(fewer_links())),
    ("6.8: \"especially with the 2D topology\"",
     "unicast-based / path-based link visits at m = 512 higher in 2-D than in 3-D for every path-based scheme",
     untimed(especially_2d())),
]


def verdict(d, judge, timing):
    try:
        ok, evidence = judge(d, timing)
    except Missing as e:
        return f"cannot be judged ({e})"
    return verdict_table.cell(ok, evidence)


def verdicts(d):
    lines = ["| Chapter 6: figure and statement | " + " | ".join(TIMINGS.values()) + " |",
             "|---|" + "---|" * len(TIMINGS)]
    for name, _, judge in CLAIMS:
        lines.append(f"| {name} | " + " | ".join(verdict(d, judge, t) for t in TIMINGS) + " |")
    lines += ["", "Predicates (means over each point's sets; latencies in cycles of 0.5 µs; m counts the "
              "source):", ""]
    lines += [f"* {name}: {pred}." for name, pred, _ in CLAIMS]
    return "\n".join(lines) + "\n"


def latency_table(d, fig, timing, sizes, ms=(16, 128, 512)):
    head = "| scheme | " + " | ".join(f"{n} flits" for n in sizes) + " |"
    lines = [head, "|---|" + "---|" * len(sizes)]
    for s in ORDER:
        cells = []
        for n in sizes:
            p = d.panel(fig, timing, n)
            cells.append(" / ".join(f"{p[s][ms_of(n).index(m)][0]:.0f}" for m in ms))
        lines.append(f"| {s} | " + " | ".join(cells) + " |")
    return lines


def tables(d):
    out = ["Average latency in cycles of 0.5 µs at m = 16 / 128 / 512 (one flit time per hop unless named):", ""]
    for fig, net in (("6.3", "64×64, high startup"), ("6.4", "64×64, low startup"), ("6.5", "16×16×16, high startup"),
                     ("6.6", "16×16×16, low startup")):
        out += [f"Fig. {fig} ({net}):", ""] + latency_table(d, fig, "hop1", (8, 512, 16384)) + [""]
    out += ["Fig. 6.3 with the 3-cycle router (what-if):", ""] + latency_table(d, "6.3", "hop3", (8, 512)) + [""]
    out += ["Fig. 6.7, average latency against the message length at m = 512 (high startup; low startup in the "
            "second row of each scheme):", "",
            "| scheme | phases | " + " | ".join(str(n) for n in LENGTHS) + " flits |",
            "|---|---|" + "---|" * len(LENGTHS)]
    hi, lo = d.lengths("high"), d.lengths("low")
    for s in ORDER:
        out.append(f"| {s} | {PHASES_512[s]} | " + " | ".join(f"{a:.0f}" for a, _ in hi[s]) + " |")
        out.append("| | | " + " | ".join(f"{a:.0f}" for a, _ in lo[s]) + " |")
    out += ["", "Maximum latency at m = 512, 16384 flits, low startup: P phases of the whole message and the rest "
            "(P for 64×64 / 16×16×16):", "", "| scheme | 64×64 | 16×16×16 |", "|---|---|---|"]
    for s in ORDER:
        cells = []
        for fig, p3 in (("6.4", False), ("6.6", True)):
            mx = d.panel(fig, "hop1", 16384)[s][-1][1]
            phases = 3 if (p3 and s == "M_d-torus") else PHASES_512[s]
            cells.append(f"{mx:.0f} = {phases} × 16384 + {mx - phases * 16384:.0f}")
        out.append(f"| {s} | " + " | ".join(cells) + " |")
    out += ["", "Fig. 6.8, link visits (the plan's links crossed, counted per message) at m = 16 / 128 / 512:", "",
            "| scheme | 64×64 | 16×16×16 |", "|---|---|---|"]
    L2, L3 = d.links("2-D"), d.links("3-D")
    for s in ORDER:
        out.append(f"| {s} | " + " | ".join(" / ".join(f"{L[s][M_AB.index(m)]:.0f}" for m in (16, 128, 512))
                                            for L in (L2, L3)) + " |")
    return "\n".join(out) + "\n"


def blocks(data):
    d = Data(data)
    return {"verdicts": verdicts(d), "tables": tables(d)}


def all_sweeps():
    names = {s for p in PANELS.values() for s in p.values()} | set(LENGTH_SWEEPS.values()) | {LINK_SWEEP}
    return sorted(names)


def save(data, out):
    blocks(data)   # every sweep complete and readable before anything is written
    keep = {"traffic.scheme", "traffic.r", "traffic.set_size", "message.size", "topology.dims", "n", AVG, MAX, LINKS}
    keep |= {c.rsplit(".", 1)[0] + ".ci95" for c in (AVG, MAX, LINKS)}   # AVG_CI among them
    for name in all_sweeps():
        save_columns(summary_path(data, name), out, keep)


if __name__ == "__main__":
    sys.exit(verdict_table.main("seed001_chapter6.py", __doc__, blocks, save))
