#!/usr/bin/env python3
"""Compare wormcast with BookSim2, Noxim and CNSim on 8x8 meshes and tori.

Same network (k x k mesh, or k x k bidirectional torus), packet length,
buffer depth per VC, dimension-order (XY) routing, uniform destinations,
Bernoulli injection at the same load in flits/node/cycle, and matched warm-up
and measurement windows. For each network and load it writes each
simulator's configuration, runs the simulators one after the other N times
(the order rotating each round, so all see the same background load on a
shared machine), and prints a table: simulated cycles/s, router flit-hops/s,
mean packet latency, and the wormcast / peer ratio of flit-hops/s computed
round by round, each as min / median over the rounds. --curves instead
runs one round per load and writes latency-load CSVs and plots.

Each peer is optional: the comparison includes those whose path is given.
None is a Debian package; build them outside this tree:

  BookSim2  git clone https://github.com/booksim/booksim2 /work/peers/booksim2
            apt-get install -y flex bison && make -C /work/peers/booksim2/src
            --booksim /work/peers/booksim2/src/booksim
  Noxim     git clone https://github.com/davidepatti/noxim /work/peers/noxim
            apt-get install -y libsystemc-dev libyaml-cpp-dev
            cd /work/peers/noxim/bin && make -j2 SYSTEMC=/usr YAML=/usr \\
              INCDIR=-I../src LIBDIR= \\
              OTHER="-Wall -DSC_NO_WRITE_CHECK --std=c++17 -Wno-deprecated"
            --noxim /work/peers/noxim/bin/noxim   (power.yaml is taken from
            the binary's directory; --noxim-power to change)
  CNSim     git clone https://github.com/Yinxiao-Feng/chiplet-network-sim /work/peers/cnsim
            apt-get install -y cmake ninja-build libboost-dev libbz2-dev
            cd /work/peers/cnsim && cmake --preset Release && cmake --build builds/Release
            --cnsim /work/peers/cnsim/builds/Release/ChipletNetworkSim

Which peer models what, and how each figure is derived: docs/direct_networks.md
("Against BookSim2, Noxim and CNSim"). Python 3 standard library only (the
plots use scripts/plot.py, which needs matplotlib).
"""

import argparse
import csv
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import compare_booksim as cb  # noqa: E402
from compare_booksim import CompareError  # noqa: E402

SIMULATORS = ("wormcast", "booksim", "noxim", "cnsim")
LABEL = {"wormcast": "wormcast", "booksim": "BookSim2", "noxim": "Noxim", "cnsim": "CNSim"}
BUILD_HELP = {
    "booksim": cb.BUILD_HELP,
    "noxim": "Noxim is not packaged by Debian; build it outside the wormcast tree:\n"
              "  git clone https://github.com/davidepatti/noxim /work/peers/noxim\n"
              "  apt-get install -y libsystemc-dev libyaml-cpp-dev\n"
              "  cd /work/peers/noxim/bin && make -j2 SYSTEMC=/usr YAML=/usr INCDIR=-I../src LIBDIR= \\\n"
              "       OTHER='-Wall -DSC_NO_WRITE_CHECK --std=c++17 -Wno-deprecated'\n"
              "and pass --noxim /work/peers/noxim/bin/noxim",
    "cnsim": "CNSim is not packaged by Debian; build it outside the wormcast tree:\n"
              "  git clone https://github.com/Yinxiao-Feng/chiplet-network-sim /work/peers/cnsim\n"
              "  apt-get install -y cmake ninja-build libboost-dev libbz2-dev\n"
              "  cd /work/peers/cnsim && cmake --preset Release && cmake --build builds/Release\n"
              "and pass --cnsim /work/peers/cnsim/builds/Release/ChipletNetworkSim"}


# --------------------------------------------------------------- networks


def parse_network(spec):
    """'mesh:8x8' / 'torus:8x8' -> (kind, k). Square 2-D only: what all peers share."""
    try:
        kind, dims = spec.split(":")
        a, b = (int(x) for x in dims.lower().split("x"))
    except ValueError:
        raise CompareError(f"network {spec!r}: expected mesh:KxK or torus:KxK") from None
    if kind not in ("mesh", "torus"):
        raise CompareError(f"network {spec!r}: kind must be mesh or torus")
    if a != b or a < 2:
        raise CompareError(f"network {spec!r}: only square k x k networks with k >= 2 "
                           f"(BookSim2's k-ary n-cube and CNSim's mesh are square)")
    return kind, a


def mean_router_hops(kind, k):
    """Mean number of routers a packet crosses (links + 1) under uniform
    traffic without self-traffic, with minimal dimension-order routing on a
    k x k mesh or bidirectional torus: an exact average over all pairs."""
    def dist(a, b):
        d = abs(a - b)
        return min(d, k - d) if kind == "torus" else d
    one = [dist(a, b) for a in range(k) for b in range(k)]
    total_pairs = (k * k) ** 2
    mean_links_all = 2 * sum(one) / len(one)          # over all pairs, self included
    mean_links = mean_links_all * total_pairs / (total_pairs - k * k)
    return mean_links + 1


def unsupported(sim, kind, buffer_flits, packet_size, warmup, measure):
    """Why a peer cannot run this configuration, or None."""
    if sim == "noxim" and kind == "torus":
        return "Noxim has no torus (2-D mesh and delta networks only)"
    if sim == "cnsim" and kind == "torus":
        return ("CNSim has no plain torus: its MultiChipTorus joins chiplets with off-chip "
                "wrap links of other latency/width and routes only with adaptive CLUE")
    if sim == "cnsim" and buffer_flits < packet_size:
        return (f"CNSim reserves room for a whole packet in a VC: VC buffer "
                f"({buffer_flits}) < packet ({packet_size} flits) never moves")
    if sim == "cnsim" and 2 * warmup != measure:
        return "CNSim's warm-up is half its measurement: need --measure = 2 x --warmup"
    return None


# --------------------------------------------------------------- writers


def check_link_hold(kind, link_hold):
    """wormcast's router.link_hold: flit, or packet on a mesh (it refuses
    packet on a torus); raises CompareError otherwise."""
    if link_hold not in ("flit", "packet"):
        raise CompareError(f"link_hold {link_hold!r}: flit or packet")
    if link_hold == "packet" and kind != "mesh":
        raise CompareError("--link-hold packet is for meshes: wormcast refuses router.link_hold: packet "
                           "on a torus (its dateline classes need the VCs to share the links flit by flit)")


def wormcast_direct_experiment(name, kind, k, packet_size, load, buffer_flits, warmup, measure,
                               seed=1, num_vcs=1, link_hold="flit"):
    """wormcast experiment YAML with the peers' VC counts: on a mesh
    dimension-order routing (dor) with num_vcs VCs per channel (a header takes
    any free VC), on a bidirectional torus the 2-class dateline
    dimension-order routing with 2 x num_vcs VCs (num_vcs per class), as
    BookSim2's dim_order_torus; both x (dimension 0) first like the peers'
    XY; buffer_flits per VC; timing of experiments/direct_*.yaml. link_hold
    "packet": a physical link carries one packet at a time, as CNSim's
    (router.link_hold; meshes only, wormcast refuses it on tori)."""
    check_link_hold(kind, link_hold)
    hold = ("  link_hold: packet    # a link carries one packet at a time, as CNSim's\n"
            if link_hold == "packet" else "")
    traffic = cb.wormcast_traffic(packet_size, load, warmup, measure,
                                  f"  drain_limit: {max(200000, 4 * measure)}\n  watchdog: 20000\n")
    topo = ("  kind: mesh\n" if kind == "mesh" else
            "  kind: torus\n  direction: bidirectional\n")
    routing = "dor" if kind == "mesh" else "dateline"
    return f"""# Written by wormcast scripts/compare_peers.py
name: {name}
seed: {seed}
topology:
{topo}  dims: [{k}, {k}]
routing:
  function: {routing}
  order: ascending      # dimension 0 (x) first, as BookSim2's dim_order, Noxim's and CNSim's XY
router:
  vcs: {wormcast_vcs(kind, num_vcs)}
  buffer: {buffer_flits}flits
{hold}  route_delay: 1
  crossbar_delay: 1
link:
  latency: 1
  credit_delay: 1
{traffic}"""


def wormcast_vcs(kind, num_vcs=1):
    """wormcast's VCs per channel: the peers' (booksim_vcs): num_vcs on a
    mesh, 2 x num_vcs (two dateline classes) on a torus."""
    return booksim_vcs(kind, num_vcs)


def booksim_vcs(kind, num_vcs):
    """BookSim2's dim_order_torus splits the VCs into two dateline classes:
    it needs an even number; on a torus the mesh count is doubled."""
    return num_vcs if kind == "mesh" else 2 * num_vcs


def booksim_direct_config(kind, k, packet_size, load, buffer_flits, warmup, measure, num_vcs=1,
                          seed=1):
    """BookSim2 configuration for a k x k mesh or torus with dimension-order
    routing (dim_order_mesh / dim_order_torus); buffer_flits per VC."""
    lines = [
        "// Written by wormcast scripts/compare_peers.py",
        f"topology = {kind};",
        f"k = {k};",
        "n = 2;",
        "routing_function = dim_order;    // dim_order_mesh / dim_order_torus (dateline VC classes)",
    ] + cb.booksim_common(packet_size, load, buffer_flits * num_vcs, warmup, measure, num_vcs,
                          seed)
    return "\n".join(lines) + "\n"


def noxim_config(k, packet_size, load, buffer_flits, warmup, measure, num_vcs=1, reset=10):
    """Noxim YAML configuration: k x k mesh, XY routing, buffer_depth flits
    per VC, fixed packet size, uniform random destinations (TRAFFIC_RANDOM,
    never the source), Bernoulli injection: Noxim draws a packet each cycle
    with probability packet_injection_rate (probability_of_retransmission in
    the cycle after a draw; both set to load / packet_size packets/cycle/node).
    Statistics from warmup cycles after reset on, simulation_time = warmup +
    measure cycles; no drain. detailed: true prints each router's routed flits."""
    if packet_size < 1:
        raise CompareError("packet size must be at least 1 flit")
    if not 0 < load <= 1:
        raise CompareError("load must be in (0, 1] flits/cycle/node")
    if warmup <= 0 or measure <= 0:
        raise CompareError("warm-up and measurement must be positive")
    pir = load / packet_size
    return f"""# Written by wormcast scripts/compare_peers.py
topology: MESH
mesh_dim_x: {k}
mesh_dim_y: {k}
buffer_depth: {buffer_flits}
flit_size: 32
r2h_link_length: 2.0
r2r_link_length: 1.0
n_virtual_channels: {num_vcs}
routing_algorithm: XY
routing_table_filename: ""
dyad_threshold: 0.6
selection_strategy: RANDOM
Hubs:
    defaults:
        rx_radio_channels: [0]
        tx_radio_channels: [0]
        attached_nodes: []
        to_tile_buffer_size: 4
        from_tile_buffer_size: 4
        rx_buffer_size: 4
        tx_buffer_size: 4
RadioChannels:
    defaults:
        data_rate: 16
        ber: [0, 0]
        mac_policy: [TOKEN_PACKET]
clock_period_ps: 1000
reset_time: {reset}
simulation_time: {warmup + measure}
stats_warm_up_time: {warmup}
detailed: true
max_volume_to_be_drained: 0
show_buffer_stats: false
use_winoc: false
use_wirxsleep: false
verbose_mode: VERBOSE_OFF
trace_mode: false
trace_filename: ""
min_packet_size: {packet_size}
max_packet_size: {packet_size}
packet_injection_rate: {pir!r}
probability_of_retransmission: {pir!r}
traffic_distribution: TRAFFIC_RANDOM
traffic_table_filename: "t.txt"
traffic_hardcoded_filename: "t.txt"
"""


def noxim_power(power_text, depth, flit_size=32):
    """Noxim's power.yaml with a Buffer row for (depth, flit_size) if it has
    none: Noxim asserts that every router buffer depth has one (its table has
    2, 4, 8, 16, 32, 64). The added row copies the nearest deeper one (the
    deepest if none); energies are not used by the comparison."""
    rows = {(int(m.group(1)), int(m.group(2))): m.group(0) for m in
            re.finditer(r"- \[\s*(\d+)\s*,\s*(\d+)\s*,[^\]]*\]", power_text.split("LinkBitLine")[0])}
    if (depth, flit_size) in rows:
        return power_text
    same = sorted(d for d, w in rows if w == flit_size)
    if not same:
        raise CompareError(f"Noxim power.yaml has no Buffer row for {flit_size}-bit flits")
    near = next((d for d in same if d >= depth), same[-1])
    old = rows[(near, flit_size)]
    new = re.sub(r"\[\s*\d+", f"[{depth}", old, count=1)
    return power_text.replace(old, f"{old}\n        {new}   # added by compare_peers.py", 1)


def cnsim_config(k, packet_size, load, buffer_flits, warmup, measure, num_vcs, out_dir):
    """CNSim INI: SingleChipMesh of scale k, XY routing, vc_number VCs of
    buffer_size flits, its default ThreeStage router and 2-cycle source
    processing, uniform traffic of packet_length flits. CNSim sweeps the load
    from injection_increment upwards until saturation; the script stops it
    after the first load's statistics. It warms up simulation_time/2 cycles
    and measures simulation_time. One thread (it is packet-parallel by
    default, 2 threads); timeouts disabled so the measurement never ends early."""
    why = unsupported("cnsim", "mesh", buffer_flits, packet_size, warmup, measure)
    if why:
        raise CompareError(why)
    if not 0 < load <= 1:
        raise CompareError("load must be in (0, 1] flits/cycle/node")
    return f"""; Written by wormcast scripts/compare_peers.py
[Network]
topology = SingleChipMesh
scale = {k}
routing_algorithm = XY
buffer_size = {buffer_flits}
vc_number = {num_vcs}
router_stages = ThreeStage
processing_time = 2

[Workload]
traffic = uniform
packet_length = {packet_size}

[Simulation]
injection_increment = {load!r}
simulation_time = {measure}
timeout_threshold = 1000000000
timeout_limit = 2000000000
threads = 1

[Files]
output_file = {os.path.join(out_dir, "cnsim_output.csv")}
log_file = {os.path.join(out_dir, "cnsim_log.txt")}
"""


# --------------------------------------------------------------- parsers


def parse_noxim(text, seconds, cycles, router_hops):
    """Noxim prints no timing: seconds is the wall time of the process (set-up
    included, small for 64 routers). Latency is its 'Global average delay':
    creation to arrival of the HEAD flit. Router flit-hops: Noxim counts, per
    router, the flits it forwards from a network input to a network output
    (routed_flits, detailed: true), i.e. links - 1 per flit; the flits' own
    injection and ejection traversals are added as routed x (h + 1)/(h - 1)
    with h the mean link count (router_hops - 1), exact in expectation."""
    if "Noxim simulation completed" not in text:
        raise CompareError("Noxim output has no 'Noxim simulation completed'")
    latency = cb._last(r"Global average delay \(cycles\): ([-+0-9.eEnaif]+)", text,
                    "'Global average delay'", "Noxim")
    received = cb._last(r"Total received flits: (\d+)", text, "'Total received flits'", "Noxim")
    block = re.search(r"routed_flits = \[(.*?)\];", text, re.S)
    if not block:
        raise CompareError("Noxim output has no routed_flits matrix (detailed: true?)")
    routed = sum(int(x) for x in block.group(1).split())
    links = router_hops - 1
    flit_hops = routed * (links + 1) / (links - 1) if links > 1 else float("nan")
    return {**cb.speed_figures(seconds, cycles, flit_hops), "latency": latency, "received_flits": received,
            "routed_flits": routed}


def parse_cnsim(text, packet_size, measure):
    """First statistics block of CNSim: 'Time elapsed' is its own clock over
    the measured simulation_time cycles only (warm-up excluded); latency is
    creation (2 processing cycles included) to the tail reaching the
    destination router; router flit-hops = arrived packets x packet length x
    (Internal Hops + 1): CNSim moves a packet over its links only (no
    injection or ejection stage), the + 1 counts router traversals as the
    other simulators do."""
    if "Time elapsed" not in text:
        raise CompareError("CNSim output has no 'Time elapsed' (no statistics printed)")
    head = text.split("Time elapsed", 1)[1]
    head = "Time elapsed" + head.split("Time elapsed", 1)[0]
    seconds = cb._last(r"Time elapsed: ([0-9.eE+-]+)s", head, "'Time elapsed'", "CNSim")
    arrived = cb._last(r"Arrived:\s*(\d+)", head, "'Arrived'", "CNSim")
    latency = cb._last(r"Average latency: ([-+0-9.eEnaif]+)", head, "'Average latency'", "CNSim")
    hops = cb._last(r"Internal Hops: ([-+0-9.eEnaif]+)", head, "'Internal Hops'", "CNSim")
    flit_hops = arrived * packet_size * (hops + 1)
    return {**cb.speed_figures(seconds, measure, flit_hops), "latency": latency, "hops": hops + 1}


# --------------------------------------------------------------- summary


def summarize_rounds(rounds):
    """rounds: list of {sim: figures}. -> {sim: summary}; the ratio is
    wormcast / sim flit-hops/s within each round (absent without wormcast)."""
    def mm(values):
        return (min(values), statistics.median(values)) if values else None
    out = {}
    sims = [s for s in SIMULATORS if any(s in r for r in rounds)]
    for s in sims:
        figs = [r[s] for r in rounds if s in r]
        def ratios(key):
            return [r["wormcast"][key] / r[s][key] for r in rounds
                    if s in r and "wormcast" in r and r[s].get(key) and r["wormcast"].get(key)]
        out[s] = {
            "n": len(figs),
            "cps": mm([f["cycles_per_second"] for f in figs]),
            "cpu": mm([f["cpu_cycles_per_second"] for f in figs
                       if f.get("cpu_cycles_per_second")]),
            "fhs": mm([f["flit_hops_per_second"] for f in figs]),
            "cpu_fhs": mm([f["cpu_flit_hops_per_second"] for f in figs
                           if f.get("cpu_flit_hops_per_second")]),
            "lat": statistics.median([f["latency"] for f in figs]),
            "ratio": mm(ratios("flit_hops_per_second")) if s != "wormcast" else None,
            "cpu_ratio": mm(ratios("cpu_flit_hops_per_second")) if s != "wormcast" else None,
        }
    return out


def format_peer_table(rows):
    """rows: list of (network, load, {sim: summary}, {sim: reason}) -> Markdown.
    Figures are 'min / median' over the rounds."""
    out = ["| network | load | simulator | runs | cycles/s | cycles/s (CPU) | "
           "router flit-hops/s | router flit-hops/s (CPU) | latency (cycles) | "
           "wormcast ÷ simulator, flit-hops/s | wormcast ÷ simulator (CPU) |",
           "|---|---|---|---|---|---|---|---|---|---|---|"]

    def pair(v):
        return "—" if v is None else f"{cb._si(v[0])} / {cb._si(v[1])}"

    def ratio(v):
        return "—" if v is None else f"{v[0]:.2f} / {v[1]:.2f}"
    for net, load, summ, skipped in rows:
        for s in SIMULATORS:
            if s in summ:
                x = summ[s]
                out.append(f"| {net} | {load:g} | {LABEL[s]} | {x['n']} | {pair(x['cps'])} | "
                           f"{pair(x['cpu'])} | {pair(x['fhs'])} | {pair(x['cpu_fhs'])} | "
                           f"{x['lat']:.1f} | {ratio(x['ratio'])} | {ratio(x['cpu_ratio'])} |")
            elif s in skipped:
                out.append(f"| {net} | {load:g} | {LABEL[s]} | 0 | — | — | — | — | — | — | "
                           f"not run: {skipped[s]} |")
    return "\n".join(out) + "\n"


# --------------------------------------------------------------- running


class Runner:
    def __init__(self, args, work):
        self.a = args
        self.work = work

    def files(self, sim, kind, k, load):
        a = self.a
        tag = f"{kind}{k}x{k}_p{a.packet_size}_b{a.buffer}_v{a.num_vcs}_load{load:g}"
        if sim == "wormcast":
            hold = a.link_hold
            path = os.path.join(self.work, f"{tag}{'_hold' if hold == 'packet' else ''}.yaml")
            text = wormcast_direct_experiment(tag, kind, k, a.packet_size, load, a.buffer,
                                              a.warmup, a.measure, num_vcs=a.num_vcs, link_hold=hold)
        elif sim == "booksim":
            path = os.path.join(self.work, f"{tag}.booksim")
            text = booksim_direct_config(kind, k, a.packet_size, load, a.buffer, a.warmup,
                                         a.measure, booksim_vcs(kind, a.num_vcs))
        elif sim == "noxim":
            path = os.path.join(self.work, f"{tag}.noxim.yaml")
            text = noxim_config(k, a.packet_size, load, a.buffer, a.warmup, a.measure, a.num_vcs)
        else:
            path = os.path.join(self.work, f"{tag}.cnsim.ini")
            text = cnsim_config(k, a.packet_size, load, a.buffer, a.warmup, a.measure, a.num_vcs,
                                self.work)
        with open(path, "w") as f:
            f.write(text)
        return tag, path

    def run(self, sim, kind, k, load):
        """Figures of one run, plus cpu_cycles_per_second: all simulated cycles
        over the process's user + system CPU time (set-up included; a shared
        machine's other load hardly changes it). CNSim is stopped in the
        middle of its next load: its CPU time is read from /proc when it
        prints the first statistics, after warm-up + measurement."""
        tag, path = self.files(sim, kind, k, load)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        x = getattr(self, "_" + sim)(tag, path, kind, k)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        cycles = x.get("cycles") or x["cycles_per_second"] * x["seconds"]
        if sim == "cnsim":
            cpu, cycles = x["cpu_seconds_at_stats"], self.a.warmup + self.a.measure
        x["cpu_seconds"] = cpu
        x["cpu_cycles_per_second"] = cycles / cpu if cpu > 0 else None
        # flit-hops per simulated cycle x simulated cycles per CPU second
        x["cpu_flit_hops_per_second"] = (x["flit_hops_per_second"] / x["cycles_per_second"]
                                         * x["cpu_cycles_per_second"]
                                         if x["cpu_cycles_per_second"] else None)
        return x

    def _wormcast(self, tag, path, kind, k):
        out = os.path.join(self.work, "results")
        cb._run([self.a.wormcast, "run", path, "--out", out, "--no-progress", "--force"],
                timeout=self.a.timeout)
        with open(os.path.join(out, f"{tag}_seed1.json")) as f:
            return cb.parse_wormcast(json.load(f))

    def _booksim(self, tag, path, kind, k):
        # BookSim2 exits 255 after a successful simulation (see compare_booksim.py)
        text = cb._run([self.a.booksim, path], cwd=self.work, timeout=self.a.timeout, ok=(0, 255))
        with open(path + ".log", "w") as f:
            f.write(text)
        return cb.parse_booksim(text, k * k)

    def _noxim(self, tag, path, kind, k):
        power = os.path.join(self.work, f"noxim_power_b{self.a.buffer}.yaml")
        with open(self.a.noxim_power) as f:
            text = noxim_power(f.read(), self.a.buffer)
        with open(power, "w") as f:
            f.write(text)
        t0 = time.perf_counter()
        text = cb._run([self.a.noxim, "-config", path, "-power", power,
                        "-seed", "1"], cwd=self.work, timeout=self.a.timeout)
        seconds = time.perf_counter() - t0
        with open(path + ".log", "w") as f:
            f.write(text)
        return parse_noxim(text, seconds, self.a.warmup + self.a.measure,
                           mean_router_hops(kind, k))

    def _cnsim(self, tag, path, kind, k):
        # CNSim goes on to higher loads until saturation: stop it after the
        # first statistics block (the requested load).
        p = subprocess.Popen([self.a.cnsim, path], cwd=self.work, stdout=subprocess.PIPE,
                             stderr=subprocess.STDOUT, text=True)
        lines, seen, deadline, cpu = [], False, time.time() + self.a.timeout, 0.0
        try:
            for line in p.stdout:
                lines.append(line)
                if line.startswith("Time elapsed") and not seen:
                    seen, cpu = True, proc_cpu_seconds(p.pid)
                if seen and line.startswith("Internal Hops"):
                    break
                if time.time() > deadline:
                    raise CompareError(f"CNSim took more than {self.a.timeout} s")
        finally:
            p.kill()
            p.wait()
        text = "".join(lines)
        with open(path + ".log", "w") as f:
            f.write(text)
        x = parse_cnsim(text, self.a.packet_size, self.a.measure)
        x["cpu_seconds_at_stats"] = cpu
        return x


def proc_cpu_seconds(pid):
    """User + system CPU seconds of a running process (Linux /proc, clock ticks)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def check_binary(name, path):
    if not path:
        return None
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        raise CompareError(f"--{name} {path}: not an executable file\n{BUILD_HELP[name]}")
    return os.path.abspath(path)


def measure_point(runner, sims, kind, k, load, rounds, log):
    """Runs every simulator `rounds` times, the order rotated each round."""
    results = []
    for i in range(rounds):
        order = sims[i % len(sims):] + sims[:i % len(sims)]
        r = {}
        for s in order:
            r[s] = runner.run(s, kind, k, load)
        results.append(r)
        log(f"{kind}:{k}x{k} load {load:g} round {i + 1}/{rounds}: " + ", ".join(
            f"{LABEL[s]} {cb._si(r[s]['cycles_per_second'])} cycles/s" for s in sims))
    return results


def curve_label(sim, link_hold="flit"):
    """A curve's simulator column: wormcast with --link-hold packet is a
    curve of its own, so both policies can share one CSV (--append)."""
    return LABEL[sim] + (" (link per packet)" if sim == "wormcast" and link_hold == "packet" else "")


def curve_order(label):
    """Sort key of a curve label: the simulators' order, then the label."""
    base = next(k for k, v in LABEL.items() if label == v or label.startswith(v + " ("))
    return SIMULATORS.index(base), label


def write_curves(runner, sims, networks, loads_of, path, log, append=False):
    """One run per simulator and load; a failed or saturated run is recorded
    with its reason (latency empty) instead of stopping the sweep. append:
    add rows to an existing CSV (more loads, or wormcast's other
    --link-hold)."""
    new = not (append and os.path.exists(path))
    with open(path, "w" if new else "a", newline="") as f:
        w = csv.writer(f)
        if new:
            w.writerow(["network", "simulator", "load", "latency", "cycles_per_second",
                        "flit_hops_per_second", "note"])
        for kind, k in networks:
            for load in loads_of(kind):
                for s in sims:
                    why = unsupported(s, kind, runner.a.buffer, runner.a.packet_size,
                                      runner.a.warmup, runner.a.measure)
                    if why:
                        continue
                    label = curve_label(s, runner.a.link_hold)
                    try:
                        x = runner.run(s, kind, k, load)
                        note = "saturated" if x.get("saturated") else ""
                        w.writerow([f"{kind}:{k}x{k}", label, load, x["latency"],
                                    x["cycles_per_second"], x["flit_hops_per_second"], note])
                    except CompareError as e:
                        w.writerow([f"{kind}:{k}x{k}", label, load, "", "", "",
                                    str(e).splitlines()[0]])
                    f.flush()
                    log(f"curve {kind}:{k}x{k} {label} load {load:g} done")


def plot_curves(csv_path, out_prefix, ymax, work, what=""):
    """Per network, latency vs load, one curve per simulator, via scripts/plot.py:
    OUT_PREFIX_mesh.png, OUT_PREFIX_torus.png."""
    with open(csv_path) as f:
        rows = [r for r in csv.DictReader(f) if r["latency"]]
    rows.sort(key=lambda r: (curve_order(r["simulator"]), float(r["load"])))
    for r in rows:   # Noxim's latency is the head flit's (parse_noxim)
        if r["simulator"] == LABEL["noxim"]:
            r["simulator"] += " (head flit)"
    made = []
    for net in sorted({r["network"] for r in rows}):
        sub = os.path.join(work, f"curve_{net.replace(':', '_')}.csv")
        with open(sub, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            w.writeheader()
            w.writerows(r for r in rows if r["network"] == net
                        and float(r["latency"]) <= ymax)
        png = f"{out_prefix}_{net.split(':')[0]}.png"
        subprocess.run(["/usr/bin/python3", os.path.join(HERE, "plot.py"), sub, "--x", "load",
                        "--y", "latency", "--by", "simulator", "--no-err",
                        "--xlabel", "offered load (flits/node/cycle)",
                        "--ylabel", "mean packet latency (cycles)",
                        "--title", f"uniform traffic, {net}{what}", "-o", png], check=True)
        made.append(png)
    return made


def resolve_simulators(args):
    """The simulators to run, in SIMULATORS order; checks the paths."""
    args.booksim = check_binary("booksim", args.booksim)
    args.noxim = check_binary("noxim", args.noxim)
    args.cnsim = check_binary("cnsim", args.cnsim)
    if args.noxim:
        args.noxim_power = os.path.abspath(
            args.noxim_power or os.path.join(os.path.dirname(args.noxim), "power.yaml"))
        if not os.path.isfile(args.noxim_power):
            raise CompareError(f"{args.noxim_power}: no Noxim power.yaml (--noxim-power)")
    sims = [] if args.no_wormcast else ["wormcast"]
    sims += [s for s in SIMULATORS[1:] if getattr(args, s)]
    if args.write_only:
        sims = list(SIMULATORS)
    elif "wormcast" in sims:
        if not os.access(args.wormcast, os.X_OK):
            raise CompareError(f"{args.wormcast}: not executable (build wormcast first, or "
                               f"pass --wormcast)")
        args.wormcast = os.path.abspath(args.wormcast)
    if len(sims) < (1 if args.write_only or args.curves else 2):
        raise CompareError("nothing to compare: give at least one of --booksim, --noxim, "
                           "--cnsim\n\n" + "\n\n".join(BUILD_HELP.values()))
    return sims


def speed_tables(runner, sims, networks, loads, work, log):
    """Rounds of every simulator per network and load -> format_peer_table rows
    (every round also appended to WORK/rounds.json)."""
    args = runner.a
    rows = []
    for kind, k in networks:
        skipped = {}
        run_here = []
        for s in sims:
            why = unsupported(s, kind, args.buffer, args.packet_size, args.warmup, args.measure)
            if why:
                skipped[s] = why
            else:
                run_here.append(s)
        for load in loads:
            rounds = measure_point(runner, run_here, kind, k, load, args.rounds, log)
            with open(os.path.join(work, "rounds.json"), "a") as f:
                f.write(json.dumps({"network": f"{kind}:{k}x{k}", "load": load,
                                    "packet_size": args.packet_size, "buffer": args.buffer,
                                    "num_vcs": args.num_vcs, "rounds": rounds}) + "\n")
            rows.append((f"{kind} {k}x{k}", load, summarize_rounds(rounds), skipped))
    return rows


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter,
                                 epilog="\n\n".join(BUILD_HELP.values()))
    ap.add_argument("--booksim", help="BookSim2 binary (src/booksim)")
    ap.add_argument("--noxim", help="Noxim binary (bin/noxim)")
    ap.add_argument("--noxim-power", help="Noxim power.yaml (default: next to the binary)")
    ap.add_argument("--cnsim", help="CNSim binary (builds/Release/ChipletNetworkSim)")
    ap.add_argument("--wormcast", default=cb.DEFAULT_WORMCAST, help="wormcast binary")
    ap.add_argument("--networks", default="mesh:8x8,torus:8x8", help="mesh:KxK,torus:KxK")
    ap.add_argument("--loads", default="0.08", help="flits/node/cycle, comma-separated")
    ap.add_argument("--torus-loads", help="loads for the tori (default: --loads)")
    ap.add_argument("--packet-size", type=int, default=8, help="flits (default 8)")
    ap.add_argument("--buffer", type=int, default=8, help="flits per VC (default 8)")
    ap.add_argument("--num-vcs", type=int, default=1,
                    help="VCs per channel on a mesh, for wormcast (dor) and the peers (default 1); "
                         "on a torus wormcast (dateline) and BookSim2 (dim_order_torus) get twice "
                         "this, two dateline classes")
    ap.add_argument("--link-hold", choices=["flit", "packet"], default="flit",
                    help="wormcast's router.link_hold: flit (VCs share a link flit by flit, the default) or "
                         "packet (a link carries one packet at a time, as CNSim's; meshes only)")
    ap.add_argument("--warmup", type=int, default=10000)
    ap.add_argument("--measure", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=3, help="rounds of alternated runs (default 3)")
    ap.add_argument("--timeout", type=float, default=900)
    ap.add_argument("--work", default=os.path.join("results", "compare_peers"),
                    help="working directory for configurations and logs (default results/compare_peers)")
    ap.add_argument("--curves", help="write latency-load CSV here (one round per load) "
                                     "and plot it next to it instead of the speed table")
    ap.add_argument("--append", action="store_true",
                    help="with --curves: add the loads to an existing CSV, then plot all")
    ap.add_argument("--curve-ymax", type=float, default=400,
                    help="leave points above this latency out of the plots (default 400)")
    ap.add_argument("--no-wormcast", action="store_true", help="run only the peers")
    ap.add_argument("--write-only", action="store_true", help="write every config; run nothing")
    args = ap.parse_args(argv)

    def log(msg):
        print(msg, file=sys.stderr, flush=True)

    try:
        sims = resolve_simulators(args)
        networks = [parse_network(x) for x in args.networks.split(",") if x]
        loads = [float(x) for x in args.loads.split(",") if x]
        work = os.path.abspath(args.work)
        os.makedirs(work, exist_ok=True)
        runner = Runner(args, work)
        if args.write_only:
            for kind, k in networks:
                for load in loads:
                    for s in sims:
                        if not unsupported(s, kind, args.buffer, args.packet_size, args.warmup,
                                           args.measure):
                            runner.files(s, kind, k, load)
            print(f"wrote files under {work}")
            return 0
        if args.curves:
            torus_loads = ([float(x) for x in args.torus_loads.split(",") if x]
                           if args.torus_loads else loads)
            write_curves(runner, sims, networks,
                         lambda kind: torus_loads if kind == "torus" else loads, args.curves, log,
                         args.append)
            what = f", {args.packet_size}-flit packets, {args.buffer}-flit VCs"
            for png in plot_curves(args.curves, os.path.splitext(args.curves)[0], args.curve_ymax,
                                   work, what):
                print(png)
            return 0
        if "wormcast" in sims:   # the error speed_tables would stop at, before its first round
            for kind, _ in networks:
                check_link_hold(kind, args.link_hold)
        rows = speed_tables(runner, sims, networks, loads, work, log)
        print(format_peer_table(rows), end="")
    except CompareError as e:
        print(f"compare_peers.py: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
