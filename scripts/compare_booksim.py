#!/usr/bin/env python3
"""Compare wormcast's speed with BookSim2's on the same network and traffic.

For each network and load it
  1. generates (or takes) a wormcast topology and exports it with
     `wormcast topo export --format anynet` (refused if two switches are
     joined by parallel links: BookSim2's anynet format cannot express them);
  2. writes a wormcast experiment and the matching BookSim2 configuration:
     packet length, offered load in flits/cycle/node, buffer per input port,
     Bernoulli injection, uniform traffic, warm-up and measurement windows;
  3. runs the two simulators in alternation, N pairs (so both see the same
     background load on a shared machine), and
  4. prints a side-by-side table: simulated cycles per second, router
     flit-hops per second, mean packet latency, the wormcast/BookSim ratio of
     flit-hops per second, each as min and median over the N pairs.

BookSim2 is not a Debian package. Build it outside this tree:

    git clone https://github.com/booksim/booksim2 /work/peers/booksim2
    apt-get install -y g++ make flex bison
    make -C /work/peers/booksim2/src            # gives .../src/booksim

then:

    scripts/compare_booksim.py --booksim /work/peers/booksim2/src/booksim

See docs/performance.md ("Against BookSim2") for the method and for what the
two simulators model differently. Python 3 standard library only.
"""

import argparse
import json
import math
import os
import re
import shutil
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_WORMCAST = os.path.join(HERE, "..", "build", "wormcast")

BUILD_HELP = """BookSim2 is not packaged by Debian; build it outside the wormcast tree:
  git clone https://github.com/booksim/booksim2 /work/peers/booksim2
  apt-get install -y g++ make flex bison
  make -C /work/peers/booksim2/src
and pass --booksim /work/peers/booksim2/src/booksim"""


class CompareError(Exception):
    pass


# --------------------------------------------------------------- writers


def booksim_windows(warmup, measure):
    """(sample_period, warmup_periods, max_samples) giving BookSim2 a warm-up of
    `warmup` cycles and a measurement of `measure` cycles.

    BookSim2 samples in whole periods: warmup_periods periods of warm-up, then
    measured periods whose statistics accumulate until max_samples periods in
    all, or earlier once 3 measured periods in a row have converged. The period
    is gcd(warmup, measure), and at most 3 measured periods are allowed, so that
    the convergence test can never end the measurement early (e.g. 50,000 +
    50,000 -> one period of 50,000; 10,000 + 20,000 -> 1 + 2 periods of 10,000).
    """
    if warmup <= 0 or measure <= 0:
        raise CompareError("warm-up and measurement must be positive")
    period = math.gcd(warmup, measure)
    if measure // period > 3:
        raise CompareError(f"BookSim2 needs the warm-up ({warmup}) to be a whole number of "
                           f"sample periods and the measurement ({measure}) at most 3 of them")
    return period, warmup // period, (warmup + measure) // period


def booksim_common(packet_size, load, buffer_flits, warmup, measure, num_vcs=1, seed=1):
    """The BookSim2 settings shared by every network: router, VCs and buffers
    (buffer_flits per input port = num_vcs * vc_buf_size), uniform Bernoulli
    traffic in flits/cycle/node, sample windows, seed."""
    if packet_size < 1:
        raise CompareError("packet size must be at least 1 flit")
    if not 0 < load <= 1:
        raise CompareError("load must be in (0, 1] flits/cycle/node")
    if num_vcs < 1 or buffer_flits % num_vcs:
        raise CompareError(f"buffer of {buffer_flits} flits does not split into {num_vcs} equal VCs")
    period, warmup_periods, max_samples = booksim_windows(warmup, measure)
    return [
        "router = iq;",
        f"num_vcs = {num_vcs};",
        f"vc_buf_size = {buffer_flits // num_vcs};   // buffer per input port = num_vcs * vc_buf_size",
        "traffic = uniform;",
        "injection_process = bernoulli;",
        "injection_rate_uses_flits = 1;",
        f"injection_rate = {load!r};     // flits/cycle/node",
        f"packet_size = {packet_size};",
        "use_read_write = 0;",
        "sim_type = latency;",
        f"sample_period = {period};",
        f"warmup_periods = {warmup_periods};",
        f"max_samples = {max_samples};",
        "latency_thres = -1.0;           // never abort on latency (a float field: -1 fails to parse)",
        "sim_count = 1;",
        f"seed = {seed};",
    ]


def booksim_config(network_file, packet_size, load, buffer_flits, warmup, measure,
                   num_vcs=1, seed=1):
    """BookSim2 configuration text matching a wormcast experiment on an
    irregular network (anynet file).

    load is in flits/cycle/node, as wormcast's traffic.load; BookSim2 takes
    it in the same unit with injection_rate_uses_flits = 1 (it divides by the
    packet length to get its per-cycle Bernoulli packet probability, exactly
    as wormcast does). The buffer per input port is num_vcs * vc_buf_size.
    Windows: see booksim_windows (the default 50,000 + 50,000 is one warm-up
    period and one measured period).
    """
    lines = [
        "// Written by wormcast scripts/compare_booksim.py",
        "topology = anynet;",
        f"network_file = {network_file};",
        "routing_function = min;          // anynet's only routing: shortest path",
    ] + booksim_common(packet_size, load, buffer_flits, warmup, measure, num_vcs, seed)
    return "\n".join(lines) + "\n"


def wormcast_traffic(packet_size, load, warmup, measure, sim_extra=""):
    """The traffic and sim sections every compared wormcast experiment shares
    (uniform Bernoulli traffic at `load` flits/node/cycle, the windows), with
    `sim_extra` lines (indented) appended to sim."""
    if warmup <= 0 or measure <= 0:
        raise CompareError("warm-up and measurement must be positive")
    return f"""traffic:
  pattern: uniform
  process: bernoulli
  load: {load!r}
  packet_size: {packet_size}flits
sim:
  warmup: {warmup}
  measure: {measure}
{sim_extra}"""


def wormcast_experiment(name, topology_file, packet_size, load, buffer_flits, warmup, measure,
                        seed=1):
    """wormcast experiment YAML text for the same run (seed000 defaults otherwise)."""
    traffic = wormcast_traffic(packet_size, load, warmup, measure)
    return f"""# Written by wormcast scripts/compare_booksim.py
name: {name}
seed: {seed}
topology:
  kind: file
  file: {json.dumps(os.path.abspath(topology_file))}
switch:
  buffer: {buffer_flits}flits
{traffic}"""


# --------------------------------------------------------------- parsers

_NUM = r"([-+0-9.eEinfa]+)"


def _last(pattern, text, what, sim="BookSim2"):
    """The last match of `pattern` in a simulator's output, as a number."""
    found = re.findall(pattern, text)
    if not found:
        raise CompareError(f"{sim} output has no {what}")
    return float(found[-1])


def speed_figures(seconds, cycles, flit_hops):
    """seconds, cycles and the per-second rates of one run (nan without time)."""
    return {
        "seconds": seconds,
        "cycles": cycles,
        "cycles_per_second": cycles / seconds if seconds > 0 else float("nan"),
        "flit_hops_per_second": flit_hops / seconds if seconds > 0 else float("nan"),
    }


def parse_booksim(text, nodes):
    """Figures from a BookSim2 log: its own wall time of the simulation
    (TrafficManager::Run, network construction excluded), cycles, mean packet
    latency, and router flit-hops (accepted flits/cycle/node x nodes x cycles
    x router hops per packet: an estimate, BookSim2 does not count them)."""
    if "Simulation unstable" in text:
        raise CompareError("BookSim2 reports the simulation unstable (saturated)")
    seconds = _last(r"Total run time " + _NUM, text, "'Total run time'")
    cycles = _last(r"Time taken is (\d+) cycles", text, "'Time taken'")
    overall = text.rsplit("Overall Traffic Statistics", 1)
    if len(overall) != 2:
        raise CompareError("BookSim2 output has no overall statistics")
    ov = overall[1]
    latency = _last(r"Packet latency average = " + _NUM, ov, "packet latency")
    accepted = _last(r"Accepted flit rate average\s*=\s*" + _NUM, ov, "accepted flit rate")
    hops = _last(r"Hops average = " + _NUM, ov, "hop average")
    flit_hops = accepted * nodes * cycles * hops
    return {**speed_figures(seconds, cycles, flit_hops), "latency": latency, "hops": hops}


def parse_wormcast(result):
    """Figures from a wormcast run's JSON (already loaded)."""
    try:
        perf = result["performance"]
        return {
            "seconds": perf["simulation_seconds"],
            "cycles_per_second": perf["cycles_per_second"],
            "flit_hops_per_second": perf["flit_hops_per_second"],
            "latency": result["metrics"]["latency_cycles"]["mean"],
            "saturated": bool(result["metrics"].get("saturated", False)),
        }
    except (KeyError, TypeError) as e:
        raise CompareError(f"wormcast result lacks {e}") from None


def summarize(pairs):
    """pairs: list of (wormcast, booksim) figure dicts -> min/median row."""
    def mm(values):
        return min(values), statistics.median(values)
    w = [p[0] for p in pairs]
    b = [p[1] for p in pairs]
    ratios = [x["flit_hops_per_second"] / y["flit_hops_per_second"] for x, y in pairs]
    return {
        "n": len(pairs),
        "w_cps": mm([x["cycles_per_second"] for x in w]),
        "b_cps": mm([x["cycles_per_second"] for x in b]),
        "w_fhs": mm([x["flit_hops_per_second"] for x in w]),
        "b_fhs": mm([x["flit_hops_per_second"] for x in b]),
        "w_lat": statistics.median([x["latency"] for x in w]),
        "b_lat": statistics.median([x["latency"] for x in b]),
        "ratio": mm(ratios),
    }


def _si(x):
    for div, suffix in ((1e6, " M"), (1e3, " k")):
        if abs(x) >= div:
            return f"{x / div:.3g}{suffix}"
    return f"{x:.3g}"


def format_table(rows):
    """rows: list of (network, load, summary) -> Markdown table text.
    Figures are 'min / median' over the pairs; ratio is wormcast / BookSim2
    router flit-hops per second, pair by pair."""
    out = ["| network | load | pairs | cycles/s wormcast | cycles/s BookSim2 | "
           "flit-hops/s wormcast | flit-hops/s BookSim2 | ratio (flit-hops/s) | "
           "latency wormcast | latency BookSim2 |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for net, load, s in rows:
        def pair(key):
            return f"{_si(s[key][0])} / {_si(s[key][1])}"
        out.append(f"| {net} | {load:g} | {s['n']} | {pair('w_cps')} | {pair('b_cps')} | "
                   f"{pair('w_fhs')} | {pair('b_fhs')} | "
                   f"{s['ratio'][0]:.2f} / {s['ratio'][1]:.2f} | "
                   f"{s['w_lat']:.1f} | {s['b_lat']:.1f} |")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------- running


def _run(cmd, cwd=None, timeout=None, ok=(0,)):
    try:
        p = subprocess.run(cmd, cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                           timeout=timeout)
    except subprocess.TimeoutExpired:
        raise CompareError(f"{' '.join(cmd)} took more than {timeout} s (BookSim2 deadlocked or "
                           f"saturated?)") from None
    if p.returncode not in ok:
        raise CompareError(f"{' '.join(cmd)} exited {p.returncode}:\n{p.stderr[-2000:]}")
    return p.stdout


def count_nodes(anynet_text):
    return sum(line.split().count("node") for line in anynet_text.splitlines())


def prepare_network(wormcast, work, label, switches, ports, nodes, seed, topology_file=None):
    os.makedirs(work, exist_ok=True)
    topo = os.path.join(work, f"{label}.yaml")
    if topology_file:
        shutil.copyfile(topology_file, topo)
    else:
        _run([wormcast, "topo", "generate", "--switches", str(switches), "--ports", str(ports),
              "--nodes", str(nodes), "--seed", str(seed), "-o", topo])
    anynet = os.path.join(work, f"{label}.anynet")
    p = subprocess.run([wormcast, "topo", "export", topo, "--format", "anynet", "-o", anynet],
                       stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    if p.returncode != 0:
        raise CompareError(f"anynet export of {topo} failed:\n{p.stderr}")
    merged = [line for line in p.stderr.splitlines() if "parallel link" in line]
    if merged:
        print(f"{label}: {len(merged)} parallel link(s) merged in the BookSim2 network "
              f"(it has fewer inter-switch channels than wormcast's):\n  " + "\n  ".join(merged),
              file=sys.stderr)
    with open(anynet) as f:
        n = count_nodes(f.read())
    return topo, anynet, n


def run_pair(args, work, label, topo, anynet, nodes, load, order):
    tag = f"{label}_load{load:g}"
    exp = os.path.join(work, f"{tag}.yaml")
    cfg = os.path.join(work, f"{tag}.booksim")
    with open(exp, "w") as f:
        f.write(wormcast_experiment(tag, topo, args.packet_size, load, args.buffer, args.warmup,
                                    args.measure))
    with open(cfg, "w") as f:
        f.write(booksim_config(os.path.abspath(anynet), args.packet_size, load, args.buffer,
                               args.warmup, args.measure, args.num_vcs))

    def wc():
        out = os.path.join(work, "results")
        # The working folder is this script's own: each call rewrites its runs.
        _run([args.wormcast, "run", exp, "--out", out, "--no-progress", "--force"], timeout=args.timeout)
        with open(os.path.join(out, f"{tag}_seed1.json")) as f:
            return parse_wormcast(json.load(f))

    def bs():
        # BookSim2's main() returns -1 (exit status 255) after a successful
        # simulation and 0 after a failed one; its log is checked instead.
        text = _run([args.booksim, cfg], cwd=work, timeout=args.timeout, ok=(0, 255))
        with open(os.path.join(work, f"{tag}.booksim.log"), "w") as f:
            f.write(text)
        return parse_booksim(text, nodes)

    if order % 2 == 0:
        w = wc()
        b = bs()
    else:
        b = bs()
        w = wc()
    return w, b


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog=BUILD_HELP)
    ap.add_argument("--booksim", help="path of the BookSim2 binary (src/booksim)")
    ap.add_argument("--wormcast", default=DEFAULT_WORMCAST, help="wormcast binary (default build/wormcast)")
    ap.add_argument("--networks", default="32:8:8,256:64:8",
                    help="nodes:switches:ports,... generated with --topo-seed (default 32:8:8,256:64:8)")
    ap.add_argument("--topology", help="use this wormcast topology file instead of --networks")
    ap.add_argument("--topo-seed", type=int, default=1)
    ap.add_argument("--loads", default="0.01,0.02,0.03,0.04", help="flits/cycle/node, comma-separated")
    ap.add_argument("--packet-size", type=int, default=128, help="flits (default 128)")
    ap.add_argument("--buffer", type=int, default=640, help="flits per input port (default 640)")
    ap.add_argument("--num-vcs", type=int, default=1, help="BookSim2 VCs per port (default 1: one FIFO)")
    ap.add_argument("--warmup", type=int, default=50000)
    ap.add_argument("--measure", type=int, default=50000)
    ap.add_argument("--pairs", type=int, default=3, help="alternated runs of each (default 3)")
    ap.add_argument("--timeout", type=float, default=900, help="seconds per run before giving up (default 900)")
    ap.add_argument("--work", default="compare_booksim", help="working directory (default ./compare_booksim)")
    ap.add_argument("--write-only", action="store_true",
                    help="write topology, anynet file, experiments and BookSim2 configs; run nothing")
    args = ap.parse_args(argv)

    try:
        loads = [float(x) for x in args.loads.split(",") if x]
        if not args.write_only:
            if not args.booksim:
                print("compare_booksim.py: --booksim PATH is required.\n" + BUILD_HELP, file=sys.stderr)
                return 2
            if not (os.path.isfile(args.booksim) and os.access(args.booksim, os.X_OK)):
                raise CompareError(f"{args.booksim}: not an executable file\n{BUILD_HELP}")
            args.booksim = os.path.abspath(args.booksim)
        if not os.access(args.wormcast, os.X_OK):
            raise CompareError(f"{args.wormcast}: not executable (build wormcast first, or pass --wormcast)")
        args.wormcast = os.path.abspath(args.wormcast)
        work = os.path.abspath(args.work)
        nets = []
        if args.topology:
            nets.append(("given",) + prepare_network(args.wormcast, work, "given", 0, 0, 0, 0,
                                                     args.topology))
        else:
            for spec in args.networks.split(","):
                nodes, switches, ports = (int(x) for x in spec.split(":"))
                label = f"n{nodes}_s{switches}"
                nets.append((label,) + prepare_network(args.wormcast, work, label, switches, ports,
                                                       nodes, args.topo_seed))
        rows = []
        for label, topo, anynet, nodes in nets:
            for load in loads:
                if args.write_only:
                    run_pair_files_only(args, work, label, topo, anynet, load)
                    continue
                pairs = []
                for i in range(args.pairs):
                    t0 = time.time()
                    pairs.append(run_pair(args, work, label, topo, anynet, nodes, load, i))
                    w, b = pairs[-1]
                    print(f"{label} load {load:g} pair {i + 1}/{args.pairs}: wormcast "
                          f"{_si(w['flit_hops_per_second'])} flit-hops/s, BookSim2 "
                          f"{_si(b['flit_hops_per_second'])} ({time.time() - t0:.0f} s)",
                          file=sys.stderr, flush=True)
                s = summarize(pairs)
                rows.append((f"{nodes} nodes / {label.split('_s')[-1] if label != 'given' else '?'} sw",
                             load, s))
                with open(os.path.join(work, "pairs.json"), "a") as f:
                    f.write(json.dumps({"network": label, "load": load, "pairs": pairs}) + "\n")
        if args.write_only:
            print(f"wrote files under {work}")
        else:
            print(format_table(rows), end="")
    except CompareError as e:
        print(f"compare_booksim.py: {e}", file=sys.stderr)
        return 1
    return 0


def run_pair_files_only(args, work, label, topo, anynet, load):
    tag = f"{label}_load{load:g}"
    with open(os.path.join(work, f"{tag}.yaml"), "w") as f:
        f.write(wormcast_experiment(tag, topo, args.packet_size, load, args.buffer, args.warmup,
                                    args.measure))
    with open(os.path.join(work, f"{tag}.booksim"), "w") as f:
        f.write(booksim_config(os.path.abspath(anynet), args.packet_size, load, args.buffer,
                               args.warmup, args.measure, args.num_vcs))


if __name__ == "__main__":
    sys.exit(main())
