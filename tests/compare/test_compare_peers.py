#!/usr/bin/env python3
"""Tests of scripts/compare_peers.py: the wormcast experiment, BookSim2, Noxim
and CNSim configurations it writes for a k x k mesh / torus, the parsers of
Noxim's and CNSim's output, the hop averages and the table. No peer binary
is needed. Run by ctest ("compare_peers: ...") or directly:
python3 tests/compare/test_compare_peers.py
"""

import configparser
import os
import re
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import compare_peers as cp  # noqa: E402
from test_compare_booksim import settings  # noqa: E402

# Shape of Noxim's output (GlobalStats::showStats with detailed: true,
# src/GlobalStats.cpp), numbers made up; 2x2 routers.
NOXIM_LOG = """Reset for 10 cycles...  done!
 Now running for 30000 cycles...
Noxim simulation completed. (30010 cycles executed)

detailed = [
   [0 0 0]
];

max_delay = [
       30    31
       32    33
];

routed_flits = [
       100       200
       300       400
];
% Total received packets: 150
% Total received flits: 1200
% Received/Ideal flits Ratio: 0.99
% Average wireless utilization: 0
% Global average delay (cycles): 21.5
% Max delay (cycles): 80
% Network throughput (flits/cycle): 0.06
"""

# Shape of CNSim's output (TrafficManager::print_statistics,
# src/traffic_manager.cpp): the first load, then the start of the next.
CNSIM_LOG = """Single Chip 2D-mesh, 8x8

Time elapsed: 0.25s
Injection rate:0.1 flits/(node*cycle)    Injected:2560    Arrived:  2550    Timeout:  0
Average latency: 18.5  Average receiving rate: 0.0996
Internal Hops: 5.3   Parallel Hops: 0   Serial Hops: 0   Other Hops: 0

Time elapsed: 9.5s
Injection rate:0.2 flits/(node*cycle)    Injected:5120    Arrived:  5000    Timeout:  0
Average latency: 99  Average receiving rate: 0.19
Internal Hops: 5.4   Parallel Hops: 0   Serial Hops: 0   Other Hops: 0
"""


def yaml_keys(text):
    """Top-level 'key: value' lines of a flat YAML text -> dict of strings."""
    out = {}
    for line in text.splitlines():
        m = re.fullmatch(r"(\w+):\s*(.*)", line)
        if m and m.group(2):
            assert m.group(1) not in out, f"{m.group(1)} twice"
            out[m.group(1)] = m.group(2)
    return out


class NetworkTest(unittest.TestCase):
    def test_parse_network(self):
        self.assertEqual(cp.parse_network("mesh:8x8"), ("mesh", 8))
        self.assertEqual(cp.parse_network("torus:4X4"), ("torus", 4))
        for bad in ("ring:8", "mesh:8x4", "hypercube:2x2", "mesh:1x1"):
            with self.assertRaises(cp.CompareError):
                cp.parse_network(bad)

    def test_mean_router_hops_by_enumeration(self):
        # 2x2 mesh: from one node the 3 others are 1, 1, 2 links away -> 4/3 links
        self.assertAlmostEqual(cp.mean_router_hops("mesh", 2), 4 / 3 + 1)
        # 8x8 mesh: mean |dx| over all pairs is (k^2-1)/(3k) = 63/24 per dimension;
        # without self-pairs x 4096/4032 -> 5.25 x 64/63 = 16/3 links
        self.assertAlmostEqual(cp.mean_router_hops("mesh", 8), 16 / 3 + 1)
        # 4x4 torus: ring distances 0,1,2,1 -> mean 1 per dimension, 2 over all
        # pairs, x 256/240 without self-pairs
        self.assertAlmostEqual(cp.mean_router_hops("torus", 4), 2 * 256 / 240 + 1)

    def test_unsupported(self):
        self.assertIn("no torus", cp.unsupported("noxim", "torus", 8, 8, 10, 20))
        self.assertIn("CLUE", cp.unsupported("cnsim", "torus", 8, 8, 10, 20))
        self.assertIn("whole packet", cp.unsupported("cnsim", "mesh", 4, 8, 10, 20))
        self.assertIn("2 x --warmup", cp.unsupported("cnsim", "mesh", 8, 8, 10, 30))
        self.assertIsNone(cp.unsupported("cnsim", "mesh", 20, 5, 10, 20))
        self.assertIsNone(cp.unsupported("booksim", "torus", 4, 8, 10, 30))
        self.assertIsNone(cp.unsupported("noxim", "mesh", 4, 8, 10, 30))


class WriterTest(unittest.TestCase):
    def test_wormcast_mesh_and_torus(self):
        m = cp.wormcast_direct_experiment("m", "mesh", 8, 8, 0.08, 4, 10000, 20000)
        for line in ["  kind: mesh", "  dims: [8, 8]", "  function: dor", "  buffer: 4flits",
                     "  pattern: uniform", "  process: bernoulli", "  load: 0.08",
                     "  packet_size: 8flits", "  warmup: 10000", "  measure: 20000"]:
            self.assertIn(line + "\n", m)
        self.assertRegex(m, r"\n  order: ascending +#")     # x first, as the peers' XY
        t = cp.wormcast_direct_experiment("t", "torus", 8, 5, 0.1, 20, 10000, 20000)
        for line in ["  kind: torus", "  direction: bidirectional", "  function: dateline",
                     "  vcs: 2", "  buffer: 20flits", "  packet_size: 5flits", "  load: 0.1"]:
            self.assertIn(line + "\n", t)
        self.assertIn("  vcs: 1\n", m)
        # the peers' VC counts: num_vcs on the mesh, two dateline classes of num_vcs on the torus
        self.assertEqual((cp.wormcast_vcs("mesh"), cp.wormcast_vcs("torus")), (1, 2))
        self.assertEqual((cp.wormcast_vcs("mesh", 2), cp.wormcast_vcs("torus", 2)), (2, 4))
        m2 = cp.wormcast_direct_experiment("m", "mesh", 8, 5, 0.1, 20, 10000, 20000, num_vcs=2)
        t2 = cp.wormcast_direct_experiment("t", "torus", 8, 5, 0.1, 20, 10000, 20000, num_vcs=2)
        self.assertIn("  vcs: 2\n", m2)
        self.assertIn("  vcs: 4\n", t2)
        self.assertNotIn("link_hold", m2)
        m3 = cp.wormcast_direct_experiment("m", "mesh", 8, 5, 0.1, 20, 10000, 20000, num_vcs=2,
                                           link_hold="packet")
        self.assertRegex(m3, r"\nrouter:\n(  .*\n)*  link_hold: packet +#")
        with self.assertRaisesRegex(cp.CompareError, "for meshes"):
            cp.wormcast_direct_experiment("t", "torus", 8, 5, 0.1, 20, 10000, 20000, link_hold="packet")
        # the same check, which main runs before any speed round
        self.assertIsNone(cp.check_link_hold("mesh", "packet"))
        self.assertIsNone(cp.check_link_hold("torus", "flit"))
        with self.assertRaisesRegex(cp.CompareError, "for meshes"):
            cp.check_link_hold("torus", "packet")
        with self.assertRaisesRegex(cp.CompareError, "flit or packet"):
            cp.check_link_hold("mesh", "worm")

    def test_curve_labels(self):
        # wormcast's two link policies are two curves of one CSV, in the simulators' order
        self.assertEqual(cp.curve_label("wormcast"), "wormcast")
        self.assertEqual(cp.curve_label("wormcast", "packet"), "wormcast (link per packet)")
        self.assertEqual(cp.curve_label("cnsim", "packet"), "CNSim")
        labels = ["CNSim", "wormcast (link per packet)", "Noxim", "wormcast"]
        self.assertEqual(sorted(labels, key=cp.curve_order),
                         ["wormcast", "wormcast (link per packet)", "Noxim", "CNSim"])

    def test_booksim_mesh(self):
        c = settings(cp.booksim_direct_config("mesh", 8, 8, 0.08, 4, 10000, 20000))
        self.assertEqual((c["topology"], c["k"], c["n"]), ("mesh", "8", "2"))
        self.assertEqual(c["routing_function"], "dim_order")
        self.assertEqual((c["num_vcs"], c["vc_buf_size"]), ("1", "4"))   # per VC
        self.assertEqual((c["traffic"], c["injection_process"]), ("uniform", "bernoulli"))
        self.assertEqual(c["injection_rate_uses_flits"], "1")
        self.assertEqual((float(c["injection_rate"]), c["packet_size"]), (0.08, "8"))
        # 10,000 warm-up + 20,000 measured: periods of 10,000, 1 warm-up, 3 in all
        self.assertEqual((c["sample_period"], c["warmup_periods"], c["max_samples"]),
                         ("10000", "1", "3"))

    def test_booksim_torus_vcs(self):
        # dim_order_torus splits the VCs in two dateline classes
        self.assertEqual(cp.booksim_vcs("torus", 1), 2)
        self.assertEqual(cp.booksim_vcs("mesh", 2), 2)
        c = settings(cp.booksim_direct_config("torus", 8, 8, 0.08, 4, 10000, 20000, num_vcs=2))
        self.assertEqual((c["topology"], c["num_vcs"], c["vc_buf_size"]), ("torus", "2", "4"))

    def test_booksim_windows(self):
        self.assertEqual(cp.cb.booksim_windows(50000, 50000), (50000, 1, 2))
        self.assertEqual(cp.cb.booksim_windows(20000, 30000), (10000, 2, 5))
        with self.assertRaisesRegex(cp.CompareError, "at most 3"):
            cp.cb.booksim_windows(10000, 40000)

    def test_noxim(self):
        c = yaml_keys(cp.noxim_config(8, 8, 0.08, 4, 10000, 20000, num_vcs=2))
        self.assertEqual((c["topology"], c["mesh_dim_x"], c["mesh_dim_y"]), ("MESH", "8", "8"))
        self.assertEqual((c["buffer_depth"], c["n_virtual_channels"]), ("4", "2"))
        self.assertEqual(c["routing_algorithm"], "XY")
        self.assertEqual((c["min_packet_size"], c["max_packet_size"]), ("8", "8"))
        # packets/cycle/node = flits/cycle/node / packet length, the same
        # probability after a draw: Bernoulli
        self.assertAlmostEqual(float(c["packet_injection_rate"]), 0.01)
        self.assertEqual(c["probability_of_retransmission"], c["packet_injection_rate"])
        self.assertEqual(c["traffic_distribution"], "TRAFFIC_RANDOM")
        self.assertEqual((c["stats_warm_up_time"], c["simulation_time"]), ("10000", "30000"))
        self.assertEqual((c["detailed"], c["use_winoc"]), ("true", "false"))
        with self.assertRaisesRegex(cp.CompareError, "load"):
            cp.noxim_config(8, 8, 1.5, 4, 10000, 20000)

    def test_noxim_power_row_for_other_depths(self):
        text = ("Energy:\n    Buffer:\n        - [4, 32, 2.27e-3, 7.62e-13, 0,  5.34e-13]\n"
                "        - [16, 32, 4.36e-3, 1.58e-12, 0, 1.41e-12 ] # interpolated\n"
                "        - [32, 16, 9.87e-3 , 1.70e-12, 0, 1.66e-12 ]\n"
                "    LinkBitLine:\n        - [20, 4.76e-7, 2.50e-14]\n")
        self.assertEqual(cp.noxim_power(text, 4), text)          # row exists
        out = cp.noxim_power(text, 8)                            # copies the 16 row
        self.assertIn("- [8, 32, 4.36e-3, 1.58e-12, 0, 1.41e-12 ]", out)
        self.assertEqual(out.count("- [16, 32"), 1)
        out = cp.noxim_power(text, 20)                           # none deeper: the deepest
        self.assertIn("- [20, 32, 4.36e-3, 1.58e-12, 0, 1.41e-12 ]", out)
        with self.assertRaisesRegex(cp.CompareError, "64-bit"):
            cp.noxim_power(text, 8, flit_size=64)

    def test_cnsim(self):
        ini = configparser.ConfigParser(inline_comment_prefixes=(";",))
        ini.read_string(cp.cnsim_config(8, 5, 0.1, 20, 10000, 20000, 2, "/w"))
        n, w, s = ini["Network"], ini["Workload"], ini["Simulation"]
        self.assertEqual((n["topology"], n["scale"], n["routing_algorithm"]),
                         ("SingleChipMesh", "8", "XY"))
        self.assertEqual((n["buffer_size"], n["vc_number"]), ("20", "2"))
        self.assertEqual((w["traffic"], w["packet_length"]), ("uniform", "5"))
        self.assertEqual(float(s["injection_increment"]), 0.1)   # the first load it runs
        self.assertEqual((s["simulation_time"], s["threads"]), ("20000", "1"))
        self.assertEqual(ini["Files"]["output_file"], "/w/cnsim_output.csv")
        with self.assertRaisesRegex(cp.CompareError, "whole packet"):
            cp.cnsim_config(8, 8, 0.08, 4, 10000, 20000, 1, "/w")


class ParseTest(unittest.TestCase):
    def test_noxim(self):
        r = cp.parse_noxim(NOXIM_LOG, seconds=2.0, cycles=30010, router_hops=4.0)
        self.assertAlmostEqual(r["latency"], 21.5)
        self.assertEqual((r["routed_flits"], r["received_flits"]), (1000, 1200))
        self.assertAlmostEqual(r["cycles_per_second"], 15005)
        # 3 links per packet: 2 counted transits -> 4 router traversals
        self.assertAlmostEqual(r["flit_hops_per_second"], 1000 * 4 / 2 / 2.0)
        with self.assertRaisesRegex(cp.CompareError, "routed_flits"):
            cp.parse_noxim(NOXIM_LOG.replace("routed_flits", "x"), 1, 1, 4)
        with self.assertRaisesRegex(cp.CompareError, "completed"):
            cp.parse_noxim("Reset for 10 cycles", 1, 1, 4)

    def test_cnsim_first_block_only(self):
        r = cp.parse_cnsim(CNSIM_LOG, packet_size=5, measure=20000)
        self.assertAlmostEqual(r["latency"], 18.5)
        self.assertAlmostEqual(r["cycles_per_second"], 20000 / 0.25)
        self.assertAlmostEqual(r["flit_hops_per_second"], 2550 * 5 * 6.3 / 0.25)
        with self.assertRaisesRegex(cp.CompareError, "Time elapsed"):
            cp.parse_cnsim("Single Chip 2D-mesh, 8x8\n", 5, 20000)

    def test_summary_and_table(self):
        def fig(cps, fhs, lat, cpu=None):
            return {"cycles_per_second": cps, "flit_hops_per_second": fhs, "latency": lat,
                    "cpu_cycles_per_second": cpu, "cpu_flit_hops_per_second": fhs * cpu / cps}
        rounds = [{"wormcast": fig(9e4, 6e6, 30, 1e5), "booksim": fig(3e4, 1e6, 40, 3e4)},
                  {"wormcast": fig(8e4, 4e6, 31, 2e5), "booksim": fig(2e4, 2e6, 41, 2e4)},
                  {"wormcast": fig(7e4, 8e6, 32, 3e5), "booksim": fig(1e4, 1e6, 42, 4e4)}]
        s = cp.summarize_rounds(rounds)
        self.assertEqual(s["booksim"]["ratio"], (2.0, 6.0))   # round by round: 6, 2, 8
        self.assertEqual(s["wormcast"]["cps"], (7e4, 8e4))
        self.assertEqual(s["booksim"]["cpu"], (2e4, 3e4))
        self.assertIsNone(s["wormcast"]["ratio"])
        # CPU-time flit-hops/s = flit-hops per cycle x cycles per CPU second:
        # wormcast 6.67e6, 1e7, 3.43e7; BookSim2 1e6, 2e6, 4e6 -> ratios 6.67, 5, 8.57
        self.assertAlmostEqual(s["booksim"]["cpu_ratio"][0], 5.0)
        self.assertAlmostEqual(s["booksim"]["cpu_ratio"][1], 6e6 / 9e4 * 1e5 / 1e6)
        t = cp.format_peer_table([("mesh 8x8", 0.08, s, {"noxim": "no torus"})])
        self.assertIn("| mesh 8x8 | 0.08 | BookSim2 | 3 | 10 k / 20 k | 20 k / 30 k | 1 M / 1 M | "
                      "1 M / 2 M | 41.0 | 2.00 / 6.00 | 5.00 / 6.67 |", t)
        self.assertIn("| mesh 8x8 | 0.08 | wormcast | 3 | 70 k / 80 k | 100 k / 200 k | "
                      "4 M / 6 M | 6.67 M / 10 M | 31.0 | — | — |", t)
        self.assertIn("| Noxim | 0 | — | — | — | — | — | — | not run: no torus |", t)


if __name__ == "__main__":
    unittest.main()
