#!/usr/bin/env python3
"""scripts/seed004_sensitivity.py on summaries written here with known
shapes: each verdict follows its stated predicate under each group choice
and root reading, and bad data is refused with the file and the reason."""
import csv
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_checks import check, check_page_cycle, run_script  # noqa: E402
from script_checks import table_cells as cells  # noqa: E402

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "seed004_sensitivity.py")
LAT = "metrics.multicast.latency_cycles.mean_us.mean"
ROOT = "metrics.multicast.root_busy_cycles.mean_us.mean"
D = [4, 6, 8, 10, 12, 14, 16]
NAMES = {"random": "", "fixed": "_fixed"}


def shape(groups, scheme, d):
    """(latency, root busy): S-torus a chain (latency 2d, root one send), separate addressing
    linear and fastest with random groups, U-torus flat; with fixed groups U-torus beats separate."""
    lat = {"sci-separate": 0.5 * d, "sci-utorus": 9.0 if groups == "random" else 1.0, "sci-storus": 2.0 * d + 8,
           "sci-mdtorus": 10.0, "sci-mutorus": 10.5}[scheme]
    root = {"sci-separate": 0.5 * d, "sci-storus": 1.0}.get(scheme, 1.5)
    return lat, root


def write(d, groups, size, drop=None, columns=None):
    name = f"seed004_fig2_{'small' if size == 2 else 'large'}{NAMES[groups]}"
    rows = []
    for s in ["sci-separate", "sci-utorus", "sci-storus", "sci-mdtorus", "sci-mutorus"]:
        for n in D:
            if (s, n) == drop:
                continue
            lat, root = shape(groups, s, n)
            rows.append({"traffic.scheme": s, "traffic.set_size": n, LAT: lat, ROOT: root})
    with open(os.path.join(d, f"{name}_summary.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=columns or list(rows[0].keys()), extrasaction="ignore")
        w.writeheader()
        w.writerows(rows)


def make(d, **bad):
    for g in NAMES:
        for size in (2, 524288):
            write(d, g, size, **(bad if (g, size) == ("fixed", 524288) else {}))


def run(*args):
    return run_script(SCRIPT, *args)


def main():
    with tempfile.TemporaryDirectory() as d:
        make(d)
        rc, out, err = run("--data", d)
        check(rc == 0, f"tables from good data ({err})")
        fig2_random = cells(out, "random groups")
        check(fig2_random[1].startswith("agrees (S-torus 16/20/24"), f"S-torus worst: {fig2_random[1]}")
        check(fig2_random[2].startswith("agrees"), f"separate best with random groups: {fig2_random[2]}")
        check(fig2_random[3] == "agrees (1.00x)", f"U-torus flat: {fig2_random[3]}")
        check(fig2_random[4] == "agrees (largest gap 5 %)", f"M_d ~ M_u: {fig2_random[4]}")
        check(fig2_random[5] == "agrees (R^2 1.000)", f"separate linear: {fig2_random[5]}")
        check(fig2_random[7].startswith("differs (M_d / best other at d = 16: 1.25"), f"M_d not best: {fig2_random[7]}")
        check(fig2_random[8] == "agrees (M_u/M_d 1.050/1.050)", f"M_u above M_d: {fig2_random[8]}")
        fig2_fixed = cells(out, "fixed groups")
        check(fig2_fixed[2].startswith("differs"), f"separate not best with fixed groups: {fig2_fixed[2]}")
        fig3 = [l for l in out.splitlines() if l.startswith("| random groups") and "| until" in l]
        own, done = ([c.strip() for c in l.strip("|").split("|")] for l in fig3)
        check(own[1] == "until its own sends are delivered" and own[2] == "agrees (1/1/1/1/1/1/1 us)",
              f"S-torus root constant: {own}")
        check(done[1] == "until the multicast completes" and done[2] == "differs (16/20/24/28/32/36/40 us)",
              f"polling until completion: S-torus's root time is its latency, not constant: {done}")
        check(own[6] == "differs (1.00x)" and done[6] == "agrees (2.50x)", f"3(b) S-torus rises only under completion")

        page = os.path.join(d, "page.md")
        open(page, "w").write("a\n<!-- seed004_sensitivity.py: begin (generated; do not edit) -->\nold\n"
                              "<!-- seed004_sensitivity.py: end -->\nb\n")
        check_page_cycle(SCRIPT, d, page)

    with tempfile.TemporaryDirectory() as d:
        make(d, drop=("sci-mdtorus", 12))
        rc, _, err = run("--data", d)
        check(rc == 1 and "seed004_fig2_large_fixed_summary.csv: no point sci-mdtorus at d = 12" in err,
              f"missing point: {err}")
        make(d, columns=["traffic.scheme", "traffic.set_size", LAT])
        rc, _, err = run("--data", d)
        check(rc == 1 and f"no column {ROOT}" in err, f"missing column: {err}")
        os.remove(os.path.join(d, "seed004_fig2_small_summary.csv"))
        rc, _, err = run("--data", d)
        check(rc == 1 and "seed004_fig2_small_summary.csv is missing: run experiments/seed004/sweeps/fig2_small.yaml"
              in err, f"missing file: {err}")
    print("ok")


if __name__ == "__main__":
    main()
