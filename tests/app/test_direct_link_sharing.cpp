// The "3-way" option (seed001 §5.2, router.link_sharing: bidirectional): the
// VCs of both directions between two routers share one wire flit by flit.
// Golden values by hand on a 2-node line (mesh:2, one hop), streaming buffers
// (4 flits), default timing, an L-flit packet: alone it arrives
//   1 + (1 + 1) * 3 + (L - 1) = L + 6
// cycles after creation (docs/direct_networks.md). Two packets crossing the
// wire in opposite directions at once: per direction, each has its own link
// (L + 6 both). Shared: the flits alternate on the wire, side 0 (node 0)
// first, so node 0's tail leaves L - 1 cycles late (2L + 5) and node 1's
// head one cycle late and its tail L cycles late (2L + 6).
#include <catch2/catch.hpp>

#include <map>

#include "rtl_models/core/kernel.h"
#include "topologies/networks/direct_network_kind.h"

using namespace wormcast;
using namespace wormcast::rtl;
using topo::DirectTopology;
using topo::RoutingAlgorithm;

namespace {

// Latency per receiving node of one L-flit packet from each sender in
// `senders` to the other node, all created in the same cycle.
std::map<NodeId, Cycle> cross(const std::string& sharing, const std::vector<NodeId>& senders, int L) {
  fresh_kernel();
  SimContext ctx(5000);
  const DirectTopology t = DirectTopology::mesh({2});
  topo::DirectNetworkParams p;
  p.router.buffer_flits = 4;
  p.router.link_sharing = sharing;
  topo::DirectNetwork net("net", std::make_shared<const topo::DirectRouting>(t, RoutingAlgorithm::dor), p, ctx);
  std::map<NodeId, Cycle> got;
  for (int n = 0; n < 2; ++n)
    net.endpoint(n).on_receive = [&, n](const Packet& pk, Cycle now) {
      CHECK(got.count(n) == 0);
      got[n] = now - pk.created;
    };
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  sc_core::sc_start(ctx.clock.delay(5));
  for (NodeId s : senders) {
    auto pk = std::make_shared<Packet>();
    pk->header.dest = 1 - s;
    pk->length = L;
    net.endpoint(s).inject(pk);
  }
  sc_core::sc_start(ctx.clock.delay(200));
  REQUIRE(ctx.ledger.outstanding() == 0);
  REQUIRE(net.flits_in_network() == 0);
  if (sharing == "bidirectional") REQUIRE(net.shared_links.size() == 1);
  return got;
}

}  // namespace

TEST_CASE("3-way off: two opposite worms on one node pair do not interfere") {
  for (int L : {1, 2, 8, 20}) {
    INFO("L = " << L);
    CHECK(cross("per_direction", {0, 1}, L) == std::map<NodeId, Cycle>{{0, L + 6}, {1, L + 6}});
  }
}

TEST_CASE("3-way on: two opposite worms share the wire and get half the bandwidth each") {
  for (int L : {2, 8, 20}) {
    INFO("L = " << L);
    // node 1 receives node 0's worm, node 0 receives node 1's.
    CHECK(cross("bidirectional", {0, 1}, L) == std::map<NodeId, Cycle>{{1, 2 * L + 5}, {0, 2 * L + 6}});
  }
}

TEST_CASE("3-way on: a worm alone on the wire keeps the full bandwidth") {
  CHECK(cross("bidirectional", {0}, 20) == std::map<NodeId, Cycle>{{1, 26}});
  CHECK(cross("bidirectional", {1}, 20) == std::map<NodeId, Cycle>{{0, 26}});
}

TEST_CASE("3-way needs channels in both directions") {
  fresh_kernel();
  SimContext ctx(5000);
  const DirectTopology t = DirectTopology::torus({4}, false);
  topo::DirectNetworkParams p;
  p.router.link_sharing = "bidirectional";
  CHECK_THROWS_WITH(topo::DirectNetwork("net", std::make_shared<const topo::DirectRouting>(t, RoutingAlgorithm::utr),
                                        p, ctx),
                    Catch::Contains("needs channels in both directions"));
}
