// Switch-based multicast (seed000 §5) through the whole model: the SSR /
// multi-drop and reachability-string decoders in the switches, worms with
// their real encoded headers, host software (node.model host_ni) or endpoints
// sending and relaying them (workload single_multicast, traffic.scheme).
// Every run is checked by the runner: each packet and message reaches each
// destination exactly once, flits are conserved (branches that rewrite or
// strip their header included), no deadlock. Branch legality (never up after
// down, BRCP) is checked on the same worms before simulation with the
// independent checker of algorithms/worm_check.h.
#include <catch2/catch.hpp>

#include <string>
#include <vector>

#include "algorithms/multiphase.h"
#include "algorithms/reachability.h"
#include "algorithms/worm_check.h"
#include "rtl_models/core/kernel.h"
#include "rtl_models/node/traffic.h"
#include "rtl_models/core/worm_packet.h"
#include "testbenches/app/config.h"
#include "testbenches/app/runner.h"
#include "topologies/networks/elaborator.h"
#include "topologies/topology_io.h"

using namespace wormcast;
using namespace wormcast::tb;

namespace {

struct Case {
  explicit Case(std::string s, std::string model = "endpoint") : scheme(std::move(s)), node_model(std::move(model)) {}
  std::string scheme;
  std::string node_model;
  int topo_seed = 1, source = 0, set_size = 8, reps = 2, size = 64;
  std::string selection = "deterministic";
  std::string drop_id = "switch_id";
  std::string destinations;
};

std::vector<Override> overrides(const Case& c) {
  const algo::SwitchScheme& scheme = algo::switch_scheme(c.scheme);
  std::vector<Override> o = {
      {"node.model", c.node_model},
      {"topology.seed", std::to_string(c.topo_seed)},
      {"switch.decoder", scheme.decoder()},
      {"switch.drop_id", c.drop_id},
      {"routing.selection", c.selection},
      {"traffic.kind", "single_multicast"},
      {"traffic.scheme", c.scheme},
      {"traffic.source", std::to_string(c.source)},
      {"traffic.set_size", std::to_string(c.set_size)},
      {"traffic.repetitions", std::to_string(c.reps)},
      {"message.size", std::to_string(c.size)},
      {"sim.warmup", "0"},
      {"sim.measure", "1"},
      {"sim.drain_limit", "3000000"}};
  if (!c.destinations.empty()) o.push_back({"traffic.destinations", c.destinations});
  return o;
}

RunResult run_case(const Case& c) { return run_experiment(load_experiment("", overrides(c)), RunOptions{}); }

// The destinations the run used (metrics.multicast.set).
std::vector<int> used_dests(const RunResult& r) {
  return r.json["metrics"]["multicast"]["set"]["destinations"].get<std::vector<int>>();
}

// Every worm of the scheme, checked with the independent legality checker.
void check_legal(const Case& c, const std::vector<int>& dests) {
  const ExperimentConfig cfg = load_experiment("", overrides(c));
  const topo::Topology t = build_topology(cfg);
  const topo::UpDownRouting r(t);
  if (c.scheme == "tree") {
    const auto tables = algo::compute_reachability(t, r);
    const auto trace = algo::run_tree_worm(t, r, tables, c.source, dests);
    const auto problems = algo::check_tree_trace(t, r.root(), trace, dests);
    INFO((problems.empty() ? "" : problems.front()));
    REQUIRE(problems.empty());
    return;
  }
  const auto sched = c.scheme == "path-greedy" ? algo::Scheduler::greedy : algo::Scheduler::less_greedy;
  const algo::Schedule s = c.scheme == "ssr" ? algo::plan_ssr(t, r, c.source, dests, sched)
                                             : algo::plan_path_based(t, r, c.source, dests, sched);
  const auto problems = algo::check_schedule(t, r.root(), s, dests);
  INFO((problems.empty() ? "" : problems.front()));
  REQUIRE(problems.empty());
}

void require_complete(const Case& c) {
  INFO("scheme " << c.scheme << " node " << c.node_model << " topo seed " << c.topo_seed << " source " << c.source
                 << " set " << c.set_size << " selection " << c.selection << " id " << c.drop_id);
  const RunResult r = run_case(c);
  INFO(r.error);
  REQUIRE(r.error.empty());
  REQUIRE(r.json["metrics"]["multicast"]["latency_cycles"]["count"] == c.reps);
  REQUIRE(r.json["metrics"]["multicast"]["latency_cycles"]["mean"].get<double>() > 0);
  check_legal(c, used_dests(r));
}

}  // namespace

TEST_CASE("switch-based schemes deliver exactly once on random topologies (endpoints)") {
  int i = 0;
  for (const std::string scheme : {"tree", "path-lg", "path-greedy", "ssr"})
    for (int seed = 1; seed <= 6; ++seed)
      for (int set : {2, 7, 20, 32}) {
        Case c{scheme};
        c.topo_seed = seed;
        c.source = (seed * 7 + set) % 32;
        c.set_size = set;
        c.selection = (++i % 3 == 0) ? "adaptive" : (i % 3 == 1 ? "round_robin" : "deterministic");
        c.drop_id = i % 2 ? "node_id" : "switch_id";
        require_complete(c);
      }
}

TEST_CASE("switch-based schemes deliver exactly once with host and NI software (host_ni)") {
  for (const std::string scheme : {"tree", "path-lg", "path-greedy", "ssr"})
    for (int seed : {2, 5}) {
      Case c{scheme, "host_ni"};
      c.topo_seed = seed;
      c.source = 3 * seed;
      c.set_size = 12;
      c.size = 300;   // three NI packets, each its own worm
      c.selection = "adaptive";
      require_complete(c);
    }
}

TEST_CASE("host_ni worm latency covers t_hs, t_ns, t_nr and t_hr") {
  Case c{"tree", "host_ni"};
  c.set_size = 5;
  c.reps = 1;
  c.size = 32;
  const RunResult r = run_case(c);
  INFO(r.error);
  REQUIRE(r.error.empty());
  // One worm: the source's t_hs and t_ns, the last receiver's t_nr and t_hr
  // (1000 cycles each by default), with the I/O-bus DMA and the network on
  // top (tens of cycles for 32 bytes on an idle network).
  const double lat = r.json["metrics"]["multicast"]["latency_cycles"]["mean"];
  CHECK(lat > 4000);
  CHECK(lat < 4400);
}

// The runner reports a configuration error as a failed run with the message.
std::string failure(const std::vector<Override>& o) {
  try {
    const RunResult r = run_experiment(load_experiment("", o), RunOptions{});
    return r.ok ? std::string() : r.error;
  } catch (const std::exception& e) {
    return e.what();
  }
}

TEST_CASE("bad switch-based multicasts are refused with a clear error") {
  Case c{"path-lg"};
  c.destinations = "3,0,5";   // contains the source
  CHECK_THAT(failure(overrides(c)), Catch::Contains("destination 0 is the source"));
  c.destinations = "3,99";
  CHECK_THAT(failure(overrides(c)), Catch::Contains("destination 99 is not a node"));
  Case t{"tree"};
  t.size = 600;   // 600 payload flits + 5 header flits (N = 32: 33 bits) fit in 640
  CHECK(failure(overrides(t)).empty());
  auto o = overrides(t);
  o.push_back({"switch.buffer", "40"});
  o.push_back({"endpoint.rx_buffer", "40"});
  for (auto& [k, v] : o)
    if (k == "message.size") v = "37";   // 5 header flits + 37 = 42 > 40
  CHECK_THAT(failure(o), Catch::Contains("a worm of 42 flits") && Catch::Contains("switch.buffer (40 flits)"));
  Case wrong{"tree"};
  auto w = overrides(wrong);
  for (auto& [k, v] : w)
    if (k == "switch.decoder") v = "ssr";
  CHECK_THAT(failure(w), Catch::Contains("needs switch.decoder: reachability"));
}

TEST_CASE("worm planning refuses an empty set, an unknown node and the source as destination") {
  const topo::Topology t = topo::generate_irregular({});
  const topo::UpDownRouting r(t);
  for (const char* name : {"tree", "path-lg", "ssr"}) {
    const algo::SwitchScheme& s = algo::switch_scheme(name);
    CHECK_THROWS_AS(s.source_worms(t, r, algo::SsrId::switch_id, 0, {}, 8), std::invalid_argument);
    CHECK_THROWS_AS(s.source_worms(t, r, algo::SsrId::switch_id, 0, {1, 40}, 8), std::invalid_argument);
    CHECK_THROWS_AS(s.source_worms(t, r, algo::SsrId::switch_id, 0, {1, 0}, 8), std::invalid_argument);
  }
}

// Golden timing, computed by hand from the switch timing of seed000 §7.2
// (docs/architecture.md): a switch decodes a header once all of it has
// arrived, so with H_f header flits a hop costs (H_f - 1) + route_delay +
// crossbar_delay + link.latency cycles for the head, and the tail follows
// L - 1 cycles after it. Topology experiments/seed000/topologies/two_switch_10.yaml:
// sw0 (root) - sw1; node 0 (source) and node 3 on sw1, node 1 on sw0;
// N = 10 nodes -> tree header 11 bits -> H_f = 2 one-byte flits.
// The worm to {1, 3} goes up to sw0 (sw1 cannot reach node 1), which copies
// it to node 1 and back down to sw1, which delivers to node 3:
//   node 1: 2 switches, node 3: 3 switches.
TEST_CASE("golden cycle count of one tree worm on a two-switch network") {
  const topo::Topology t = topo::load_topology(std::string(WORMCAST_SOURCE_DIR) +
                                               "/experiments/seed000/topologies/two_switch_10.yaml");
  struct Timing { Cycle route, xbar, link; };
  for (const Timing tm : {Timing{1, 1, 1}, Timing{2, 1, 3}}) {
    rtl::fresh_kernel();
    rtl::SimContext ctx(5000);
    topo::NetworkParams np;
    np.sw.route_delay = tm.route;
    np.sw.crossbar_delay = tm.xbar;
    np.link.latency = tm.link;
    np.decoder = "reachability";
    topo::Network net("net", t, std::make_shared<const topo::UpDownRouting>(t), np, ctx, Rng(1));
    std::map<int, Cycle> tail;
    for (int n = 0; n < net.num_nodes(); ++n)
      net.endpoint(n).on_receive = [&tail, n](const rtl::Packet& p, Cycle now) { tail[n] = now - p.created; };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    sc_core::sc_start(ctx.clock.delay(5));
    const int payload = 30, hf = 2, length = hf + payload;
    auto worms = algo::switch_scheme("tree").source_worms(t, net.routing(), algo::SsrId::switch_id, 0, {1, 3},
                                   payload);
    REQUIRE(worms.size() == 1);
    REQUIRE(worms[0].header_bits.size() == 11);
    auto p = rtl::make_worm(worms[0].encoding, worms[0].header_bits, worms[0].dests, payload);
    REQUIRE(p->header_flits == hf);
    REQUIRE(p->length == length);
    net.endpoint(0).inject(p);
    sc_core::sc_start(ctx.clock.delay(500));
    REQUIRE(ctx.ledger.outstanding() == 0);
    REQUIRE(net.flits_in_network() == 0);
    const Cycle hop = (hf - 1) + tm.route + tm.xbar + tm.link;
    CHECK(tail.size() == 2);
    CHECK(tail[1] == tm.link + 2 * hop + (length - 1));
    CHECK(tail[3] == tm.link + 3 * hop + (length - 1));
    if (tm.route == 1 && tm.link == 1) {   // the same numbers written out
      CHECK(tail[1] == 40);
      CHECK(tail[3] == 44);
    }
  }
}

namespace {
RunResult run_load(const std::string& scheme, const std::string& model, int degree, double load, int topo_seed) {
  std::vector<Override> o = {{"node.model", model},
                             {"topology.seed", std::to_string(topo_seed)},
                             {"traffic.kind", "multicast_load"},
                             {"traffic.scheme", scheme},
                             {"traffic.degree", std::to_string(degree)},
                             {"traffic.load", std::to_string(load)},
                             {"message.size", "64"},
                             {"routing.selection", "adaptive"},
                             {"sim.warmup", "2000"},
                             {"sim.measure", model == "host_ni" ? "60000" : "20000"},
                             {"sim.drain_limit", "2000000"}};
  if (scheme != "ni") o.push_back({"switch.decoder", algo::switch_scheme(scheme).decoder()});
  else o.push_back({"ni.firmware", "fpfs"});
  return run_experiment(load_experiment("", o), RunOptions{});
}
}  // namespace

TEST_CASE("multicast load: every scheme delivers exactly once under load without deadlock") {
  for (const std::string scheme : {"tree", "path-lg", "path-greedy", "ssr"})
    for (int degree : {3, 15})
      for (int seed : {1, 4}) {
        INFO(scheme << " degree " << degree << " topology seed " << seed);
        const RunResult r = run_load(scheme, "endpoint", degree, 0.004, seed);
        INFO(r.error);
        REQUIRE(r.ok);
        const auto& m = r.json["metrics"]["multicast"];
        CHECK(m["completed"] == m["created"]);
        CHECK(m["created"].get<int>() > 20);
        CHECK(m["latency_cycles"]["count"].get<int>() > 0);
        CHECK(m["effective_load"].get<double>() == Approx(degree * 0.004));
      }
}

TEST_CASE("multicast load with host and NI software: switch-based and NI-based schemes") {
  for (const std::string scheme : {"tree", "path-lg", "ni"}) {
    INFO(scheme);
    const RunResult r = run_load(scheme, "host_ni", 3, 0.002, 2);
    INFO(r.error);
    REQUIRE(r.ok);
    const auto& m = r.json["metrics"]["multicast"];
    CHECK(m["completed"] == m["created"]);
    CHECK(m["latency_cycles"]["count"].get<int>() > 0);
    CHECK(m["latency_cycles"]["mean"].get<double>() > 4000);   // t_hs + t_ns + t_nr + t_hr at least
  }
}

// Worms of every scheme among uniform unicast background traffic at 40% of
// the unicast saturation throughput (about 0.18 flits/cycle/node, spec §7.5),
// on the endpoint model built directly: each worm source and relay injects at
// once; afterwards every packet is delivered, flits are conserved and the
// watchdog never tripped.
TEST_CASE("switch-based worms under uniform background load: exactly once, no deadlock") {
  for (const std::string name : {"tree", "path-lg", "path-greedy", "ssr"})
    for (std::uint64_t seed : {3, 8}) {
      INFO(name << " topology seed " << seed);
      const algo::SwitchScheme& scheme = algo::switch_scheme(name);
      topo::IrregularParams gp;
      gp.seed = seed;
      const topo::Topology t = topo::generate_irregular(gp);
      rtl::fresh_kernel();
      rtl::SimContext ctx(5000);
      topo::NetworkParams np;
      np.decoder = "multicast";
      np.selection = rtl::PortSelection::adaptive;
      topo::Network net("net", t, std::make_shared<const topo::UpDownRouting>(t), np, ctx, Rng(seed));
      rtl::TrafficParams tp;
      tp.load = 0.07;
      tp.packet_size = 64;
      for (int n = 0; n < t.num_nodes(); ++n)
        net.endpoint(n).set_source(std::make_unique<rtl::SyntheticSource>(tp, n, t.num_nodes(), Rng(seed).fork(n)));
      // Relays inject on receipt (endpoints: no software overhead).
      std::uint64_t worms = 0;
      for (int n = 0; n < t.num_nodes(); ++n)
        net.endpoint(n).on_receive = [&, n](const rtl::Packet& p, Cycle) {
          for (const auto& w : scheme.relay_worms(t, algo::SsrId::switch_id, p.header.relay_worm.get(), n, 48)) {
            auto q = rtl::make_worm(w.encoding, w.header_bits, w.dests, w.bytes);
            q->header.relay_worm = w.relay_worm;
            net.endpoint(n).inject(q);
            ++worms;
          }
        };
      sc_core::sc_start(sc_core::SC_ZERO_TIME);
      Rng pick(seed * 11);
      for (int round = 0; round < 12; ++round) {
        sc_core::sc_start(ctx.clock.delay(700));
        const int src = static_cast<int>(pick.below(32));
        std::vector<int> dests;
        for (int d = 0; d < 32 && dests.size() < 3 + static_cast<std::size_t>(round); ++d)
          if (d != src && pick.below(2)) dests.push_back(d);
        if (dests.empty()) continue;
        for (const auto& w : scheme.source_worms(t, net.routing(), algo::SsrId::switch_id, src, dests, 48)) {
          auto q = rtl::make_worm(w.encoding, w.header_bits, w.dests, w.bytes);
          q->header.relay_worm = w.relay_worm;
          net.endpoint(src).inject(q);
          ++worms;
        }
      }
      for (int n = 0; n < t.num_nodes(); ++n) net.endpoint(n).stop_creating_at(ctx.clock.now());
      sc_core::sc_start(ctx.clock.delay(60000));
      INFO(net.watchdog().report());
      REQUIRE_FALSE(net.watchdog().tripped());
      CHECK(worms >= 12);
      // Background: 0.07 / 64 packets per cycle per node over 12 x 700 cycles,
      // about 290 unicasts, besides the worms.
      CHECK(ctx.ledger.completed() > 200 + worms);
      CHECK(ctx.ledger.outstanding() == 0);
      CHECK(net.flits_in_network() == 0);
      CHECK(static_cast<std::int64_t>(ctx.flits.injected) + ctx.flits.extra_copies ==
            static_cast<std::int64_t>(ctx.flits.ejected));
    }
}

TEST_CASE("host.overheads packet charges t_hs and t_hr once per NI packet of the message") {
  // A tree multicast is one worm: the source host's t_hs comes before it is
  // posted and each destination host's t_hr after its message is in memory,
  // and nothing else waits for either, so charging them per 128-byte packet
  // instead of per message adds exactly (packets - 1) * (t_hs + t_hr) =
  // (packets - 1) * 2000 cycles to the latency (defaults t_hs = t_hr = 1000).
  struct Size { int bytes, packets; };
  for (const Size s : {Size{128, 1}, Size{129, 2}, Size{1024, 8}}) {
    Case c("tree", "host_ni");
    c.size = s.bytes;
    c.reps = 1;
    double latency[2] = {0, 0};
    for (int per_packet = 0; per_packet < 2; ++per_packet) {
      auto o = overrides(c);
      o.push_back({"host.overheads", per_packet ? "packet" : "message"});
      const RunResult r = run_experiment(load_experiment("", o), RunOptions{});
      INFO(r.error);
      REQUIRE(r.ok);
      latency[per_packet] = r.json.at("metrics").at("multicast").at("latency_cycles").at("mean").get<double>();
    }
    INFO(s.bytes << " bytes");
    CHECK(latency[1] - latency[0] == Approx((s.packets - 1) * 2000.0));
  }
}
