#!/usr/bin/env python3
"""Seeded differential soak of the speed-only switches (docs/testing.md).

Draws random experiments (direct networks with endpoint or processor nodes,
irregular switch networks with endpoint nodes: topology, routing, VCs,
buffers, delays, link sharing, traffic pattern, load from light to
saturated, packet size, windows, seed) and runs each three times with the
real binary: as drawn, with sim.streams=off and with sim.run_ahead=off; a
direct-network case runs a fourth time with router.impl=reference, the
plainly written reference router (rtl_models/direct/reference_router.h)
instead of the fast one. All three switches change only how a run is
computed, so every result must be identical: scripts/compare_results.py
compares the JSON and CSV files (timings and the "how" fields excepted:
sim.streams, sim.run_ahead, router.impl), and the exit status and error text must be
equal. The fixed cases of scripts/regression_runs.sh compare
one binary with an older one; this compares one binary's fast paths with
its own per-flit, per-cycle oracle on configurations nobody chose by hand.

Deterministic: the seed fixes every case. A differing case keeps its three
result folders in the --keep directory (default: a temporary one, printed)
and prints its --set list, so it can be rerun by hand.

Usage: oracle_soak.py --wormcast BUILD/wormcast --source SRC [--cases N]
       [--seed S] [--jobs J] [--timeout SECONDS] [--case ID] [--keep DIR]
"""
import argparse
import concurrent.futures
import os
import random
import shutil
import subprocess
import sys
import tempfile

from fuzz_common import checked_paths, SANITIZER_MARKS, add_common_arguments, sanitizer_env

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "scripts"))
import compare_results  # noqa: E402  (scripts/compare_results.py)

# VC classes per routing function (docs/direct_networks.md): router.vcs must
# be 0 or a multiple of these.
CLASSES = {"dor": 1, "ecube": 1, "utr": 2, "utpr": 2, "btr": 3, "dateline": 2}
VARIANTS = [("base", None), ("streams_off", "sim.streams=off"), ("run_ahead_off", "sim.run_ahead=off")]
# Direct networks only: the reference router against the fast one.
DIRECT_VARIANTS = VARIANTS + [("reference", "router.impl=reference")]
DIRECT_EXPERIMENT = "experiments/direct_mesh_8x8.yaml"


def windows(rng, s, warmups, measures, drain_limit, watchdog=None):
  """The run's warm-up and measurement windows, drawn, and its limits."""
  s["sim.warmup"] = str(rng.choice(warmups))
  s["sim.measure"] = str(rng.choice(measures))
  s["sim.drain_limit"] = str(drain_limit)
  if watchdog is not None:
    s["sim.watchdog"] = str(watchdog)


# Short windows and a drain limit that flags a backlog quickly; a watchdog
# shorter than the default, so that a deadlock (none is expected) ends the
# run soon.
def network_windows(rng, s):
  windows(rng, s, [0, 300, 1000], [1000, 3000, 6000], 20000, 4000)


def square(n):
  r = int(round(n ** 0.5))
  return r * r == n


def direct_network(rng, s):
  """Topology and routing of a direct network; returns the node count."""
  kind = rng.choice(["mesh", "torus_uni", "torus_bi", "hypercube"])
  if kind == "hypercube":
    n = rng.randint(2, 6)
    s["topology.kind"] = "hypercube"
    s["topology.dims"] = "x".join(["2"] * n)
    s["routing.function"] = "ecube"
    nodes = 2 ** n
  else:
    nd = rng.choice([1, 2, 2, 2, 3])
    ks = [rng.randint(2, 5) if nd == 3 else rng.randint(2, 9) for _ in range(nd)]
    if rng.random() < 0.6:
      ks = [ks[0]] * nd
    s["topology.dims"] = "x".join(map(str, ks))
    nodes = 1
    for k in ks:
      nodes *= k
    if kind == "mesh":
      s["topology.kind"] = "mesh"
      s["routing.function"] = "dor"
    else:
      s["topology.kind"] = "torus"
      s["topology.direction"] = "unidirectional" if kind == "torus_uni" else "bidirectional"
      if kind == "torus_uni":
        s["routing.function"] = rng.choice(["utr", "utpr"] if len(set(ks)) == 1 else ["utr"])
      else:
        s["routing.function"] = rng.choice(["btr", "dateline"])
        if rng.random() < 0.2:
          s["router.link_sharing"] = "bidirectional"
  routing = s["routing.function"]
  if routing != "utpr" and rng.random() < 0.5:
    s["routing.order"] = rng.choice(["ascending", "descending"])
  s["router.vcs"] = str(rng.choice([0, 1, 1, 2, 3]) * CLASSES[routing])
  s["router.buffer"] = "%dflits" % rng.choice([1, 1, 2, 3, 4, 8, 20])
  s["router.route_delay"] = str(rng.choice([0, 1, 1, 2, 3]))   # 0: flits readable in their arrival cycle
  s["router.crossbar_delay"] = str(rng.choice([0, 1, 1, 2]))
  # Links held per packet (meshes and hypercubes only): the worm-level hop
  # against flit-by-flit sends (sim.streams off).
  if kind in ("mesh", "hypercube") and rng.random() < 0.4:
    s["router.link_hold"] = "packet"
  return nodes


def direct_case(rng):
  s = {}
  nodes = direct_network(rng, s)
  s["link.latency"] = str(rng.choice([1, 1, 2, 4]))
  s["link.credit_delay"] = str(rng.choice([1, 1, 2, 3]))
  if rng.random() < 0.25:   # processor nodes: t_S / t_R, one-port or all-port, messages
    s["node.model"] = "processor"
    s["router.ports"] = rng.choice(["one_port", "all_port"])
    s["processor.t_s"] = str(rng.choice([0, 5, 20]))
    s["processor.t_r"] = str(rng.choice([0, 4, 16]))
    s["processor.send_model"] = rng.choice(["per_channel", "in_order"])
    s["message.size"] = "%dflits" % rng.choice([2, 5, 16, 40])
    s["traffic.load"] = "%g" % rng.choice([0.01, 0.03, 0.08, 0.2])
  else:
    patterns = ["uniform", "uniform", "bit_complement", "hotspot"]
    if square(nodes):
      patterns.append("transpose")
    s["traffic.pattern"] = rng.choice(patterns)
    s["traffic.process"] = rng.choice(["bernoulli", "poisson"])
    s["traffic.load"] = "%g" % rng.choice([0.01, 0.03, 0.08, 0.15, 0.3, 0.6])
    s["traffic.packet_size"] = "%dflits" % rng.choice([1, 2, 3, 5, 8, 16])
  network_windows(rng, s)
  return "experiments/direct_mesh_8x8.yaml", s


def switch_case(rng):
  s = {}
  switches = rng.randint(2, 16)
  ports = rng.choice([4, 6, 8])
  s["topology.switches"] = str(switches)
  s["topology.ports"] = str(ports)
  s["topology.nodes"] = str(rng.randint(switches, switches * (ports - 2)))
  s["topology.connectivity"] = "%g" % rng.choice([0.8, 0.9, 1.0])
  s["topology.seed"] = str(rng.randint(1, 50))
  s["routing.selection"] = rng.choice(["deterministic", "round_robin", "random", "adaptive"])
  size = rng.choice([1, 2, 8, 16, 64, 128])
  s["traffic.packet_size"] = "%dflits" % size
  buffer = rng.choice([size, 2 * size, 640])
  s["switch.buffer"] = "%dflits" % buffer
  s["switch.chunk"] = "%dflits" % min(buffer, rng.choice([1, 8]))
  s["switch.route_delay"] = str(rng.choice([1, 2]))
  s["switch.crossbar_delay"] = str(rng.choice([1, 2]))
  s["switch.arbitration"] = rng.choice(["round_robin", "fixed_priority"])
  s["switch.next_header"] = rng.choice(["after_grant", "after_drain"])
  s["switch.admission"] = rng.choice(["cut_through", "virtual_cut_through"])
  s["link.latency"] = str(rng.choice([1, 2, 4]))
  s["link.credit_delay"] = str(rng.choice([1, 2]))
  s["traffic.process"] = rng.choice(["bernoulli", "poisson"])
  s["traffic.load"] = "%g" % rng.choice([0.005, 0.02, 0.05, 0.1, 0.3])
  network_windows(rng, s)
  return "experiments/default_unicast.yaml", s


def multicast_case(rng):
  """Switch-based or NI-based multicast under load on a small irregular
  network of host/NI nodes (seed000 §6.5)."""
  s = {}
  switches = rng.randint(4, 12)
  s["topology.switches"] = str(switches)
  nodes = rng.randint(switches, 4 * switches)
  s["topology.nodes"] = str(nodes)
  s["topology.seed"] = str(rng.randint(1, 50))
  s["routing.selection"] = rng.choice(["deterministic", "round_robin", "random", "adaptive"])
  s["traffic.scheme"] = rng.choice(["tree", "path-lg", "path-greedy", "ssr", "ni"])
  s["traffic.degree"] = str(rng.randint(2, min(8, nodes - 1)))
  s["traffic.load"] = "%g" % rng.choice([0.0005, 0.002, 0.005, 0.01])
  s["message.size"] = str(rng.choice([16, 64, 128, 256]))
  s["ni.packet_size"] = "%dflits" % rng.choice([16, 64, 128])
  s["ni.firmware"] = rng.choice(["fpfs", "fcfs"])
  s["switch.next_header"] = rng.choice(["after_grant", "after_drain"])
  s["switch.arbitration"] = rng.choice(["round_robin", "fixed_priority"])
  # Host overheads of a thousand cycles per message: longer windows.
  windows(rng, s, [0, 2000], [5000, 20000], 50000)
  return "experiments/seed000/multicast_load.yaml", s


def make_cases(args):
  rng = random.Random(args.seed)
  cases = []
  for cid in range(args.cases):
    r = rng.random()
    kind = multicast_case if r < 0.2 else direct_case if r < 0.7 else switch_case
    experiment, s = kind(rng)
    cases.append((cid, experiment, s, str(rng.randint(1, 1000))))
  return cases


def run_case(args, case, work):
  cid, experiment, sets, seed = case
  outcome = {}
  variants = DIRECT_VARIANTS if experiment == DIRECT_EXPERIMENT else VARIANTS
  for tag, extra in variants:
    out = os.path.join(work, "case%d" % cid, tag)
    shutil.rmtree(out, ignore_errors=True)
    cmd = [args.wormcast, "run", os.path.join(args.source, experiment), "--out", out, "--seed", seed]
    for k, v in sets.items():
      cmd += ["--set", "%s=%s" % (k, v)]
    if extra:
      cmd += ["--set", extra]
    try:
      p = subprocess.run(cmd, capture_output=True, text=True, timeout=args.timeout, env=sanitizer_env())
    except subprocess.TimeoutExpired:
      return case, "%s: no result within %g s" % (tag, args.timeout), None
    err = [l for l in p.stderr.splitlines() if l.startswith("wormcast: error:")]
    if p.returncode not in (0, 1, 2, 3) or any(m in p.stderr for m in SANITIZER_MARKS):
      return case, "%s: exit %d, stderr ends:\n%s" % (tag, p.returncode, p.stderr[-1500:]), None
    if p.returncode != 0 and not err:
      return case, "%s: exit %d without 'wormcast: error:'; stderr ends:\n%s" % (tag, p.returncode,
                                                                                p.stderr[-1500:]), None
    outcome[tag] = (p.returncode, err, out)
  base_rc, base_err, base_out = outcome["base"]
  problems = []
  for tag, _ in variants[1:]:
    rc, err, out = outcome[tag]
    if (rc, err) != (base_rc, base_err):
      problems.append("%s: exit %d %s, base exit %d %s" % (tag, rc, err, base_rc, base_err))
      continue
    if os.path.isdir(base_out) and os.listdir(base_out):   # results written (a saturated or deadlocked run too)
      _, diffs = compare_results.compare(base_out, out)
      if diffs:
        problems.append("%s differs:\n%s" % (tag, "\n".join(diffs[:20])))
  status = "refused" if base_rc != 0 else "ok"
  return case, "\n".join(problems), (status, base_err[:1] or ["exit %d" % base_rc])


def main():
  ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
  add_common_arguments(ap, cases=40, seed=20261128, timeout=120.0,
                       source_help="the source tree (experiments/, scripts/)",
                       keep_help="directory for the results (default: temporary, removed when all agree)")
  args = ap.parse_args()
  checked_paths(ap, args)
  work = os.path.abspath(args.keep) if args.keep else tempfile.mkdtemp(prefix="wormcast_soak_")
  cases = make_cases(args)
  if args.case:
    cases = [c for c in cases if c[0] in args.case]
  failures, refused = [], []
  with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
    for case, problem, info in pool.map(lambda c: run_case(args, c, work), cases):
      cid, experiment, sets, seed = case
      if problem:
        failures.append(cid)
        print("FAIL case %d: %s" % (cid, problem))
        print("  %s --seed %s %s" % (experiment, seed, " ".join("--set %s=%s" % kv for kv in sets.items())))
      elif info and info[0] == "refused":
        refused.append(cid)
        print("case %d refused alike in all its runs: %s" % (cid, info[1][0] if info[1] else "(no message)"))
  print("%d cases, %d refused alike, %d differing%s" % (len(cases), len(refused), len(failures),
                                                       (": " + ", ".join(map(str, failures))) if failures else ""))
  if failures:
    print("results kept in %s" % work)
    return 1
  if not args.keep:
    shutil.rmtree(work, ignore_errors=True)
  return 0


if __name__ == "__main__":
  sys.exit(main())
