// Zero-load latency of a single packet equals the analytical value exactly:
//   link + H * (route_delay + crossbar_delay + link) + (L - 1)
// for a packet of L flits crossing H switches (head pipeline per hop, then
// serialisation of the body). The formula is written here from the timing
// definitions in seed000 §7.2, independently of the switch code.
#include <catch2/catch.hpp>

#include "rtl_models/core/kernel.h"
#include "testbenches/app/runner.h"
#include "topologies/networks/elaborator.h"
#include "../node/node_fixture.h"

using namespace wormcast;
using namespace wormcast::rtl;

namespace {

topo::Topology chain() { return test::chain3(); }

struct Timing { Cycle route, xbar, link; int length; };

Cycle analytic(const Timing& tm, int switches_crossed) {
  return tm.link + static_cast<Cycle>(switches_crossed) * (tm.route + tm.xbar + tm.link) +
         static_cast<Cycle>(tm.length - 1);
}

// Sends one packet at a time (each after the previous has arrived and the
// network is idle again) and returns the measured latencies.
std::vector<Cycle> measure(const topo::Topology& t, const Timing& tm, const std::vector<std::pair<int, int>>& pairs) {
  fresh_kernel();
  SimContext ctx(5000);
  topo::NetworkParams np;
  np.sw.route_delay = tm.route;
  np.sw.crossbar_delay = tm.xbar;
  np.link.latency = tm.link;
  auto routing = std::make_shared<const topo::UpDownRouting>(t);
  topo::Network net("net", t, routing, np, ctx, Rng(1));
  std::vector<Cycle> lat;
  for (int n = 0; n < net.num_nodes(); ++n)
    net.endpoint(n).on_receive = [&](const Packet& p, Cycle now) {
      CHECK(p.injected == p.created);   // idle source: the head leaves at once
      lat.push_back(now - p.created);
    };
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  for (auto [src, dst] : pairs) {
    sc_core::sc_start(ctx.clock.delay(10));
    auto p = std::make_shared<Packet>();
    p->header.dest = dst;
    p->length = tm.length;
    net.endpoint(src).inject(p);
    sc_core::sc_start(ctx.clock.delay(analytic(tm, 3) + 500));
    REQUIRE(ctx.ledger.outstanding() == 0);
    REQUIRE(net.flits_in_network() == 0);
  }
  return lat;
}

}  // namespace

TEST_CASE("zero-load latency, default timing (1-cycle route, crossbar, link), 128 flits") {
  const Timing tm{1, 1, 1, 128};
  const auto lat = measure(chain(), tm, {{0, 3}, {0, 2}, {0, 1}, {1, 0}});
  REQUIRE(lat.size() == 4);
  CHECK(lat[0] == 131);   // 1 switch:  1 + 3 + 127
  CHECK(lat[1] == 134);   // 2 switches
  CHECK(lat[2] == 137);   // 3 switches
  CHECK(lat[3] == 137);
}

TEST_CASE("zero-load latency follows each timing parameter") {
  for (const Timing tm : {Timing{2, 3, 4, 16}, Timing{1, 1, 5, 1}, Timing{3, 1, 1, 64}, Timing{1, 2, 1, 2}}) {
    const auto lat = measure(chain(), tm, {{0, 3}, {3, 2}, {0, 1}, {2, 1}});
    REQUIRE(lat.size() == 4);
    CHECK(lat[0] == analytic(tm, 1));
    CHECK(lat[1] == analytic(tm, 2));
    CHECK(lat[2] == analytic(tm, 3));
    CHECK(lat[3] == analytic(tm, 2));
  }
}

TEST_CASE("zero-load latency on the default irregular network, every source/destination pair") {
  tb::ExperimentConfig cfg;   // seed000 defaults: 8 switches x 8 ports, 32 nodes, 80%
  const topo::Topology t = tb::build_topology(cfg);
  const topo::UpDownRouting r(t);
  std::vector<std::pair<int, int>> pairs;
  std::vector<Cycle> expected;
  const Timing tm{1, 1, 1, 128};
  for (int s = 0; s < t.num_nodes(); ++s)
    for (int d = 0; d < t.num_nodes(); ++d) {
      if (s == d) continue;
      pairs.emplace_back(s, d);
      const int hops = r.distance(t.node_attach[s].sw, topo::Phase::may_go_up, t.node_attach[d].sw);
      expected.push_back(analytic(tm, hops + 1));
    }
  const auto lat = measure(t, tm, pairs);
  REQUIRE(lat.size() == expected.size());
  CHECK(lat == expected);
}
