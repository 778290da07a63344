// More VCs than the routing needs (router.vcs = m x the routing's classes)
// and the 2-class dateline routing, simulated: a worm passes a blocked one on
// the second VC of its class at exactly the zero-load latency, saturation
// throughput rises with a second VC, exactly-once and flit conservation at
// saturation, dateline zero-load latency against the formula of
// docs/direct_networks.md, and bad router.vcs values.
//
// Golden values by hand: h hops cost link + (h + 1) x (route + crossbar +
// link) + L - 1 cycles on an idle path (docs/direct_networks.md, "Zero-load
// latency"); dateline's hop count is Σ min(Δ, k - Δ).
#include <catch2/catch.hpp>

#include "rtl_models/core/kernel.h"
#include "testbenches/app/runner.h"
#include "tests/common/runs.h"
#include "topologies/networks/direct_network_kind.h"

using namespace wormcast;
using namespace wormcast::rtl;
using topo::Direction;
using topo::DirectTopology;
using topo::RoutingAlgorithm;

namespace {

// Default timing: route 1, crossbar 1, link 1.
Cycle zero_load(int hops, int length) { return 1 + static_cast<Cycle>(hops + 1) * 3 + static_cast<Cycle>(length - 1); }

std::vector<tb::Override> saturating(const char* kind, const char* dims, const char* routing, const char* vcs) {
  // Every source offers 0.9 flits/cycle until 8 packets wait in its queue:
  // the network runs saturated, then must drain completely.
  return {{"topology.kind", kind},       {"topology.dims", dims},       {"routing.function", routing},
          {"router.vcs", vcs},           {"traffic.load", "0.9"},       {"traffic.packet_size", "8"},
          {"router.buffer", "4"},        {"sim.warmup", "300"},         {"sim.measure", "2000"},
          {"sim.drain_limit", "20000"},  {"traffic.source_queue", "8"}};
}

}  // namespace

TEST_CASE("with 2 VCs on a dor mesh a worm passes a blocked worm on the second VC at zero-load latency") {
  // 8x8 mesh, dor (dimension 1 first, then 0). C: (3,4) -> (3,3), 1000
  // flits, holds (3,3)'s ejection channel. A: (3,1) -> (3,3) along
  // (3,1) -> (3,2) -> (3,3), blocked at (3,3) behind C, holding the channel
  // (3,2) -> (3,3). B: (3,2) -> (3,5), h = 3, needs (3,2) -> (3,3) too.
  // With one VC B waits for A's tail, which waits for C's; with two it takes
  // VC 1 of that channel, whose link A (stalled, no credits) leaves idle.
  const DirectTopology t = DirectTopology::mesh({8, 8});
  auto routing = std::make_shared<const topo::DirectRouting>(t, RoutingAlgorithm::dor);
  const NodeId c_src = t.parse_node("(3,4)"), dst = t.parse_node("(3,3)"), a_src = t.parse_node("(3,1)");
  const NodeId b_src = t.parse_node("(3,2)"), b_dst = t.parse_node("(3,5)");
  constexpr int kB = 8;
  for (const int vcs : {1, 2}) {
    fresh_kernel();
    SimContext ctx(20000);
    topo::DirectNetworkParams p;
    p.router.vcs = vcs;
    p.router.buffer_flits = 4;   // covers the credit round trip: a lone worm streams
    topo::DirectNetwork net("net", routing, p, ctx);
    Cycle b_latency = 0;
    net.endpoint(b_dst).on_receive = [&](const Packet& pk, Cycle now) { b_latency = now - pk.created; };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    auto send = [&](NodeId s, NodeId d, int length) {
      auto pk = std::make_shared<Packet>();
      pk->header.dest = d;
      pk->length = length;
      net.endpoint(s).inject(pk);
    };
    send(c_src, dst, 1000);
    sc_core::sc_start(ctx.clock.delay(5));
    send(a_src, dst, 200);
    sc_core::sc_start(ctx.clock.delay(100));   // A is stalled behind C, its buffers full
    send(b_src, b_dst, kB);
    sc_core::sc_start(ctx.clock.delay(3000));
    INFO("router.vcs " << vcs);
    REQUIRE(ctx.ledger.outstanding() == 0);
    if (vcs == 2) {
      CHECK(b_latency == zero_load(3, kB));
      CHECK(net.channel_link(b_src, 0, Direction::plus)->flits_sent(1) == kB);
    } else {
      CHECK(b_latency > 900);   // behind C's 1000 flits and A's 200
    }
  }
}

TEST_CASE("a second VC raises the saturation throughput of uniform traffic on an 8x8 dor mesh") {
  // Offered 0.5 flits/node/cycle, above the 1-VC mesh's saturation (about
  // 0.27, docs/direct_networks.md), with unbounded source queues: the
  // accepted throughput of the measurement window is what the network
  // carries. A second VC lets a worm pass one blocked on the same channel.
  std::vector<double> accepted;
  for (const char* vcs : {"1", "2"}) {
    const auto r = test::run_with({{"topology.kind", "mesh"},      {"topology.dims", "8x8"},
                               {"router.vcs", vcs},            {"traffic.load", "0.5"},
                               {"traffic.packet_size", "8"},   {"router.buffer", "4"},
                               {"sim.warmup", "500"},          {"sim.measure", "2000"},
                               {"sim.drain_limit", "50000"}});
    INFO("router.vcs " << vcs);
    test::check_delivered_exactly_once(r, 51);
    accepted.push_back(r.json.at("metrics").at("accepted_throughput").get<double>());
  }
  INFO("accepted flits/node/cycle with 1 VC " << accepted[0] << ", with 2 VCs " << accepted[1]);
  CHECK(accepted[0] < 0.5);
  CHECK(accepted[1] > 1.2 * accepted[0]);
}

TEST_CASE("several VCs per class and dateline deliver exactly once and conserve flits at saturation") {
  struct Case { const char* kind; const char* dims; const char* direction; const char* routing; const char* vcs; };
  const Case cases[] = {{"torus", "4x4", "bidirectional", "dateline", "0"},
                        {"torus", "8x8", "bidirectional", "dateline", "0"},
                        {"torus", "3x5", "bidirectional", "dateline", "4"},
                        {"torus", "4x4", "bidirectional", "btr", "6"},
                        {"torus", "4x4", "unidirectional", "utpr", "4"},
                        {"torus", "4x4", "unidirectional", "utr", "4"},
                        {"mesh", "4x4", nullptr, "dor", "3"}};
  for (const Case& c : cases) {
    auto o = saturating(c.kind, c.dims, c.routing, c.vcs);
    if (c.direction) o.push_back({"topology.direction", c.direction});
    INFO(c.kind << " " << c.dims << " " << c.routing << " router.vcs " << c.vcs);
    const auto r = test::run_with(o);
    test::check_delivered_exactly_once(r, 51);
    CHECK(r.json.at("metrics").at("saturated").get<bool>());
  }
}

TEST_CASE("dateline zero-load latency equals the formula with shortest hops both ways round") {
  for (const auto& dims : {std::vector<int>{4, 4}, std::vector<int>{3, 5}}) {
    const DirectTopology t = DirectTopology::torus(dims, true);
    auto routing = std::make_shared<const topo::DirectRouting>(t, RoutingAlgorithm::dateline);
    fresh_kernel();
    SimContext ctx(5000);
    topo::DirectNetworkParams p;
    p.router.buffer_flits = 4;
    topo::DirectNetwork net("net", routing, p, ctx);
    Cycle latency = 0;
    for (int n = 0; n < net.num_nodes(); ++n)
      net.endpoint(n).on_receive = [&](const Packet& pk, Cycle now) { latency = now - pk.created; };
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    for (NodeId s = 0; s < t.num_nodes(); ++s)
      for (NodeId d = 0; d < t.num_nodes(); ++d) {
        if (s == d) continue;
        int h = 0;
        for (int dim = 0; dim < t.dimensions(); ++dim) {
          const int k = t.radix(dim), fwd = ((t.sigma(d, dim) - t.sigma(s, dim)) % k + k) % k;
          h += std::min(fwd, k - fwd);
        }
        sc_core::sc_start(ctx.clock.delay(5));   // as test_direct_network.cpp: not in the start-up cycle
        auto pk = std::make_shared<Packet>();
        pk->header.dest = d;
        pk->length = 6;
        net.endpoint(s).inject(pk);
        sc_core::sc_start(ctx.clock.delay(60));
        INFO(t.spec() << " " << t.name(s) << " -> " << t.name(d));
        REQUIRE(ctx.ledger.outstanding() == 0);
        CHECK(latency == zero_load(h, 6));
      }
  }
}

TEST_CASE("router.vcs that is not a multiple of the routing's classes is a clear error") {
  CHECK_THAT(test::config_error({{"topology.kind", "torus"}, {"topology.direction", "bidirectional"}, {"router.vcs", "4"}}),
             Catch::Contains("router.vcs: 4") && Catch::Contains("btr") && Catch::Contains("multiple of 3"));
  CHECK_THAT(test::config_error({{"topology.kind", "torus"}, {"topology.direction", "bidirectional"},
                         {"routing.function", "dateline"}, {"router.vcs", "3"}}),
             Catch::Contains("router.vcs: 3") && Catch::Contains("multiple of 2"));
  CHECK_THAT(test::config_error({{"topology.kind", "mesh"}, {"routing.function", "dateline"}}),
             Catch::Contains("routing.function 'dateline'") && Catch::Contains("mesh has none"));
  CHECK(test::config_error({{"topology.kind", "mesh"}, {"router.vcs", "2"}}) == "no error");
  CHECK(test::config_error({{"topology.kind", "torus"}, {"topology.direction", "bidirectional"},
                    {"routing.function", "dateline"}, {"router.vcs", "4"}}) == "no error");
}
