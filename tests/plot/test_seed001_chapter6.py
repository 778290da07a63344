#!/usr/bin/env python3
"""scripts/seed001_chapter6.py on summaries written here with known shapes:
each verdict follows its stated predicate, claims without data under a
timing cannot be judged, and bad data is refused with the file and the
reason.

The shape: a scheme's average latency is 100 + c x m + P x L (c its path
cost per destination, P its phases, L the message length), 50 less at low
startup; the maximum is 100 more. In 3-D the path costs are halved and
M_d-torus has 3 phases. Link visits are a multiple of m per scheme."""
import csv
import os
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from script_checks import check, check_page_cycle, run_script  # noqa: E402
from script_checks import table_cells as cells  # noqa: E402

SCRIPT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "seed001_chapter6.py")
AVG = "metrics.multicast.mean_latency_cycles.mean.mean"
AVG_CI = "metrics.multicast.mean_latency_cycles.mean.ci95"
MAX = "metrics.multicast.latency_cycles.mean.mean"
LINKS = "metrics.multicast.plan_link_visits.mean.mean"
SCHEMES = [("storus", "0", "S"), ("mdtorus", "0", "Md"), ("mutorus", "8", "Mu8"), ("mutorus", "64", "Mu64"),
           ("mutorus", "2", "ub")]
PATH_COST = {"S": 4, "Md": 2, "Mu8": 1, "Mu64": 2, "ub": 0.5}
PHASES = {"S": 1, "Md": 2, "Mu8": 3, "Mu64": 2, "ub": 9}
LINK_COST = {"2-D": {"S": 2, "Md": 1.5, "Mu8": 2.5, "Mu64": 1.5, "ub": 3},
             "3-D": {"S": 2, "Md": 1.5, "Mu8": 2.5, "Mu64": 1.5, "ub": 2}}
M_AB = [16, 32, 64, 128, 256, 512]


def latency(s, m, size, low=False, three_d=False):
    phases = 3 if (three_d and s == "Md") else PHASES[s]
    a = 100 + PATH_COST[s] * (0.5 if three_d else 1) * m + phases * size - (50 if low else 0)
    return a, a + 100


def write(d, name, keys, rows, drop=None, blank=None):
    cols = keys + ["traffic.scheme", "traffic.r", AVG, AVG_CI, MAX, LINKS]
    with open(os.path.join(d, f"{name}_summary.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=cols, extrasaction="ignore")
        w.writeheader()
        for r in rows:
            if drop and all(str(r.get(k)) == str(v) for k, v in drop.items()):
                continue
            if blank and all(str(r.get(k)) == str(v) for k, v in blank.items()):
                r = dict(r, **{AVG: ""})
            w.writerow(r)


def point(scheme, r, lat, ci=0, **keys):
    return dict(keys, **{"traffic.scheme": scheme, "traffic.r": r, AVG: lat[0], AVG_CI: ci, MAX: lat[1], LINKS: 0})


def make(d, drop=None, blank=None, ci_63=0):
    """ci_63: the averages' CI in Fig. 6.3(a)/(b) (0 elsewhere)."""
    panels = {"fig6_3_2d_high": (False, False), "fig6_3_three_cycle_hops": (False, False),
              "fig6_4_2d_low": (True, False), "fig6_5_3d_high": (False, True), "fig6_6_3d_low": (True, True)}
    for name, (low, three_d) in panels.items():
        ci = ci_63 if name == "fig6_3_2d_high" else 0
        rows = [point(sc, r, latency(s, m, size, low, three_d), ci, **{"message.size": size, "traffic.set_size": m})
                for sc, r, s in SCHEMES for size in (8, 512) for m in M_AB]
        write(d, name, ["message.size", "traffic.set_size"], rows, drop if name == "fig6_5_3d_high" else None, blank)
    for name, (low, three_d) in {"fig6_3c_2d_high_long": (False, False), "fig6_4c_2d_low_long": (True, False),
                                 "fig6_5c_3d_high_long": (False, True), "fig6_6c_3d_low_long": (True, True)}.items():
        rows = [point(sc, r, latency(s, m, 16384, low, three_d), **{"traffic.set_size": m})
                for sc, r, s in SCHEMES for m in (16, 128, 512)]
        write(d, name, ["traffic.set_size"], rows)
    for name, low in {"fig6_7_2d_high_length": False, "fig6_7_2d_low_length": True}.items():
        rows = [point(sc, r, latency(s, 512, n, low), **{"message.size": n})
                for sc, r, s in SCHEMES for n in (8, 64, 256, 1024, 4096, 16384)]
        write(d, name, ["message.size"], rows)
    rows = []
    for net, dims in (("2-D", "[64, 64]"), ("3-D", "[16, 16, 16]")):
        for sc, r, s in SCHEMES:
            for m in M_AB:
                p = point(sc, r, (1, 1), **{"topology.dims": dims, "traffic.set_size": m})
                p[LINKS] = LINK_COST[net][s] * m
                rows.append(p)
    write(d, "fig6_8_link_visits", ["topology.dims", "traffic.set_size"], rows)


def run(*args):
    return run_script(SCRIPT, *args)


def main():
    with tempfile.TemporaryDirectory() as d:
        make(d)
        rc, out, err = run("--data", d)
        check(rc == 0, f"tables from good data ({err})")
        # 512 flits: S-torus 4m + 612 against unicast-based 0.5m + 4708: below at every m.
        c = cells(out, "6.3(b): path-based")
        check(c[1].startswith("agrees") and c[2].startswith("agrees"), f"6.3(b) under both timings: {c}")
        c = cells(out, "6.3(c): ... and at 16384")
        check(c[1].startswith("agrees")
              and c[2] == "cannot be judged (Fig. 6.3 at 16384 flits not run with the 3-cycle router)", f"6.3(c): {c}")
        # 8 flits, m = 512: S-torus 2156 against unicast-based 428.
        check(cells(out, "6.3(a): \"except")[1] == "agrees (above unicast-based at 8 flits: S-torus, M_d-torus, "
                                                   "M_u-torus(8), M_u-torus(64))", "the small-message exception")
        # M_u-torus(8) / unicast-based at 8 flits: 140/180 = 0.78 at m = 16, 636/428 = 1.49 at m = 512.
        check(cells(out, "6.3(a): even")[1] == "differs (M_u-torus(8) / unicast-based 0.78-1.49)",
              f"M_u-torus(8) much better: {cells(out, '6.3(a): even')}")
        # Growth from 8 to 512 flits is 504 P: 504, 1512, 4536.
        check(cells(out, "6.3: longer")[1] == "agrees (8 to 512 flits at m = 512: +504 (S-torus), +1512 "
                                              "(M_u-torus(8)), +4536 (unicast-based); ordered at every m)",
              f"fewer phases: {cells(out, '6.3: longer')}")
        check(cells(out, "6.3: M_u-torus(8) best")[1].startswith("differs (8 flits: not lowest at m = "),
              "M_u-torus(8) not the lowest at 8 flits")
        # 16384 flits, m = 512: S-torus 18532, M_d-torus 33892: 45 % below.
        c = cells(out, "6.3(c): S-torus best")
        check(c[1] == "agrees (16384 flits: lowest or level at every m, 45 % below the next at m = 512)",
              f"S-torus best: {c}")
        # Low startup, 8 flits: unicast-based / M_u-torus(8) 130/90 = 1.44 at m = 16, 378/586 = 0.65 at m = 512.
        check(cells(out, "6.4(a)")[1] == "differs (unicast-based / M_u-torus(8) 0.65-1.44)", "unicast-based ~ M_u(8)")
        check(cells(out, "6.4(b), (c)")[1].startswith("agrees (512 flits: 2.34-"), "unicast-based poor")
        # m = 512. 512 flits: 2-D S-torus 2660 above M_d-torus = M_u-torus(8) = M_u-torus(64) = 2148; 3-D S-torus
        # 1636 = M_u-torus(64), below M_u-torus(8) 1892 and M_d-torus 2148. 16384 flits: 2-D M_d-torus 33892
        # below M_u-torus(8) 49764; 3-D M_d-torus (3 phases) 49764 above M_u-torus(8) 49508.
        check(cells(out, "6.5: similar")[1] == "differs (512 flits: 2-D orders reversed in 3-D: M_d-torus < S-torus, "
              "M_u-torus(8) < S-torus; 16384 flits: 2-D orders reversed in 3-D: M_d-torus < M_u-torus(8))",
              f"3-D order: {cells(out, '6.5: similar')}")
        # M_d-torus at 16384 flits: 3 phases in 3-D (49764) against 2 in 2-D (33892): slower.
        c = cells(out, "6.5: S-torus, M_d")
        check(c[1].startswith("differs (S-torus/M_d/M_u(64) faster in 3-D at m = 512 by: 8 flits ")
              and "16384 flits " in c[1] and "/-47 %/" in c[1], f"M_d-torus slower in 3-D at 16384 flits: {c}")
        check(cells(out, "6.6: as 6.5 (the three")[1].startswith("differs"), "6.6 as 6.5")
        c = cells(out, "6.7(a)")
        check(c[1] == "agrees (maximum latency per added flit 1.00, 2.00, 3.00, 2.00, 9.00 (phases 1, 2, 3, 2, 9))"
              and c[2] == "cannot be judged (Fig. 6.7 not run with the 3-cycle router)", f"length sensitivity: {c}")
        # Link visits: 3-D M_u-torus(8) 2.5 m against unicast-based 2 m.
        c = cells(out, "6.8: path-based")
        check(c[1] == "differs (2-D: 1.2-2.0x fewer at m = 512; 3-D: 0.8-1.3x fewer at m = 512, "
                      "not at m = 16, 32, 64, 128, 256, 512)"
              and c[2] == "cannot be judged (link visits are the plan's: no timing)", f"fewer links: {c}")
        check(cells(out, "6.8: \"especially")[1].startswith("agrees"), "especially in 2-D")
        check("| S-torus | 612 / 1124 / 2660 |" not in out and "| S-torus | 172 / 620 / 2156 | 676 / 1124 / 2660 | "
              "16548 / 16996 / 18532 |" in out, "the Fig. 6.3 latency table")
        # 100 + 0.5 m (0.25 m in 3-D) + 9 L - 50, and 100 more.
        check("| unicast-based | 147862 = 9 × 16384 + 406 | 147734 = 9 × 16384 + 278 |" in out,
              "the maximum's phases and rest")

        page = os.path.join(d, "page.md")
        with open(page, "w") as f:
            f.write("head\n<!-- seed001_chapter6.py verdicts: begin (generated; do not edit) -->\nold\n"
                    "<!-- seed001_chapter6.py verdicts: end -->\nmiddle\n"
                    "<!-- seed001_chapter6.py tables: begin (generated; do not edit) -->\n"
                    "<!-- seed001_chapter6.py tables: end -->\ntail\n")
        check_page_cycle(SCRIPT, d, page)
        text = open(page).read()
        check(text.startswith("head\n") and "\nmiddle\n" in text and text.endswith("tail\n") and "old" not in text,
              "only the blocks are replaced")
        saved = os.path.join(d, "saved")
        rc, _, err = run("--data", d, "--save", saved)
        check(rc == 0 and len(os.listdir(saved)) == 12, f"--save writes the 12 summaries ({err})")
        rc, out2, _ = run("--data", saved)
        check(rc == 0 and out2 == out, "the saved columns give the same tables")

    with tempfile.TemporaryDirectory() as d:
        # Overlapping CIs make a tie: at 8 flits and m = 512 M_u-torus(8) (636) is 208 above unicast-based (428);
        # with CIs of 104 each they touch, and at 512 flits (at most 1124 between them, m = 16) CIs of 600 overlap.
        make(d, ci_63=104)
        rc, out, _ = run("--data", d)
        check(cells(out, "6.3: M_u-torus(8) best")[1].startswith("differs (8 flits: lowest or level at every m, "
                                                                  "49 % above the lowest, within the CIs at m = 512"),
              f"level within the CIs at 8 flits: {cells(out, '6.3: M_u-torus(8) best')}")
        make(d, ci_63=600)
        rc, out, _ = run("--data", d)
        check(cells(out, "6.3: M_u-torus(8) best")[1].startswith("agrees"), "level within the CIs at every point")
        # 2-D S-torus 2660 and the others 2148 at 512 flits, CIs of 600: no order beyond them, none reversed.
        check(cells(out, "6.5: similar")[1].startswith("differs (512 flits: no pair reversed; 16384 flits: 2-D"),
              f"orders within the CIs do not count: {cells(out, '6.5: similar')}")

    with tempfile.TemporaryDirectory() as d:
        rc, _, err = run("--data", d)
        check(rc == 1 and "fig6_3_2d_high_summary.csv is missing: run experiments/seed001/sweeps/fig6_3_2d_high.yaml"
              in err, f"a missing sweep ({err})")
        make(d, drop={"traffic.scheme": "mdtorus", "message.size": 512, "traffic.set_size": 128})
        rc, _, err = run("--data", d)
        check(rc == 1 and "fig6_5_3d_high_summary.csv: no point M_d-torus 512 128" in err, f"a missing point ({err})")
        make(d, blank={"traffic.scheme": "storus", "message.size": 8, "traffic.set_size": 16})
        rc, _, err = run("--data", d)
        check(rc == 1 and "fig6_3_2d_high_summary.csv:2: a point without results (" + AVG + ")" in err,
              f"a point without results ({err})")
    print("ok")


if __name__ == "__main__":
    main()
