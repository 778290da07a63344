#!/usr/bin/env python3
"""Tests of scripts/plot.py: the series it plots, the files it writes, and its
errors. Run by ctest ("plot: ...") or directly: python3 tests/plot/test_plot.py
"""

import json
import os
import subprocess
import sys
import tempfile
import unittest

PLOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts", "plot.py")

# A summary CSV as `wormcast sweep` writes it: two topology seeds, loads out
# of order in the file, one point without results (all its runs failed).
SUMMARY = """topology.seed,traffic.load,n,metrics.latency_cycles.mean.mean,metrics.latency_cycles.mean.ci95,metrics.latency_cycles.mean.std
2,0.05,3,160.5,4.25,1.7
1,0.05,3,150,3,1.2
1,0.01,3,140,2.5,1
2,0.01,3,141,2,0.8
1,0.1,3,220.25,10,4
2,0.1,0,,,
"""


class PlotTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="wormcast_test_plot_")
        self.dir = self.tmp.name
        self.csv = self.write("summary.csv", SUMMARY)

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = os.path.join(self.dir, name)
        with open(path, "w") as f:
            f.write(text)
        return path

    def plot(self, *args):
        return subprocess.run([sys.executable, PLOT, *args], capture_output=True, text=True, timeout=120)

    def test_series_by_column_with_default_ci_error_bars_and_files(self):
        png = os.path.join(self.dir, "out", "lat.png")
        svg = os.path.join(self.dir, "out", "lat.svg")
        r = self.plot(self.csv, "--x", "traffic.load", "--y", "metrics.latency_cycles.mean.mean",
                      "--by", "topology.seed", "--title", "latency", "-o", png, "-o", svg, "--print-series")
        self.assertEqual(r.returncode, 0, r.stderr)
        series = json.loads(r.stdout)
        # One curve per --by value, in numeric order; points sorted by x; the
        # error bars are the .ci95 column; the empty row is skipped.
        self.assertEqual(list(series), ["topology.seed=1", "topology.seed=2"])
        self.assertEqual(series["topology.seed=1"], [[0.01, 140, 2.5], [0.05, 150, 3], [0.1, 220.25, 10]])
        self.assertEqual(series["topology.seed=2"], [[0.01, 141, 2], [0.05, 160.5, 4.25]])
        self.assertIn("skipped", r.stderr)
        with open(png, "rb") as f:
            data = f.read()
        self.assertEqual(data[:8], b"\x89PNG\r\n\x1a\n")
        self.assertGreater(len(data), 5000)
        with open(svg) as f:
            text = f.read()
        self.assertIn("<svg", text)
        self.assertIn("topology.seed=1", text)   # the legend
        self.assertIn("latency", text)           # the title
        # No creation date: redrawing unchanged data leaves the file unchanged.
        self.assertNotIn("<dc:date>", text)

    def test_by_two_columns(self):
        r = self.plot(self.csv, "--x", "traffic.load", "--y", "metrics.latency_cycles.mean.mean",
                      "--by", "topology.seed,n", "--no-err", "--print-series")
        self.assertEqual(r.returncode, 0, r.stderr)
        series = json.loads(r.stdout)
        # One curve per (seed, n) pair, in order of first appearance; the row without a value is skipped.
        self.assertEqual(list(series), ["topology.seed=2, n=3", "topology.seed=1, n=3"])
        self.assertEqual(series["topology.seed=1, n=3"], [[0.01, 140, None], [0.05, 150, None], [0.1, 220.25, None]])
        r = self.plot(self.csv, "--x", "traffic.load", "--y", "n", "--by", "topology.seed,nope", "--print-series")
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("--by nope: no such column", r.stderr)

    def test_explicit_err_no_err_and_no_by(self):
        r = self.plot(self.csv, "--x", "traffic.load", "--y", "metrics.latency_cycles.mean.mean",
                      "--err", "metrics.latency_cycles.mean.std", "--by", "topology.seed", "--print-series")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout)["topology.seed=1"][0], [0.01, 140, 1])
        r = self.plot(self.csv, "--x", "traffic.load", "--y", "metrics.latency_cycles.mean.mean",
                      "--no-err", "--by", "topology.seed", "--print-series")
        self.assertEqual(json.loads(r.stdout)["topology.seed=2"][1], [0.05, 160.5, None])
        # No --by: one series named after y (here with repeated x values).
        r = self.plot(self.csv, "--x", "traffic.load", "--y", "n", "--print-series", "--logx", "--logy",
                      "-o", os.path.join(self.dir, "n.png"))
        self.assertEqual(r.returncode, 0, r.stderr)
        series = json.loads(r.stdout)
        self.assertEqual(list(series), ["n"])
        self.assertEqual([p[0] for p in series["n"]], [0.01, 0.01, 0.05, 0.05, 0.1, 0.1])
        self.assertIsNone(series["n"][0][2])   # "n" does not end in .mean: no default error bars
        self.assertIn("same traffic.load", r.stderr)

    def test_sum_of_columns(self):
        # --y A+B: per row the sum, error bars the sum of the .ci95 columns.
        csv = self.write("sum.csv", "load,w.mean,w.ci95,l.mean,l.ci95\n0.1,10,1,100,4\n0.2,30,2,110,5\n0.3,,,120,6\n")
        r = self.plot(csv, "--x", "load", "--y", "w.mean+l.mean", "--print-series")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout), {"w.mean+l.mean": [[0.1, 110, 5], [0.2, 140, 7]]})
        self.assertIn("skipped", r.stderr)   # the row without a wait
        r = self.plot(csv, "--x", "load", "--y", "w.mean+nope.mean", "--print-series")
        self.assertEqual(r.returncode, 1)
        self.assertIn("--y nope.mean: no such column", r.stderr)

    def test_categorical_x(self):
        csv = self.write("cat.csv", "routing.selection,lat.mean,lat.ci95\nadaptive,10,1\ndeterministic,12,2\n")
        out = os.path.join(self.dir, "cat.svg")
        r = self.plot(csv, "--x", "routing.selection", "--y", "lat.mean", "-o", out, "--print-series")
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(json.loads(r.stdout), {"lat.mean": [["adaptive", 10, 1], ["deterministic", 12, 2]]})
        with open(out) as f:
            self.assertIn("deterministic", f.read())

    def test_errors(self):
        r = self.plot(os.path.join(self.dir, "absent.csv"), "--x", "a", "--y", "b", "-o",
                      os.path.join(self.dir, "x.png"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("absent.csv: file not found", r.stderr)
        r = self.plot(self.csv, "--x", "traffic.lod", "--y", "n", "-o", os.path.join(self.dir, "x.png"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("--x traffic.lod: no such column", r.stderr)
        r = self.plot(self.csv, "--x", "traffic.load", "--y", "n", "--by", "nope", "--print-series")
        self.assertEqual(r.returncode, 1)
        self.assertIn("--by nope: no such column", r.stderr)
        r = self.plot(self.csv, "--x", "traffic.load", "--y", "n", "--err", "nope.ci95", "--print-series")
        self.assertEqual(r.returncode, 1)
        self.assertIn("--err nope.ci95: no such column", r.stderr)
        bad = self.write("bad.csv", "x,y\n1,2\n2,abc\n")
        r = self.plot(bad, "--x", "x", "--y", "y", "--print-series")
        self.assertEqual(r.returncode, 1)
        self.assertIn("bad.csv:3: column y: 'abc' is not a number", r.stderr)
        r = self.plot(self.csv, "--x", "traffic.load", "--y", "n", "-o", os.path.join(self.dir, "x.nosuchformat"))
        self.assertEqual(r.returncode, 1)
        self.assertIn("cannot write", r.stderr)
        self.assertFalse(os.path.exists(os.path.join(self.dir, "x.png")))


if __name__ == "__main__":
    unittest.main(verbosity=2)
