// Testbench of the direct-network multicast schemes: seed001's hypercube
// (U-cube, Maxport, Combine, W-sort), torus (U-torus) and path-based IR
// (S-torus, M_d-torus, M_u-torus(r)) schemes, and seed004's SCI schemes. It
// runs one multicast from a source to a set of destinations on the
// cycle-accurate model (routers, processor nodes with t_S / t_R, the scheme
// as software on the processors) and prints, side by side, the planner's
// steps for that set (the step model, as `wormcast plan`) and what the
// simulation did: when each message was posted and when it was whole at its
// (last) destination, and when each destination held the message. It
// checks that every destination received the message exactly once (besides
// the run's own ledgers, flit conservation and deadlock watchdog) and can
// dump a VCD of the routers and nodes.
//
//   direct_multicast_tb --scheme mdtorus [--topology torus:8x8:uni] [--source 0]
//                       [--dests '(1,2),(3,0)' | --degree 15 --seed 1] [--size 64] [--r 4]
//                       [--t-s 20 --t-r 16] [--buffer 4] [--vcd FILE [--vcd-filter 'net.router5']]
//
// Each family runs with the settings of its experiments (experiments/seed001,
// experiments/seed004/sci_torus.yaml); docs/direct_networks.md, "Testbenches".
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <random>
#include <sstream>
#include <systemc>

#include "testbenches/lib/config.h"
#include "testbenches/lib/direct_multicast_workload.h"
#include "testbenches/lib/plan_command.h"
#include "testbenches/lib/runner.h"
#include "topologies/direct_io.h"

using namespace wormcast;

namespace {

// One family of schemes: the network and node settings its experiments use.
struct Family {
  std::vector<std::string> schemes;
  std::string about;
  std::string topology;                        // default --topology
  std::string routing_uni, routing_bi;         // routing.function by direction
  std::vector<tb::Override> settings;          // router, processor, clock, message size
};

const std::vector<Family>& families() {
  static const std::vector<Family> f = {
      {{"ucube", "maxport", "combine", "wsort"},
       "seed001 Ch. 3: hypercube, E-cube routing, all-port processors",
       "hypercube:6", "ecube", "ecube",
       {{"router.ports", "all_port"}, {"router.buffer", "4flits"}, {"processor.t_s", "20"},
        {"processor.t_r", "16"}, {"message.size", "64"}}},
      {{"utorus"},
       "seed001 Ch. 4: torus, unicast-based on the R-chain, UTR (BTR when bidirectional), one-port",
       "torus:8x8:uni", "utr", "btr",
       {{"router.ports", "one_port"}, {"router.buffer", "4flits"}, {"processor.t_s", "20"},
        {"processor.t_r", "16"}, {"message.size", "64"}}},
      {{"storus", "mdtorus", "mutorus"},
       "seed001 Ch. 6: unidirectional torus, path-based IR worms, UTPR, all-port",
       "torus:8x8:uni", "utpr", "utpr",
       {{"router.ports", "all_port"}, {"router.buffer", "4flits"}, {"processor.t_s", "20"},
        {"processor.t_r", "16"}, {"message.size", "64"}}},
      {{"sci-separate", "sci-utorus", "sci-storus", "sci-mdtorus", "sci-mutorus"},
       "seed004: 4x4 SCI torus, unicasts relayed store-and-forward by polling hosts in 64-byte packets",
       "torus:4x4:uni", "utr", "btr",
       {{"clock.period", "4ns"}, {"routing.order", "ascending"}, {"router.ports", "one_port"},
        {"router.buffer", "8flits"}, {"router.route_delay", "2"}, {"router.crossbar_delay", "2"},
        {"processor.t_s", "40"}, {"processor.t_r", "150"}, {"processor.packet_bytes", "64"},
        {"processor.header_flits", "16"}, {"message.size", "2"}}},
  };
  return f;
}

const Family& family_of(const std::string& scheme) {
  for (const Family& f : families())
    if (std::find(f.schemes.begin(), f.schemes.end(), scheme) != f.schemes.end()) return f;
  throw std::invalid_argument("unknown scheme '" + scheme + "'");
}

std::vector<std::string> all_schemes() {
  std::vector<std::string> s;
  for (const Family& f : families()) s.insert(s.end(), f.schemes.begin(), f.schemes.end());
  return s;
}

std::vector<std::string> split(const std::string& text) {
  // "(1,2),(3,0)" or "3,7,12" or "0110,1001": commas inside parentheses stay.
  std::vector<std::string> out;
  std::string cur;
  int depth = 0;
  for (char c : text) {
    if (c == '(') ++depth;
    if (c == ')') --depth;
    if (c == ',' && depth == 0) {
      out.push_back(cur);
      cur.clear();
    } else if (c != ' ') {
      cur += c;
    }
  }
  if (!cur.empty()) out.push_back(cur);
  return out;
}

// A node by number ("5") or by name ("(1,1)", "0101"; for hypercubes a
// name with only the digits 0 and 1 and n of them).
topo::NodeId node_of(const topo::DirectTopology& t, const std::string& text) {
  const bool digits = !text.empty() && text.find_first_not_of("0123456789") == std::string::npos;
  const bool cube_name = t.kind() == topo::DirectKind::hypercube && text.size() == static_cast<std::size_t>(t.dimensions()) &&
                         text.find_first_not_of("01") == std::string::npos;
  if (!digits || cube_name) return t.parse_node(text);
  const long long n = std::stoll(text);
  if (n >= t.num_nodes())
    throw std::invalid_argument("node " + text + " is not a node of " + t.spec() + " (0.." +
                                std::to_string(t.num_nodes() - 1) + ")");
  return static_cast<topo::NodeId>(n);
}

// The destinations: --dests as given, or --degree nodes other than the
// source drawn with --seed.
std::vector<topo::NodeId> destinations(const topo::DirectTopology& t, topo::NodeId source, const std::string& dests,
                                       int degree, std::uint64_t seed) {
  std::vector<topo::NodeId> d;
  if (!dests.empty()) {
    for (const std::string& s : split(dests)) d.push_back(node_of(t, s));
    return d;
  }
  if (degree < 1 || degree > t.num_nodes() - 1)
    throw std::invalid_argument("--degree " + std::to_string(degree) + ": must be 1.." +
                                std::to_string(t.num_nodes() - 1) + " on " + t.spec());
  for (topo::NodeId x = 0; x < t.num_nodes(); ++x)
    if (x != source) d.push_back(x);
  std::mt19937_64 rng(seed);
  std::shuffle(d.begin(), d.end(), rng);
  d.resize(static_cast<std::size_t>(degree));
  return d;
}

std::string joined(const topo::DirectTopology& t, const std::vector<topo::NodeId>& nodes) {
  std::string s;
  for (topo::NodeId x : nodes) s += (s.empty() ? "" : ",") + t.name(x);
  return s;
}

std::string indented(const std::string& text) {
  std::istringstream in(text);
  std::string line, out;
  while (std::getline(in, line)) out += "  " + line + "\n";
  return out;
}

// What the simulation did, from the workload's record of its (only) trial.
void print_timeline(const topo::DirectTopology& t, const tb::DirectMulticastWorkload::Run& run, std::ostream& out) {
  int i = 0;
  for (const auto& [id, x] : run.transfers)
    out << "  message " << ++i << ": sent by " << t.name(x.sender) << ", posted at cycle " << x.posted - run.start
        << " (after t_S), whole at its " << (run.family == tb::DirectMulticastWorkload::Run::Family::mtorus ? "last " : "")
        << "destination at cycle " << x.arrived - run.start << "\n";
  std::vector<std::pair<Cycle, topo::NodeId>> got;
  for (std::size_t k = 0; k < run.got_at.size(); ++k) got.push_back({run.got_at[k] - run.start, run.got_node[k]});
  std::sort(got.begin(), got.end());
  for (const auto& [c, n] : got) out << "  " << t.name(n) << " holds the message at cycle " << c << " (after t_R)\n";
}

// Every destination exactly once, nothing else.
void check_received(const topo::DirectTopology& t, std::vector<topo::NodeId> want,
                    std::vector<topo::NodeId> got) {
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  if (want != got)
    throw std::runtime_error("the destinations that received the message (" + joined(t, got) +
                             ") are not the set (" + joined(t, want) + ")");
}

}  // namespace

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char* argv[]) {
  CLI::App app{"direct_multicast_tb: one seed001 / seed004 multicast on the cycle-accurate direct network, "
               "next to its plan"};
  std::string scheme, topology, source_text = "0", dests, vcd, vcd_filter = "*";
  int degree = 15, size = 0, r = 0, t_s = -1, t_r = -1, buffer = 0;
  std::uint64_t seed = 1;
  app.add_option("--scheme", scheme, "the multicast scheme")->required()->check(CLI::IsMember(all_schemes()));
  app.add_option("--topology", topology, "torus:KxK:uni|bi, mesh:KxK or hypercube:N (default: the scheme's)");
  app.add_option("--source", source_text, "source node: a number or a name such as (1,2) or 0110");
  app.add_option("--dests", dests, "destinations, e.g. 3,7,12 or (1,2),(3,0) (default: --degree random ones)");
  app.add_option("--degree", degree, "number of random destinations (default 15)");
  app.add_option("--seed", seed, "seed of the random destinations");
  app.add_option("--size", size, "message size in bytes (default: the scheme's experiments)");
  app.add_option("--r", r, "mutorus: partitions per phase (default 4); sci-mutorus: nodes per partition");
  app.add_option("--t-s", t_s, "send overhead t_S in cycles (default: the scheme's)");
  app.add_option("--t-r", t_r, "receive overhead t_R in cycles");
  app.add_option("--buffer", buffer, "flits per VC buffer");
  app.add_option("--vcd", vcd, "write a VCD waveform");
  app.add_option("--vcd-filter", vcd_filter, "glob on module names to trace, e.g. 'net.router5' or 'net.node*'");
  CLI11_PARSE(app, argc, argv);
  spdlog::set_level(spdlog::level::warn);
  try {
    const Family& fam = family_of(scheme);
    if (topology.empty()) topology = fam.topology;
    const topo::DirectTopology t = topo::parse_direct_spec(topology);
    const topo::NodeId source = node_of(t, source_text);
    const std::vector<topo::NodeId> dset = destinations(t, source, dests, degree, seed);
    if (scheme == "mutorus" && r == 0) r = 4;

    // The plan, as `wormcast plan` prints it.
    tb::PlanCliArgs pa;
    pa.scheme = scheme;
    pa.topology = topology;
    pa.source = t.name(source);
    pa.dests = joined(t, dset);
    if (r != 0) pa.options.r = r;
    std::ostringstream plan_text, plan_err;
    if (tb::run_plan(pa, plan_text, plan_err) != 0) {   // "wormcast: error: ...\n"
      std::string e = plan_err.str();
      const std::string prefix = "wormcast: error: ";
      if (e.rfind(prefix, 0) == 0) e.erase(0, prefix.size());
      while (!e.empty() && e.back() == '\n') e.pop_back();
      throw std::invalid_argument(e);
    }

    // The same multicast, simulated.
    const char* kind = t.is_torus() ? "torus" : t.kind() == topo::DirectKind::mesh ? "mesh" : "hypercube";
    std::vector<tb::Override> o = {{"topology.kind", kind}};
    std::string dims;
    for (int d = t.dimensions() - 1; d >= 0; --d) dims += (dims.empty() ? "" : ", ") + std::to_string(t.radix(d));
    o.push_back({"topology.dims", "[" + dims + "]"});
    if (t.is_torus()) o.push_back({"topology.direction", t.bidirectional() ? "bidirectional" : "unidirectional"});
    o.push_back({"routing.function", t.bidirectional() ? fam.routing_bi : fam.routing_uni});
    o.push_back({"node.model", "processor"});
    o.insert(o.end(), fam.settings.begin(), fam.settings.end());
    if (size > 0) o.push_back({"message.size", std::to_string(size)});
    if (t_s >= 0) o.push_back({"processor.t_s", std::to_string(t_s)});
    if (t_r >= 0) o.push_back({"processor.t_r", std::to_string(t_r)});
    if (buffer > 0) o.push_back({"router.buffer", std::to_string(buffer) + "flits"});
    o.insert(o.end(), {{"traffic.kind", "direct_multicast"}, {"traffic.scheme", scheme},
                       {"traffic.source", std::to_string(source)}, {"traffic.destinations", joined(t, dset)},
                       {"traffic.trials", "1"}, {"sim.warmup", "0"}, {"sim.measure", "1"},
                       {"sim.drain_limit", "200000000"}});
    if (r != 0) o.push_back({"traffic.r", std::to_string(r)});
    const tb::ExperimentConfig cfg = tb::load_experiment("", o);

    std::ostringstream timeline;
    std::vector<topo::NodeId> received;
    tb::RunOptions opt;
    opt.vcd_path = vcd;
    opt.vcd_filter = vcd_filter;
    opt.inspect = [&](const tb::Workload& w) {
      const auto& run = dynamic_cast<const tb::DirectMulticastWorkload&>(w).run();
      print_timeline(t, run, timeline);
      received = run.got_node;
    };
    const tb::RunResult res = tb::run_experiment(cfg, opt);
    if (!res.ok) {
      std::cerr << "direct_multicast_tb: " << res.error << "\n";
      return res.exit_code ? res.exit_code : 3;
    }
    check_received(t, dset, received);
    const auto& m = res.json["metrics"]["multicast"];
    std::cout << "direct_multicast_tb: " << scheme << " on " << t.spec() << " (" << fam.about << ")\n"
              << "plan (algorithms/, unit steps):\n" << indented(plan_text.str())
              << "simulated (cycle-accurate; cycles from the multicast's start):\n" << timeline.str()
              << "  every destination received the message exactly once (" << dset.size() << " destinations, "
              << m["messages"] << (m["messages"].get<int>() == 1 ? " message)\n" : " messages)\n")
              << "  latency " << m["latency_cycles"]["max"] << " cycles to the last destination, "
              << std::fixed << std::setprecision(1) << m["mean_latency_cycles"]["mean"].get<double>()
              << " on average over the destinations\n";
    if (!vcd.empty()) std::cout << "  waveform: " << vcd << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "direct_multicast_tb: error: " << e.what() << "\n";
    return 2;
  }
}
