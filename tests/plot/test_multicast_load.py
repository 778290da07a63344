#!/usr/bin/env python3
"""scripts/multicast_load.py on a summary written here with known shapes:
each scheme's saturation interval is read from the first saturated load of
its grid (a saturated run at any load ends the stable prefix, whatever
comes after), the zero-load latency is the lowest load's, the delivered
flits are delivered_rate x 64 at the highest load, link utilization is read
at the highest load where every curve is stable; each scheme has a curve
alone and one beside background traffic (here saturating one load
sooner), and bad data is refused naming the file and the reason."""
import csv
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_checks import check, check_page_cycle, run_script  # noqa: E402

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "multicast_load.py")
COLS = ["background.load", "traffic.load", "traffic.scheme", "traffic.r", "routing.function",
        "metrics.multicast.latency_cycles.mean.mean", "metrics.multicast.latency_cycles.mean.ci95",
        "metrics.multicast.mean_latency_cycles.mean.mean", "metrics.saturated.mean",
        "metrics.multicast.delivered_rate.mean", "metrics.link_utilization.max.mean",
        "metrics.link_utilization.mean.mean"]
LOADS = [0.002, 0.005, 0.01, 0.02]
# scheme, r, routing, index of its first saturated load (len: none), a later stable load
SCHEMES = [("storus", "0", "utpr", 2, False), ("mdtorus", "0", "utpr", 1, True), ("mutorus", "8", "utpr", 4, False),
           ("mutorus", "2", "utpr", 0, False), ("utorus", "0", "utr", 3, False)]


def write_summary(d, sweep, rows):
    """DIR/<sweep>_summary.csv of a sweep without traffic.r and routing.function columns."""
    path = os.path.join(d, f"{sweep}_summary.csv")
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([c for c in COLS if c not in ("traffic.r", "routing.function")])
        w.writerows(rows)
    return path


def write_fat_tree(d):
    """cyclic and opensm stable up to 0.05 (saturated from 0.06), unicast from 0.02; beside
    background 0.2, each from one load sooner."""
    rows = [[bg, load, s, 1000 * (k + 1) + i, 10, 900 * (k + 1), 1 if i >= first_sat - sooner else 0,
             0.01 * (i + 1), 0.2 + i / 10, 0.02]
            for bg, sooner in ((0, 0), (0.2, 1))
            for k, (s, first_sat) in enumerate([("cyclic", 2), ("opensm", 2), ("unicast", 1)])
            for i, load in enumerate([0.01, 0.05, 0.06])]
    return write_summary(d, "fat_tree_multicast_load", rows)


def write_hypercube(d):
    """U-cube saturated from 0.03, the others stable at every load; beside background 0.1, W-sort
    from 0.05."""
    rows = [[bg, load, s, 300 + 10 * k + i, 5, 200 + k,
             1 if i >= (1 if s == "ucube" else 2 if (s == "wsort" and bg) else 9) else 0, 0.008 * (i + 1), 0.3, 0.1]
            for bg in (0, 0.1)
            for k, s in enumerate(["ucube", "maxport", "combine", "wsort"])
            for i, load in enumerate([0.01, 0.03, 0.05])]
    return write_summary(d, "hypercube_multicast_load", rows)


def write_sci(d):
    """Every SCI scheme saturated from 0.02 (x 5: 0.1), beside background 0.05 from 0.01."""
    rows = [[bg, load, s, 2000 + 100 * k + i, 50, 1500 + k, 1 if i >= (1 if bg else 2) else 0,
             0.001 * (i + 1), 0.4, 0.2]
            for bg in (0, 0.05)
            for k, s in enumerate(["sci-separate", "sci-utorus", "sci-storus", "sci-mdtorus", "sci-mutorus"])
            for i, load in enumerate([0.005, 0.01, 0.02])]
    return write_summary(d, "sci_torus_multicast_load", rows)


def write(d, drop=None, blank_column=None, backgrounds=(0, 0.01)):
    """Each scheme alone (background 0) and beside background 0.01, where it saturates one load
    sooner and costs 50 cycles more."""
    write_fat_tree(d)
    write_hypercube(d)
    write_sci(d)
    path = os.path.join(d, "torus_multicast_load_summary.csv")
    with open(path, "w", newline="") as f:
        w = csv.writer(f)
        w.writerow([c for c in COLS if c != blank_column])
        for bg in backgrounds:
            sooner = 1 if bg else 0
            for k, (s, r, routing, first_sat, noise) in enumerate(SCHEMES):
                if s == drop:
                    continue
                for i, load in enumerate(LOADS):
                    # saturated from first_sat on; mdtorus has a stable run after it (noise)
                    sat = 1 if i >= first_sat - sooner and not (noise and i == 3) else 0
                    row = [bg, load, s, r, routing, 100 * (k + 1) + i + 50 * sooner, 5, 80 * (k + 1) + i, sat,
                           0.001 * (k + 1) * (i + 1), 0.1 * (k + 1) + 0.01 * i, 0.05 * (k + 1)]
                    w.writerow([v for c, v in zip(COLS, row) if c != blank_column])
    return path


def row(out, name, background):
    """The cells of scheme `name`'s row at `background`."""
    for line in out.splitlines():
        c = [x.strip() for x in line.strip("|").split("|")]
        if line.startswith("| ") and len(c) > 2 and c[0].split(",")[0] == name and c[2] == background:
            return c
    raise AssertionError(f"no row of {name} at background {background}:\n{out}")


def main():
    with tempfile.TemporaryDirectory() as d:
        write(d)
        rc, out, err = run_script(SCRIPT, "--data", d)
        check(rc == 0, f"the table ({err})")
        # S-torus: stable at 0.002, 0.005, saturated at 0.01 -> between 8 x 0.005 and 8 x 0.01
        c = row(out, "S-torus", "0")
        check(c[1] == "utpr" and c[3].startswith("100 / 80 (load 0.016)"), f"S-torus zero load: {c}")
        check(c[4] == "0.040 - 0.080", f"S-torus saturation: {c}")
        check(c[5] == "0.256 of 0.160 offered", f"S-torus delivered at the top load: {c}")   # 0.004 x 64
        c = row(out, "S-torus", "0.01")
        check(c[3].startswith("150 / 80") and c[4] == "0.016 - 0.040", f"S-torus beside the background: {c}")
        check(row(out, "M_d-torus", "0")[4] == "0.016 - 0.040", "a stable run after the first saturated load does not count")
        check(row(out, "M_u-torus(8)", "0")[4] == "above 0.160", "never saturated: above the grid")
        check(row(out, "M_u-torus(8)", "0.01")[4] == "0.080 - 0.160", "beside the background: within the grid")
        check(row(out, "M_u-torus(2)", "0")[4] == "below 0.016", "saturated at the lowest load: below the grid")
        # M_u-torus(2) is never stable: no load where every scheme is
        check("link utilization at none" in out and row(out, "U-torus", "0")[6] == "-", f"no common stable load: {out}")
    with tempfile.TemporaryDirectory() as d:
        global SCHEMES
        SCHEMES = [(s, r, g, max(f, 3), n) for s, r, g, f, n in SCHEMES]   # all stable at 0.002, 0.005
        write(d)
        rc, out, err = run_script(SCRIPT, "--data", d)
        check("link utilization at 0.040" in out, f"the highest common stable load: {out}")
        check(row(out, "U-torus", "0")[6] == "0.510 / 0.250", f"U-torus links at 0.005: {row(out, 'U-torus', '0')}")
        # the fat tree: loads as traffic.load, delivered as member bytes (x 256)
        check(row(out, "cyclic", "0")[4] == "0.050 - 0.060", f"cyclic saturation: {row(out, 'cyclic', '0')}")
        check(row(out, "cyclic", "0.2")[4] == "0.010 - 0.050", f"cyclic beside background: {row(out, 'cyclic', '0.2')}")
        check(row(out, "unicast", "0")[4] == "0.010 - 0.050", f"unicast saturation: {row(out, 'unicast', '0')}")
        check(row(out, "unicast", "0.2")[4] == "below 0.010", "unicast beside background: below the grid")
        check(row(out, "opensm", "0")[5] == "7.680 (offered 0.060 per sender)", f"opensm delivered: {row(out, 'opensm', '0')}")
        check(row(out, "opensm", "0")[1] == "-", "no routing column on the fat tree")
        # the hypercube: effective loads (x 8), delivered flits per node (x 64)
        check(row(out, "U-cube", "0")[4] == "0.080 - 0.240", f"U-cube saturation: {row(out, 'U-cube', '0')}")
        check(row(out, "W-sort", "0")[4] == "above 0.400", f"W-sort alone: {row(out, 'W-sort', '0')}")
        check(row(out, "W-sort", "0.1")[4] == "0.240 - 0.400", f"W-sort beside background: {row(out, 'W-sort', '0.1')}")
        check(row(out, "Maxport", "0")[5] == "1.536 of 0.400 offered", f"Maxport delivered: {row(out, 'Maxport', '0')}")
        # the SCI torus: effective loads (x 5), delivered bytes per host (x 256)
        check(row(out, "separate", "0")[4] == "0.050 - 0.100", f"SCI separate: {row(out, 'separate', '0')}")
        check(row(out, "M_u-torus(4)", "0.05")[4] == "0.025 - 0.050", f"SCI M_u-torus(4): {row(out, 'M_u-torus(4)', '0.05')}")
        check(row(out, "separate", "0")[5] == "0.768 of 0.100 offered", f"SCI delivered: {row(out, 'separate', '0')}")
        page = os.path.join(d, "page.md")
        with open(page, "w") as f:
            f.write("# p\n<!-- multicast_load.py torus: begin (generated; do not edit) -->\nold\n"
                    "<!-- multicast_load.py torus: end -->\n<!-- multicast_load.py hypercube: begin (generated; do "
                    "not edit) -->\n<!-- multicast_load.py hypercube: end -->\n<!-- multicast_load.py sci_torus: "
                    "begin (generated; do not edit) -->\n<!-- multicast_load.py sci_torus: end -->\n"
                    "<!-- multicast_load.py fat_tree: "
                    "begin (generated; do not edit) -->\n<!-- multicast_load.py fat_tree: end -->\ntail\n")
        check_page_cycle(SCRIPT, d, page)
        rc, _, err = run_script(SCRIPT, "--data", d, "--save", os.path.join(d, "saved"))
        check(rc == 0 and all(os.path.exists(os.path.join(d, "saved", f"{n}_multicast_load_summary.csv"))
                              for n in ("torus", "hypercube", "sci_torus", "fat_tree")), f"--save ({err})")
    with tempfile.TemporaryDirectory() as d:
        path = write(d, drop="utorus")
        rc, _, err = run_script(SCRIPT, "--data", d)
        check(rc == 1 and path in err and "no rows of U-torus" in err, f"a missing scheme is refused: {err}")
    with tempfile.TemporaryDirectory() as d:
        path = write(d, backgrounds=(0,))
        rc, _, err = run_script(SCRIPT, "--data", d)
        check(rc == 1 and path in err and "no rows of S-torus at background.load 0.01" in err,
              f"a missing background curve is refused: {err}")
    with tempfile.TemporaryDirectory() as d:
        path = write(d, backgrounds=(0, 0.01, 0.5))
        rc, _, err = run_script(SCRIPT, "--data", d)
        check(rc == 1 and path in err and "background.load 0.5 is not one of the sweep's" in err,
              f"an unknown background is refused: {err}")
    with tempfile.TemporaryDirectory() as d:
        path = write(d, blank_column="metrics.saturated.mean")
        rc, _, err = run_script(SCRIPT, "--data", d)
        check(rc == 1 and "no column metrics.saturated.mean" in err, f"a missing column is refused: {err}")
    with tempfile.TemporaryDirectory() as d:
        write(d)
        os.remove(os.path.join(d, "fat_tree_multicast_load_summary.csv"))
        rc, _, err = run_script(SCRIPT, "--data", d)
        check(rc == 1 and "is missing: run experiments/load/sweeps/fat_tree_multicast_load.yaml" in err,
              f"no fat-tree summary: {err}")
    with tempfile.TemporaryDirectory() as d:
        rc, _, err = run_script(SCRIPT, "--data", d)
        check(rc == 1 and "is missing: run experiments/load/sweeps/torus_multicast_load.yaml" in err,
              f"no summary: {err}")
    print("ok")


if __name__ == "__main__":
    main()
