#!/usr/bin/env python3
"""The verdicts of seed003's Case 2 and Fig. 17 under each unstated choice.

Reads the summaries of the three assumptions sweeps
(experiments/seed003/sweeps/assumptions_{cyclic,opensm,unicast}.yaml) and
judges four of the paper's statements at every combination of the choices
the paper leaves open (switching, buffers, replication, OpenSM's senders),
separately at 32 B and 1 KB. Each predicate and its thresholds are stated in
CLAIMS below; a verdict is "agrees" or "differs" with the numbers it read.

  python3 scripts/seed003_sensitivity.py [--data DIR]            # print the table
  python3 scripts/seed003_sensitivity.py --write docs/seed003.md # replace the table in the page
  python3 scripts/seed003_sensitivity.py --check docs/seed003.md # exit 1 if the page's table differs
  python3 scripts/seed003_sensitivity.py --save docs/data/seed003 # keep the columns read, from results/

DIR holds seed003_assumptions_<scheme>_summary.csv for the three schemes
(default: the sweeps' own results/ directories). The page's table sits
between two marker lines (scripts/verdict_table.py).
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import verdict_table  # noqa: E402
from verdict_table import DataError, cell, read_rows, save_columns  # noqa: E402
from verdict_table import summary_path as sweep_summary  # noqa: E402

Y = "metrics.multicast.completion_cycles.mean_us.mean"
SCHEMES = ["cyclic", "opensm", "unicast"]
SOURCES = [51, 90, 128]
GROUPS = [13, 51, 90, 128]
SMALL = [13, 51]            # the paper's "small groups (10 %, 40 %)"
SIZES = [32, 1024]
KEYS = ["switch.admission", "message.size", "switch.buffer", "switch.pass_interval", "switch.pass_scope",
        "traffic.sources", "traffic.group"]

# The statements, their predicates and thresholds (s = T_OpenSM / T_cyclic).
CLAIMS = [
    ("small", "Case 2: cyclic better than OpenSM for groups of 10 % and 40 %",
     "s >= 1.01 at every sender count (51, 90, 128) and group of 13 and 51"),
    ("full", "Case 2 and Fig. 17: for 100 % groups cyclic a little better (speedup near 1)",
     "1 < s <= 1.10 with 128 members at every sender count"),
    ("fig17", "Fig. 17: speedup higher for small groups",
     "at every sender count s falls with the group (each step within +0.5 %) and s(13) - s(128) >= 0.05"),
    ("unicast", "Case 2: multicast better than unicast",
     "cyclic and OpenSM both faster than unicast at every sender count and group"),
]


def replication(row):
    interval, scope = int(row["switch.pass_interval"]), row["switch.pass_scope"]
    if interval == 0:
        return "parallel"
    if scope == "input":
        return f"serial per input ({interval} cycles)"
    return f"serial per switch ({interval} cycles)"


def buffers(row):
    packet = int(row["message.size"]) + 1   # one header flit (1-byte flits)
    flits = int(row["switch.buffer"])
    if flits % packet:
        raise DataError(f"switch.buffer {flits} is not a whole number of {packet}-flit packets")
    return flits // packet


def load(path, scheme):
    """Completion (us) per (config, size, sources, group) of one scheme's summary."""
    need = KEYS + [Y] + (["traffic.sender_ports"] if scheme == "opensm" else [])
    rows = read_rows(path, need, f"experiments/seed003/sweeps/assumptions_{scheme}.yaml")
    out = {}
    for line, r in enumerate(rows, start=2):
        try:
            if r[Y] == "":
                raise DataError("a point without results: rerun the sweep")
            config = (r["switch.admission"], buffers(r), replication(r), r.get("traffic.sender_ports", ""))
            point = (int(r["message.size"]), int(r["traffic.sources"]), int(r["traffic.group"]))
            out[(config, point)] = float(r[Y])
        except (DataError, ValueError) as e:
            raise DataError(f"{path}:{line}: {e}") from None
    return out


def speedups(cyc, osm, config, size):
    """s[sources][group] for one configuration (the OpenSM config includes sender_ports)."""
    s = {}
    for src in SOURCES:
        for g in GROUPS:
            key_c = ((config[0], config[1], config[2], ""), (size, src, g))
            key_o = (config, (size, src, g))
            if key_c not in cyc or key_o not in osm:
                raise DataError(f"no point {size} B, {src} senders, {g} members under {describe(config)}")
            s.setdefault(src, {})[g] = osm[key_o] / cyc[key_c]
    return s


def judge(claim, s, times=None):
    """(agrees, evidence) for one claim on one configuration and size."""
    if claim == "small":
        low = min(s[src][g] for src in SOURCES for g in SMALL)
        return low >= 1.01, f"min s {low:.3f}"
    if claim == "full":
        vals = [s[src][128] for src in SOURCES]
        return all(1 < v <= 1.10 for v in vals), "s " + "/".join(f"{v:.3f}" for v in vals)
    if claim == "fig17":
        ok = True
        for src in SOURCES:
            row = [s[src][g] for g in GROUPS]
            falls = all(b <= a * 1.005 for a, b in zip(row, row[1:]))
            ok = ok and falls and row[0] - row[-1] >= 0.05
        return ok, "; ".join(f"{src}: " + "/".join(f"{s[src][g]:.2f}" for g in GROUPS) for src in (51, 128))
    if claim == "unicast":
        worst = {sch: max(times[sch][p] / times["unicast"][p] for p in times["unicast"]) for sch in ("cyclic", "opensm")}
        return max(worst.values()) < 1, f"max T/T_unicast cyclic {worst['cyclic']:.2f}, OpenSM {worst['opensm']:.2f}"
    raise ValueError(claim)


def describe(config):
    adm, bufs, rep, ports = config
    parts = ["store-and-forward" if adm == "store_and_forward" else "virtual cut-through",
             f"{bufs} packet{'s' if bufs > 1 else ''}/input", rep]
    if ports:
        parts.append("senders " + ("in the tree" if ports == "in_tree" else "out of the tree"))
    return ", ".join(parts)


def configs(osm):
    return sorted({c for c, _ in osm}, key=lambda c: (c[0] != "store_and_forward", -c[1], c[2], c[3]))


def unicast_times(cyc, osm, uni, config, size):
    """Per (sources, group): the three schemes' times, or None where unicast was not run."""
    uc = (config[0], config[1], config[2], "")
    if (uc, (size, SOURCES[0], GROUPS[0])) not in uni:
        return None
    t = {"cyclic": {}, "opensm": {}, "unicast": {}}
    for src in SOURCES:
        for g in GROUPS:
            p = (size, src, g)
            if (uc, p) not in uni:
                raise DataError(f"no unicast point {size} B, {src} senders, {g} members under {describe(uc)}")
            t["cyclic"][p], t["opensm"][p], t["unicast"][p] = cyc[(uc, p)], osm[(config, p)], uni[(uc, p)]
    return t


def summary_path(data, scheme):
    return sweep_summary(data, f"seed003_assumptions_{scheme}")


def table(data):
    cyc, osm, uni = (load(summary_path(data, s), s) for s in SCHEMES)
    lines = ["| choices | size | " + " | ".join(c[1] for c in CLAIMS) + " |",
             "|---|---|" + "---|" * len(CLAIMS)]
    for config in configs(osm):
        for size in SIZES:
            s = speedups(cyc, osm, config, size)
            cells = [cell(*judge(name, s)) for name, _, _ in CLAIMS[:3]]
            times = unicast_times(cyc, osm, uni, config, size)
            cells.append(cell(*judge("unicast", s, times)) if times else
                         f"cannot be judged (no unicast runs at {size} B under these choices)")
            lines.append(f"| {describe(config)} | {size} B | " + " | ".join(cells) + " |")
    lines.append("")
    lines.append("Predicates (s = T_OpenSM / T_cyclic, mean completion over 10 draws):")
    lines.append("")
    for _, statement, predicate in CLAIMS:
        lines.append(f"* {statement}: {predicate}.")
    return "\n".join(lines) + "\n"


def save(data, out):
    """Copies of the three summaries with only the swept keys, n, and the
    completion time's mean and ci95."""
    keep = set(KEYS) | {"traffic.sender_ports", "endpoint.rx_buffer", "n", Y, Y.rsplit(".", 1)[0] + ".ci95"}
    for scheme in SCHEMES:
        src = summary_path(data, scheme)
        load(src, scheme)   # refuses what table() would refuse
        save_columns(src, out, keep)


if __name__ == "__main__":
    sys.exit(verdict_table.main("seed003_sensitivity.py", __doc__, table, save))
