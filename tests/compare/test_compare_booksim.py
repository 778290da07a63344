#!/usr/bin/env python3
"""Tests of scripts/compare_booksim.py: the BookSim2 configuration and wormcast
experiment it writes, the parsers of both simulators' output and the table.
BookSim2 itself is not needed. Run by ctest ("compare_booksim: ...") or
directly: python3 tests/compare/test_compare_booksim.py
"""

import os
import re
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import compare_booksim as cb  # noqa: E402


def settings(text):
    """BookSim2 'key = value;' lines -> dict (comments dropped)."""
    out = {}
    for line in text.splitlines():
        line = line.split("//", 1)[0].strip()
        if not line:
            continue
        m = re.fullmatch(r"(\w+)\s*=\s*(.*?);", line)
        assert m, f"not a BookSim2 setting: {line!r}"
        assert m.group(1) not in out, f"{m.group(1)} set twice"
        out[m.group(1)] = m.group(2)
    return out


BOOKSIM_LOG = """Warmed up ...Time used is 50000 cycles
Accepted flit rate average= 0.5
Draining all recorded packets ...
Time taken is 100543 cycles
====== Overall Traffic Statistics ======
====== Traffic class 0 ======
Packet latency average = 161.25 (1 samples)
\tminimum = 130 (1 samples)
Accepted flit rate average = 0.0199 (1 samples)
Hops average = 3.5 (1 samples)
Total run time 2.5
"""


class ConfigTest(unittest.TestCase):
    def test_default_comparison_settings(self):
        c = settings(cb.booksim_config("/x/net.anynet", 128, 0.02, 640, 50000, 50000))
        self.assertEqual(c["topology"], "anynet")
        self.assertEqual(c["network_file"], "/x/net.anynet")
        self.assertEqual(c["routing_function"], "min")
        self.assertEqual(c["traffic"], "uniform")
        self.assertEqual(c["injection_process"], "bernoulli")
        # load is flits/cycle/node as in wormcast, so BookSim must count flits
        self.assertEqual(c["injection_rate_uses_flits"], "1")
        self.assertEqual(float(c["injection_rate"]), 0.02)
        self.assertEqual(c["packet_size"], "128")
        self.assertEqual(int(c["num_vcs"]) * int(c["vc_buf_size"]), 640)
        self.assertEqual(c["num_vcs"], "1")
        # 50k warm-up + one 50k measured period
        self.assertEqual(c["sample_period"], "50000")
        self.assertEqual(c["warmup_periods"], "1")
        self.assertEqual(c["max_samples"], "2")
        self.assertEqual(c["latency_thres"], "-1.0")   # BookSim2 rejects an integer here
        self.assertEqual(c["sim_type"], "latency")

    def test_vcs_split_the_buffer(self):
        c = settings(cb.booksim_config("n", 128, 0.01, 640, 50000, 50000, num_vcs=4))
        self.assertEqual((c["num_vcs"], c["vc_buf_size"]), ("4", "160"))

    def test_longer_warmup_is_whole_periods(self):
        c = settings(cb.booksim_config("n", 16, 0.1, 64, 100000, 50000))
        self.assertEqual((c["warmup_periods"], c["max_samples"]), ("2", "3"))

    def test_refusals(self):
        with self.assertRaisesRegex(cb.CompareError, "equal VCs"):
            cb.booksim_config("n", 128, 0.01, 640, 50000, 50000, num_vcs=3)
        with self.assertRaisesRegex(cb.CompareError, "whole number"):
            cb.booksim_config("n", 128, 0.01, 640, 10000, 50000)
        with self.assertRaisesRegex(cb.CompareError, "load"):
            cb.booksim_config("n", 128, 0, 640, 50000, 50000)
        with self.assertRaisesRegex(cb.CompareError, "packet size"):
            cb.booksim_config("n", 0, 0.01, 640, 50000, 50000)

    def test_wormcast_experiment(self):
        text = cb.wormcast_experiment("n32_load0.02", "/t/n32.yaml", 128, 0.02, 640, 50000, 50000)
        for line in ["name: n32_load0.02", "  kind: file", '  file: "/t/n32.yaml"',
                     "  buffer: 640flits", "  pattern: uniform", "  process: bernoulli",
                     "  load: 0.02", "  packet_size: 128flits", "  warmup: 50000",
                     "  measure: 50000"]:
            self.assertIn(line + "\n", text)


class ParseTest(unittest.TestCase):
    def test_booksim_log(self):
        r = cb.parse_booksim(BOOKSIM_LOG, nodes=32)
        self.assertEqual(r["cycles"], 100543)
        self.assertAlmostEqual(r["cycles_per_second"], 100543 / 2.5)
        self.assertAlmostEqual(r["latency"], 161.25)
        # overall accepted rate (not the per-sample 0.5) x nodes x cycles x hops
        self.assertAlmostEqual(r["flit_hops_per_second"], 0.0199 * 32 * 100543 * 3.5 / 2.5)

    def test_booksim_unstable_or_truncated(self):
        with self.assertRaisesRegex(cb.CompareError, "unstable"):
            cb.parse_booksim("Simulation unstable, ending ...\nTotal run time 1\n", 4)
        with self.assertRaisesRegex(cb.CompareError, "Total run time"):
            cb.parse_booksim(BOOKSIM_LOG.replace("Total run time 2.5", ""), 4)

    def test_wormcast_json(self):
        r = cb.parse_wormcast({"performance": {"simulation_seconds": 0.5, "cycles_per_second": 2e5,
                                               "flit_hops_per_second": 4e6},
                               "metrics": {"latency_cycles": {"mean": 150.0}, "saturated": False}})
        self.assertEqual((r["flit_hops_per_second"], r["latency"], r["saturated"]), (4e6, 150.0, False))
        with self.assertRaisesRegex(cb.CompareError, "lacks"):
            cb.parse_wormcast({"performance": {}})

    def test_summary_and_table(self):
        def fig(cps, fhs, lat):
            return {"cycles_per_second": cps, "flit_hops_per_second": fhs, "latency": lat}
        pairs = [(fig(3e6, 6e6, 150), fig(1e5, 1e6, 160)),
                 (fig(2e6, 4e6, 152), fig(2e5, 2e6, 161)),
                 (fig(4e6, 8e6, 151), fig(1e5, 1e6, 162))]
        s = cb.summarize(pairs)
        self.assertEqual(s["n"], 3)
        self.assertEqual(s["w_fhs"], (4e6, 6e6))
        self.assertEqual(s["ratio"], (2.0, 6.0))     # pair by pair: 6, 2, 8
        self.assertEqual(s["b_lat"], 161)
        table = cb.format_table([("32 nodes / 8 sw", 0.02, s)])
        self.assertIn("| 32 nodes / 8 sw | 0.02 | 3 | 2 M / 3 M | 100 k / 100 k | 4 M / 6 M | "
                      "1 M / 1 M | 2.00 / 6.00 | 151.0 | 161.0 |", table)

    def test_count_nodes(self):
        self.assertEqual(cb.count_nodes("router 0 node 1 node 0 router 1\nrouter 1 node 2\n"), 3)


if __name__ == "__main__":
    unittest.main()
