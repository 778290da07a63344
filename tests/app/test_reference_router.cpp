// The reference VC router (router.impl: reference, rtl_models/direct/
// reference_router.h) against the fast one (router.impl: fast, VcRouter):
// two implementations of one microarchitecture, so every result must be
// identical. Three comparisons, each reporting where the two first differ:
//   * whole experiments (meshes, tori, hypercubes, every routing function,
//     VC multiples, delays, link_hold, one-port and all-port processors,
//     "3-way" links, the seed001 multicast workloads with IR and compound
//     worms): metrics, invariants and flit counts, the first differing
//     metric named;
//   * the VCD of every router (flits sent per output and cycle, input VC
//     occupancies): byte-identical, the first differing cycle named;
//   * scripted traffic on hand-built networks (unicast, IR, compound and
//     replicating worms): every delivery at the same cycle, the first
//     differing delivery named.
// The fast router runs with its speed switches as configured (streams and
// run-ahead on by default), the reference one always flit by flit.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "algorithms/compound_header.h"
#include "rtl_models/core/kernel.h"
#include "rtl_models/core/rng.h"
#include "testbenches/app/runner.h"
#include "tests/common/runs.h"
#include "topologies/direct_paths.h"
#include "topologies/networks/direct_network_kind.h"

using namespace wormcast;
using namespace wormcast::rtl;
using namespace wormcast::tb;
using topo::DirectTopology;
using topo::RoutingAlgorithm;

namespace {

// The first path at which a and b differ ("" when equal).
std::string first_difference(const nlohmann::json& a, const nlohmann::json& b, const std::string& path) {
  if (a.is_object() && b.is_object()) {
    for (auto it = a.begin(); it != a.end(); ++it) {
      if (!b.contains(it.key())) return path + "." + it.key() + " (only in fast)";
      const std::string d = first_difference(it.value(), b.at(it.key()), path + "." + it.key());
      if (!d.empty()) return d;
    }
    for (auto it = b.begin(); it != b.end(); ++it)
      if (!a.contains(it.key())) return path + "." + it.key() + " (only in reference)";
    return "";
  }
  if (a.is_array() && b.is_array()) {
    if (a.size() != b.size()) return path + ": " + std::to_string(a.size()) + " != " + std::to_string(b.size()) + " entries";
    for (std::size_t i = 0; i < a.size(); ++i) {
      const std::string d = first_difference(a[i], b[i], path + "[" + std::to_string(i) + "]");
      if (!d.empty()) return d;
    }
    return "";
  }
  return a == b ? "" : path + ": fast " + a.dump() + ", reference " + b.dump();
}

RunResult run_impl(const char* file, std::vector<Override> o, const char* impl, const RunOptions& opt = {}) {
  o.push_back({"router.impl", impl});
  return run_experiment(test::experiment(file, o), opt);
}

// Runs `o` with both routers; the results must be identical.
void check_identical(const char* what, const char* file, const std::vector<Override>& o) {
  INFO(what);
  const RunResult fast = run_impl(file, o, "fast");
  const RunResult ref = run_impl(file, o, "reference");
  INFO("fast: " << (fast.ok ? "ok" : fast.error) << "\nreference: " << (ref.ok ? "ok" : ref.error));
  REQUIRE(fast.ok == ref.ok);
  CHECK(fast.error == ref.error);   // a deadlock report included
  for (const char* part : {"metrics", "invariants"}) {
    const std::string d = first_difference(fast.json.at(part), ref.json.at(part), part);
    INFO("first difference: " << d);
    CHECK(d.empty());
  }
  for (const char* counter : {"router_flit_hops", "flit_moves"})
    CHECK(fast.json.at("performance").at(counter) == ref.json.at("performance").at(counter));
}

std::vector<Override> windows(std::vector<Override> o, const char* warmup = "300", const char* measure = "2000") {
  o.push_back({"sim.warmup", warmup});
  o.push_back({"sim.measure", measure});
  o.push_back({"sim.drain_limit", "20000"});
  return o;
}

const char* mesh = "experiments/direct_mesh_8x8.yaml";

// A VCD without its $date section, split at its time stamps: (cycle, the
// value changes at that time).
std::vector<std::pair<std::string, std::string>> vcd_steps(const std::string& file) {
  std::ifstream in(file);
  std::stringstream all;
  all << in.rdbuf();
  std::string text = all.str();
  const auto date = text.find("$date");
  if (date != std::string::npos) text.erase(date, text.find("$end", date) + 4 - date);
  std::vector<std::pair<std::string, std::string>> steps{{"header", ""}};
  std::istringstream lines(text);
  for (std::string line; std::getline(lines, line);) {
    if (!line.empty() && line[0] == '#') steps.emplace_back(line.substr(1), "");
    else steps.back().second += line + "\n";
  }
  return steps;
}

// The cycle of VCD time stamp `stamp` (in the units of the header's
// $timescale) with a clock period of `period_ps`.
std::string vcd_cycle(const std::string& header, const std::string& stamp, std::uint64_t period_ps) {
  if (stamp == "header") return "(the header)";
  std::istringstream in(header.substr(header.find("$timescale") + 10));
  double value = 1;
  std::string unit;
  in >> value >> unit;
  const double ps = unit == "s" ? 1e12 : unit == "ms" ? 1e9 : unit == "us" ? 1e6 : unit == "ns" ? 1e3 : unit == "fs" ? 1e-3 : 1;
  return std::to_string(static_cast<std::uint64_t>(std::stod(stamp) * value * ps) / period_ps) + " (VCD time " + stamp +
         " x " + std::to_string(static_cast<int>(value)) + " " + unit + ")";
}

// The routers' VCDs of one run with each router: identical time step by
// time step; the first step that differs is reported with both versions.
void check_same_vcd(const char* what, const char* file, const std::vector<Override>& o) {
  INFO(what);
  const auto dir = std::filesystem::temp_directory_path() / ("wormcast_ref_vcd_" + std::to_string(::getpid()));
  std::filesystem::create_directories(dir);
  RunOptions opt;
  opt.vcd_filter = "net.router*";
  std::vector<std::vector<std::pair<std::string, std::string>>> steps;
  for (const char* impl : {"fast", "reference"}) {
    opt.vcd_path = (dir / (std::string(impl) + ".vcd")).string();
    const RunResult r = run_impl(file, o, impl, opt);
    INFO(impl << ": " << r.error);
    REQUIRE(r.ok);
    steps.push_back(vcd_steps(opt.vcd_path));
  }
  std::filesystem::remove_all(dir);
  const auto& a = steps[0];
  const auto& b = steps[1];
  std::size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  if (i < a.size() || i < b.size()) {
    const std::string at = i < a.size() ? a[i].first : b[i].first;
    INFO("first differing VCD time step: cycle " << vcd_cycle(a.front().second, at, test::experiment(file, o).period_ps)
                                                 << "\nfast:\n"
                                     << (i < a.size() ? a[i].second : "(ends)") << "reference:\n"
                                     << (i < b.size() ? b[i].second : "(ends)"));
    CHECK(i == a.size());
    CHECK(i == b.size());
  }
  CHECK(a.size() > 10);   // the run traced something
}

}  // namespace

TEST_CASE("router.impl is a declared parameter, fast by default, and refuses other values", "[reference_router]") {
  const nlohmann::json echo = run_experiment(test::experiment(mesh, windows({{"traffic.load", "0.01"}}, "0", "200")),
                                             {}).json;
  CHECK(echo.at("config").at("router").at("impl") == "fast");
  CHECK_THROWS_WITH(test::experiment(mesh, {{"router.impl", "slow"}}), Catch::Contains("router.impl"));
}

TEST_CASE("reference router: unicast results identical to the fast router", "[reference_router]") {
  struct Case { const char* what; std::vector<Override> o; };
  const std::vector<Case> cases = {
      {"8x8 mesh dor, light", {{"traffic.load", "0.02"}}},
      {"8x8 mesh dor, saturating", {{"traffic.load", "0.5"}, {"traffic.packet_size", "5flits"}}},
      {"8x8 mesh dor, 2 VCs, transpose", {{"router.vcs", "2"}, {"traffic.pattern", "transpose"}, {"traffic.load", "0.3"}}},
      {"4x4 mesh, 1-flit VCs, slow router and links",
       {{"topology.dims", "4x4"}, {"router.buffer", "1flits"}, {"router.route_delay", "2"},
        {"router.crossbar_delay", "2"}, {"router.turn_delay", "3"}, {"link.latency", "2"},
        {"link.credit_delay", "3"}, {"traffic.load", "0.2"}, {"router.vcs", "3"}}},
      {"4x4 torus btr, saturating",
       {{"topology.kind", "torus"}, {"topology.dims", "4x4"}, {"routing.function", "btr"}, {"traffic.load", "0.6"}}},
      {"4x4 torus btr, 6 VCs, ascending, poisson",
       {{"topology.kind", "torus"}, {"topology.dims", "4x4"}, {"routing.function", "btr"}, {"router.vcs", "6"},
        {"routing.order", "ascending"}, {"traffic.process", "poisson"}, {"traffic.load", "0.3"}}},
      {"4x4 torus dateline, 4 VCs, hotspot",
       {{"topology.kind", "torus"}, {"topology.dims", "4x4"}, {"routing.function", "dateline"}, {"router.vcs", "4"},
        {"traffic.pattern", "hotspot"}, {"traffic.load", "0.3"}}},
      {"5x5 unidirectional torus utpr, saturating",
       {{"topology.kind", "torus"}, {"topology.dims", "5x5"}, {"topology.direction", "unidirectional"},
        {"routing.function", "utpr"}, {"traffic.load", "0.5"}}},
      {"4x4 unidirectional torus utr, turn delay",
       {{"topology.kind", "torus"}, {"topology.dims", "4x4"}, {"topology.direction", "unidirectional"},
        {"routing.function", "utr"}, {"router.turn_delay", "2"}, {"traffic.load", "0.2"}}},
      {"5-cube ecube, bit complement",
       {{"topology.kind", "hypercube"}, {"topology.dims", "2x2x2x2x2"}, {"routing.function", "ecube"},
        {"traffic.pattern", "bit_complement"}, {"traffic.load", "0.3"}}},
      {"8x8 mesh link_hold packet, 2 VCs, saturating",
       {{"router.link_hold", "packet"}, {"router.vcs", "2"}, {"traffic.load", "0.5"}}},
      {"5-cube link_hold packet, 16-flit packets",
       {{"topology.kind", "hypercube"}, {"topology.dims", "2x2x2x2x2"}, {"routing.function", "ecube"},
        {"router.link_hold", "packet"}, {"traffic.packet_size", "16flits"}, {"traffic.load", "0.2"}}},
      {"8x8 mesh, speed switches off", {{"sim.streams", "off"}, {"sim.run_ahead", "off"}, {"traffic.load", "0.3"}}},
      // One-cycle hops (route_delay 0: flits readable in their arrival cycle).
      {"8x8 mesh one-cycle hop, saturating",
       {{"router.route_delay", "0"}, {"router.crossbar_delay", "0"}, {"traffic.load", "0.5"},
        {"traffic.packet_size", "5flits"}}},
      {"4x4 mesh one-cycle hop, 1-flit VCs, 2 VCs",
       {{"topology.dims", "4x4"}, {"router.route_delay", "0"}, {"router.crossbar_delay", "0"},
        {"router.buffer", "1flits"}, {"router.vcs", "2"}, {"traffic.load", "0.3"}}},
      {"5x5 unidirectional torus utpr, one-cycle hop, turn delay",
       {{"topology.kind", "torus"}, {"topology.dims", "5x5"}, {"topology.direction", "unidirectional"},
        {"routing.function", "utpr"}, {"router.route_delay", "0"}, {"router.crossbar_delay", "0"},
        {"router.turn_delay", "1"}, {"traffic.load", "0.4"}}},
      {"8x8 mesh link_hold packet, route 0, crossbar 2",
       {{"router.link_hold", "packet"}, {"router.vcs", "2"}, {"router.route_delay", "0"},
        {"router.crossbar_delay", "2"}, {"traffic.load", "0.4"}}},
      {"5-cube route 1, crossbar 0", {{"topology.kind", "hypercube"}, {"topology.dims", "2x2x2x2x2"},
                                      {"routing.function", "ecube"}, {"router.crossbar_delay", "0"},
                                      {"traffic.load", "0.3"}}},
  };
  for (const Case& c : cases) check_identical(c.what, mesh, windows(c.o));
}

TEST_CASE("reference router: processor nodes, one-port and all-port, identical", "[reference_router]") {
  const std::vector<Override> proc = {{"node.model", "processor"}, {"processor.t_s", "5"}, {"processor.t_r", "4"},
                                      {"message.size", "16flits"}, {"traffic.load", "0.05"}};
  auto with = [&](std::vector<Override> more) {
    more.insert(more.begin(), proc.begin(), proc.end());
    return windows(more);
  };
  check_identical("4x4 torus btr, all-port", mesh,
                  with({{"topology.kind", "torus"}, {"topology.dims", "4x4"}, {"routing.function", "btr"},
                        {"router.ports", "all_port"}}));
  check_identical("8x8 mesh, one-port, in-order sends", mesh, with({{"processor.send_model", "in_order"}}));
  check_identical("4-cube all-port, saturating", mesh,
                  with({{"topology.kind", "hypercube"}, {"topology.dims", "2x2x2x2"}, {"routing.function", "ecube"},
                        {"router.ports", "all_port"}, {"traffic.load", "0.2"}}));
  check_identical("8x8 mesh all-port, link_hold packet", mesh,
                  with({{"router.ports", "all_port"}, {"router.link_hold", "packet"}, {"router.vcs", "2"}}));
}

TEST_CASE("reference router: 3-way shared links identical", "[reference_router]") {
  check_identical("4x4 mesh, bidirectional wires, saturating", mesh,
                  windows({{"topology.dims", "4x4"}, {"router.link_sharing", "bidirectional"}, {"router.vcs", "2"},
                           {"traffic.load", "0.4"}}));
  check_identical("4x4 torus btr, bidirectional wires", mesh,
                  windows({{"topology.kind", "torus"}, {"topology.dims", "4x4"}, {"routing.function", "btr"},
                           {"router.link_sharing", "bidirectional"}, {"traffic.load", "0.2"}}));
  check_identical("4x4 mesh, bidirectional wires, one-cycle hop", mesh,
                  windows({{"topology.dims", "4x4"}, {"router.link_sharing", "bidirectional"}, {"router.vcs", "2"},
                           {"router.route_delay", "0"}, {"router.crossbar_delay", "0"}, {"traffic.load", "0.4"}}));
}

TEST_CASE("reference router: seed001 multicast workloads (IR and compound worms) identical", "[reference_router]") {
  struct Case { const char* file; const char* scheme; const char* r; };
  const Case cases[] = {
      {"experiments/seed001/path_torus.yaml", "storus", nullptr},
      {"experiments/seed001/path_torus.yaml", "mdtorus", nullptr},
      {"experiments/seed001/path_torus.yaml", "mutorus", "4"},
      {"experiments/seed001/hypercube.yaml", "wsort", nullptr},
      {"experiments/seed001/hypercube.yaml", "maxport", nullptr},
      {"experiments/seed001/utorus.yaml", "utorus", nullptr},
  };
  for (const Case& c : cases)
    for (const char* hop : {"1", "0"}) {   // route_delay 1 (3-cycle hops) and 0 (with crossbar 0: one-cycle hops)
      std::vector<Override> o = {{"traffic.scheme", c.scheme}, {"traffic.trials", "3"}, {"traffic.set_size", "20"},
                                 {"router.route_delay", hop}, {"router.crossbar_delay", hop}};
      if (c.r) o.push_back({"traffic.r", c.r});
      check_identical((std::string(c.scheme) + ", route and crossbar delay " + hop).c_str(), c.file, o);
    }
}

// Many multicasts at once (direct_multicast_load): IR worms meet at their
// destinations' ejection channels; with router.ejection per_link they
// deadlock there, and both routers must stop with the same report.
TEST_CASE("reference router: multicasts under load, per-link and per-VC ejection, identical", "[reference_router]") {
  for (const char* ejection : {"per_link", "per_vc"})
    for (const char* scheme : {"storus", "mdtorus"}) {
      const std::vector<Override> o = {{"traffic.scheme", scheme}, {"traffic.load", "0.01"},
                                       {"router.ejection", ejection}, {"sim.warmup", "1000"},
                                       {"sim.measure", "6000"}, {"sim.watchdog", "2000"}};
      check_identical((std::string(scheme) + ", ejection " + ejection).c_str(),
                      "experiments/load/torus_multicast_load.yaml", o);
    }
}

TEST_CASE("reference router: the routers' VCDs are identical cycle by cycle", "[reference_router]") {
  const std::vector<Override> small = {{"topology.dims", "4x4"}, {"traffic.load", "0.4"}, {"sim.warmup", "0"},
                                       {"sim.measure", "600"}, {"sim.drain_limit", "5000"}};
  auto with = [&](std::vector<Override> more) {
    more.insert(more.begin(), small.begin(), small.end());
    return more;
  };
  check_same_vcd("4x4 mesh dor, 2 VCs", mesh, with({{"router.vcs", "2"}}));
  check_same_vcd("4x4 torus dateline", mesh, with({{"topology.kind", "torus"}, {"routing.function", "dateline"}}));
  check_same_vcd("4x4 mesh link_hold packet", mesh, with({{"router.link_hold", "packet"}, {"router.vcs", "2"}}));
  check_same_vcd("4x4 mesh bidirectional wires", mesh, with({{"router.link_sharing", "bidirectional"}}));
  check_same_vcd("4x4 mesh one-cycle hop, 2 VCs", mesh,
                 with({{"router.vcs", "2"}, {"router.route_delay", "0"}, {"router.crossbar_delay", "0"}}));
  check_same_vcd("4x4 torus utpr, all-port processors", mesh,
                 with({{"topology.kind", "torus"}, {"topology.direction", "unidirectional"},
                       {"routing.function", "utpr"}, {"node.model", "processor"}, {"router.ports", "all_port"},
                       {"message.size", "8flits"}, {"traffic.load", "0.1"}}));
}

namespace {

struct Delivery {
  Cycle at;
  NodeId node, src;
  int length, header_flits;
  Cycle created;
  bool operator==(const Delivery& o) const {
    return at == o.at && node == o.node && src == o.src && length == o.length && header_flits == o.header_flits &&
           created == o.created;
  }
};

// What a node sends in the script: a unicast packet, an IR worm (plain or
// with a compound header) or a replicating worm, created at `cycle`.
struct Send {
  Cycle cycle;
  NodeId src;
  PacketPtr pkt;
};

PacketPtr unicast(NodeId dst, int length) {
  auto pk = std::make_shared<Packet>();
  pk->header.dest = dst;
  pk->length = length;
  return pk;
}

PacketPtr ir_worm(const std::vector<NodeId>& order, int body) {
  auto pk = std::make_shared<Packet>();
  pk->header.kind = HeaderKind::multicast;
  pk->header.dests = order;
  pk->header_flits = topo::ir_header_flits(static_cast<int>(order.size()));
  pk->length = pk->header_flits + body;
  return pk;
}

PacketPtr compound_worm(const std::vector<NodeId>& order, int body) {
  std::vector<algo::CompoundBlock> blocks;
  for (std::size_t i = 0; i < order.size(); ++i)   // every other destination serves one later node
    blocks.push_back({order[i], i % 2 == 0 && order[i] != 0 ? std::vector<NodeId>{0} : std::vector<NodeId>{}});
  auto pk = std::make_shared<Packet>();
  pk->header.kind = HeaderKind::multicast;
  pk->header.dests = order;
  pk->header.compound = std::make_shared<const std::vector<NodeId>>(algo::encode_compound_header(blocks));
  pk->header_flits = algo::compound_header_flits(blocks);
  pk->length = pk->header_flits + body;
  return pk;
}

PacketPtr tree_worm(std::vector<NodeId> dests, int length) {
  auto pk = std::make_shared<Packet>();
  pk->header.kind = HeaderKind::multicast;
  pk->header.direct_tree = true;
  pk->header.dests = std::move(dests);
  pk->length = length;
  return pk;
}

// Runs the script on a fresh network with router.impl `impl`; every
// delivery in the order the sinks saw them.
std::vector<Delivery> play(const DirectTopology& t, RoutingAlgorithm a, topo::DirectNetworkParams p, const char* impl,
                           const std::vector<Send>& script, Cycle until) {
  fresh_kernel();
  SimContext ctx(5000);
  p.router_impl = impl;
  topo::DirectNetwork net("net", std::make_shared<const topo::DirectRouting>(t, a), p, ctx);
  std::vector<Delivery> got;
  for (int n = 0; n < net.num_nodes(); ++n)
    net.endpoint(n).on_receive = [&, n](const Packet& pk, Cycle now) {
      got.push_back({now, n, pk.src, pk.length, pk.header_flits, pk.created});
    };
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  std::size_t next = 0;
  for (Cycle c = 0; c < until; ++c) {
    for (; next < script.size() && script[next].cycle == c; ++next) {
      auto pk = std::make_shared<Packet>(*script[next].pkt);   // each run its own copy
      net.endpoint(script[next].src).inject(pk);
    }
    sc_core::sc_start(ctx.clock.delay(1));
  }
  got.push_back({ctx.clock.now(), -1, -1, static_cast<int>(ctx.ledger.outstanding()),
                 static_cast<int>(net.flits_in_network()), 0});   // the end: outstanding packets, flits
  return got;
}

// `complete`: every packet must be delivered; otherwise both must stop in
// the same state (the same deliveries, packets and flits left).
void check_same_deliveries(const DirectTopology& t, RoutingAlgorithm a, const topo::DirectNetworkParams& p,
                           const std::vector<Send>& script, Cycle until, bool complete = true) {
  const std::vector<Delivery> fast = play(t, a, p, "fast", script, until);
  const std::vector<Delivery> ref = play(t, a, p, "reference", script, until);
  std::size_t i = 0;
  while (i < fast.size() && i < ref.size() && fast[i] == ref[i]) ++i;
  auto show = [&](const std::vector<Delivery>& v) {
    if (i >= v.size()) return std::string("(no more deliveries)");
    const Delivery& d = v[i];
    if (d.node < 0)
      return "end at cycle " + std::to_string(d.at) + ": " + std::to_string(d.length) + " packets outstanding, " +
             std::to_string(d.header_flits) + " flits in the network";
    return "cycle " + std::to_string(d.at) + ": at " + t.name(d.node) + " from " + t.name(d.src) + ", " +
           std::to_string(d.length) + " flits (" + std::to_string(d.header_flits) + " header), created " +
           std::to_string(d.created);
  };
  INFO("first differing delivery #" << i << "\nfast:      " << show(fast) << "\nreference: " << show(ref));
  CHECK(i == fast.size());
  CHECK(i == ref.size());
  CHECK(fast.size() > 1);   // something was delivered before the end
  if (!complete) return;
  CHECK(fast.back().length == 0);         // every packet delivered
  CHECK(fast.back().header_flits == 0);   // no flit left in the network
}

// A seeded script: each node sends with probability `rate` per cycle, a
// kind drawn by `draw` (which may return null: nothing this cycle).
template <class Draw>
std::vector<Send> script(int nodes, Cycle cycles, double rate, std::uint64_t seed, Draw draw) {
  Rng rng(seed);
  std::vector<Send> s;
  for (Cycle c = 1; c < cycles; ++c)
    for (NodeId x = 0; x < nodes; ++x)
      if (rng.uniform() < rate)
        if (PacketPtr pk = draw(rng, x)) s.push_back({c, x, pk});
  return s;
}

}  // namespace

// One-port nodes: an IR worm at an intermediate destination holds the
// node's only ejection channel while its forward channel may wait, so a
// worm for that node that holds what the forward channel waits for closes a
// cycle (the consumption assumption does not hold; the seed001 schemes run
// IR on all-port nodes). Under load both routers must then stop in the same
// state; lightly loaded, every worm is delivered.
TEST_CASE("reference router: IR and compound worms on a UTPR torus deliver at the same cycles", "[reference_router]") {
  const DirectTopology t = DirectTopology::torus({5, 5}, false);
  const topo::DirectRouting routing(t, RoutingAlgorithm::utpr);
  const int n = t.num_nodes();
  for (const double rate : {0.0005, 0.002})
  for (const bool compound : {false, true}) {
    INFO((compound ? "compound headers" : "plain IR headers") << ", rate " << rate);
    const auto sends = script(n, 1500, rate, compound ? 11 : 7, [&](Rng& rng, NodeId x) -> PacketPtr {
      if (rng.uniform() < 0.2) {
        NodeId d = static_cast<NodeId>(rng.below(static_cast<std::uint64_t>(n)));
        return d == x ? nullptr : unicast(d, 1 + static_cast<int>(rng.below(8)));
      }
      std::vector<NodeId> dests;
      for (NodeId d = 0; d < n; ++d)
        if (d != x && rng.uniform() < 0.12) dests.push_back(d);
      if (dests.empty()) return nullptr;
      const auto order = topo::ir_visiting_order(routing, x, dests);
      const int body = 1 + static_cast<int>(rng.below(12));
      return compound ? compound_worm(order, body) : ir_worm(order, body);
    });
    for (int buffer : {1, 2, 4})
      for (Cycle hop : {1, 0}) {   // route and crossbar delay: 0 is the one-cycle hop
        INFO("buffer " << buffer << ", route and crossbar delay " << hop);
        topo::DirectNetworkParams p;
        p.router.buffer_flits = buffer;
        p.router.turn_delay = buffer == 2 ? 1 : 0;
        p.router.route_delay = p.router.crossbar_delay = hop;
        check_same_deliveries(t, RoutingAlgorithm::utpr, p, sends, 5000, rate < 0.001);
      }
  }
}

TEST_CASE("reference router: replicating worms on a mesh deliver at the same cycles", "[reference_router]") {
  const DirectTopology t = DirectTopology::mesh({4, 4});
  const int n = t.num_nodes();
  const auto sends = script(n, 1500, 0.004, 5, [&](Rng& rng, NodeId x) -> PacketPtr {
    std::vector<NodeId> dests;
    for (NodeId d = 0; d < n; ++d)
      if (d != x && rng.uniform() < 0.3) dests.push_back(d);
    if (dests.empty()) return nullptr;
    return tree_worm(dests, 2 + static_cast<int>(rng.below(6)));
  });
  for (Cycle hop : {1, 0}) {
    INFO("route and crossbar delay " << hop);
    topo::DirectNetworkParams p;
    p.router.buffer_flits = 4;
    p.router.replication = true;
    p.router.route_delay = p.router.crossbar_delay = hop;
    check_same_deliveries(t, RoutingAlgorithm::dor, p, sends, 4000);
  }
}

TEST_CASE("reference router: a deadlock is reported with the same blocked VCs", "[reference_router]") {
  // One VC on a unidirectional ring (Fig. 2.4) closes a dependency cycle:
  // both routers must stop at the same cycle with the same report, and
  // nothing may run after the watchdog's stop (the reference router works
  // on its blocked flits in every cycle; the scheduler runs no cycle ahead
  // once the run is stopped).
  check_identical("broken single-VC ring", mesh,
                  {{"topology.kind", "torus"}, {"topology.dims", "[6]"}, {"topology.direction", "unidirectional"},
                   {"routing.function", "broken_single_vc_ring"}, {"routing.check", "never"},
                   {"traffic.load", "0.8"}, {"traffic.packet_size", "8flits"}, {"router.buffer", "2flits"},
                   {"sim.warmup", "0"}, {"sim.measure", "3000"}, {"sim.watchdog", "500"}});
}
