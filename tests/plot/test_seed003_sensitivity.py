#!/usr/bin/env python3
"""scripts/seed003_sensitivity.py on summaries written here with known
speedups: each verdict follows its stated predicate, the page check fails on
a stale table, and bad data is refused with the file and the reason."""
import csv
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_checks import check, check_page_cycle, run_script  # noqa: E402

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "seed003_sensitivity.py")
Y = "metrics.multicast.completion_cycles.mean_us.mean"
SOURCES, GROUPS, SIZES = [51, 90, 128], [13, 51, 90, 128], [32, 1024]
# Two choices of replication; OpenSM's speedup over cyclic per group under each.
FLAT = {13: 1.19, 51: 1.19, 90: 1.19, 128: 1.19}     # small: agrees; full, fig17: differ
FALLING = {13: 2.0, 51: 1.5, 90: 1.2, 128: 1.05}     # all three agree
REPLICATION = [(0, "switch", FLAT), (25, "input", FALLING)]


def write(path, rows):
    with open(path, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)


def rows_of(scheme, drop=None, sizes=SIZES, unicast=10):
    out = []
    for size in sizes:
        for interval, scope, speedup in REPLICATION:
            for ports in (["in_tree"] if scheme == "opensm" else [None]):
                for src in SOURCES:
                    for g in GROUPS:
                        t = 100.0 + src + g
                        if scheme == "opensm":
                            t *= speedup[g]
                        if scheme == "unicast":
                            t *= unicast
                        r = {"switch.admission": "store_and_forward", "message.size": size,
                             "switch.buffer": 2 * (size + 1), "switch.pass_interval": interval,
                             "switch.pass_scope": scope, "traffic.sources": src, "traffic.group": g, Y: t}
                        if ports:
                            r["traffic.sender_ports"] = ports
                        if drop and (src, g, interval) == drop:
                            continue
                        out.append(r)
    return out


def make(d, **over):
    for s in ("cyclic", "opensm", "unicast"):
        rows = over.get(s, rows_of(s, sizes=[32] if s == "unicast" else SIZES))
        if rows is not None:
            write(os.path.join(d, f"seed003_assumptions_{s}_summary.csv"), rows)


def run(*args):
    return run_script(SCRIPT, *args)


def main():
    with tempfile.TemporaryDirectory() as d:
        make(d)
        rc, out, err = run("--data", d)
        check(rc == 0, f"a table from good data ({err})")
        lines = {tuple(c.strip() for c in l.strip("|").split("|")[:2]): l for l in out.splitlines() if l.startswith("| ")}
        flat = lines[("store-and-forward, 2 packets/input, parallel, senders in the tree", "32 B")]
        falling = lines[("store-and-forward, 2 packets/input, serial per input (25 cycles), senders in the tree", "1024 B")]
        cells = [c.strip() for c in flat.strip("|").split("|")[2:]]
        check(cells[0].startswith("agrees (min s 1.190"), f"flat small groups agree: {cells[0]}")
        check(cells[1].startswith("differs (s 1.190/1.190/1.190"), f"flat 100 % differs: {cells[1]}")
        check(cells[2] == "differs (51: 1.19/1.19/1.19/1.19; 128: 1.19/1.19/1.19/1.19)", f"flat Fig. 17 differs: {cells[2]}")
        check(cells[3] == "agrees (max T/T_unicast cyclic 0.10, OpenSM 0.12)", f"unicast 10x slower: {cells[3]}")
        cells = [c.strip() for c in falling.strip("|").split("|")[2:]]
        check(cells[:3] == ["agrees (min s 1.500)", "agrees (s 1.050/1.050/1.050)",
                            "agrees (51: 2.00/1.50/1.20/1.05; 128: 2.00/1.50/1.20/1.05)"],
              f"falling speedups agree: {cells}")
        check(cells[3] == "cannot be judged (no unicast runs at 1024 B under these choices)",
              f"no unicast at 1 KB: {cells[3]}")

        # Unicast 1.5x cyclic: OpenSM's 2.0x at 13 members under FALLING loses to it.
        make(d, unicast=rows_of("unicast", sizes=[32], unicast=1.5))
        rc, out, err = run("--data", d)
        check(rc == 0, f"a table with a slow OpenSM ({err})")
        serial = [l for l in out.splitlines() if "serial per input" in l and "| 32 B |" in l][0]
        check(serial.rstrip().endswith("differs (max T/T_unicast cyclic 0.67, OpenSM 1.33) |"), f"OpenSM loses: {serial}")
        make(d)

        page = os.path.join(d, "page.md")
        with open(page, "w") as f:
            f.write("intro\n<!-- seed003_sensitivity.py: begin (generated; do not edit) -->\nstale\n"
                    "<!-- seed003_sensitivity.py: end -->\nafter\n")
        check_page_cycle(SCRIPT, d, page)
        text = open(page).read()
        check(text.startswith("intro\n") and text.endswith("after\n") and "stale" not in text, "only the block replaced")

    with tempfile.TemporaryDirectory() as d:   # bad data: the file and the reason
        make(d, opensm=None)
        rc, _, err = run("--data", d)
        check(rc == 1 and "seed003_assumptions_opensm_summary.csv is missing" in err, f"missing file: {err}")
        rows = rows_of("opensm")
        for r in rows:
            del r["traffic.sender_ports"]
        make(d, opensm=rows)
        rc, _, err = run("--data", d)
        check(rc == 1 and "no column traffic.sender_ports" in err, f"missing column: {err}")
        make(d, opensm=rows_of("opensm", drop=(90, 51, 25)))
        rc, _, err = run("--data", d)
        check(rc == 1 and "no point 32 B, 90 senders, 51 members" in err, f"missing point: {err}")
        rows = rows_of("cyclic")
        rows[3]["switch.buffer"] = 50
        rows[4][Y] = ""
        make(d, cyclic=rows)
        rc, _, err = run("--data", d)
        check(rc == 1 and "cyclic_summary.csv:5: switch.buffer 50 is not a whole number of 33-flit packets" in err,
              f"bad buffer with its line: {err}")
        make(d)
        page = os.path.join(d, "nomarks.md")
        open(page, "w").write("no markers\n")
        rc, _, err = run("--data", d, "--check", page)
        check(rc == 1 and "needs one line" in err, f"a page without markers: {err}")
    print("ok")


if __name__ == "__main__":
    main()
