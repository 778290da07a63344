// Message replication on the direct router (seed001 §1.6, behind
// router.replication; not deadlock-free, for comparison only): a tree-shaped
// worm split at routers reaches each destination exactly once. Golden values
// by hand: with streaming buffers and no other traffic every branch follows
// the unicast route and the flits leave all branches in lock-step, so
// destination d's tail arrives 1 + (h + 1) * 3 + (L - 1) cycles after
// creation, h = the dor hops from the source (Σ |Δσ| on a mesh).
#include <catch2/catch.hpp>

#include <map>

#include "rtl_models/core/kernel.h"
#include "topologies/networks/direct_network_kind.h"

using namespace wormcast;
using namespace wormcast::rtl;
using topo::DirectTopology;
using topo::RoutingAlgorithm;

namespace {
PacketPtr tree_worm(std::vector<NodeId> dests, int L) {
  auto pk = std::make_shared<Packet>();
  pk->header.kind = HeaderKind::multicast;
  pk->header.direct_tree = true;
  pk->header.dests = std::move(dests);
  pk->header_flits = 1;
  pk->length = L;
  return pk;
}
}  // namespace

TEST_CASE("a replicating worm is refused while router.replication is off") {
  fresh_kernel();
  SimContext ctx(5000);
  const DirectTopology t = DirectTopology::mesh({2, 2});
  topo::DirectNetwork net("net", std::make_shared<const topo::DirectRouting>(t, RoutingAlgorithm::dor),
                          topo::DirectNetworkParams{}, ctx);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  net.endpoint(0).inject(tree_worm({1, 2}, 4));
  CHECK_THROWS_WITH(sc_core::sc_start(ctx.clock.delay(50)), Catch::Contains("router.replication is off"));
}

TEST_CASE("replication and the shared bidirectional wire cannot be combined") {
  fresh_kernel();
  SimContext ctx(5000);
  topo::DirectNetworkParams p;
  p.router.replication = true;
  p.router.link_sharing = "bidirectional";
  CHECK_THROWS_WITH(topo::DirectNetwork("net", std::make_shared<const topo::DirectRouting>(
                                                   DirectTopology::mesh({2, 2}), RoutingAlgorithm::dor), p, ctx),
                    Catch::Contains("cannot be combined"));
}

TEST_CASE("a replicating worm on a 4x4 mesh reaches every destination exactly once, on time") {
  fresh_kernel();
  SimContext ctx(5000);
  const DirectTopology t = DirectTopology::mesh({4, 4});
  topo::DirectNetworkParams p;
  p.router.buffer_flits = 4;
  p.router.replication = true;
  topo::DirectNetwork net("net", std::make_shared<const topo::DirectRouting>(t, RoutingAlgorithm::dor), p, ctx);
  std::map<NodeId, int> copies;
  std::map<NodeId, Cycle> latency;
  for (int x = 0; x < net.num_nodes(); ++x)
    net.endpoint(x).on_receive = [&, x](const Packet& pk, Cycle now) {
      ++copies[x];
      latency[x] = now - pk.created;
      CHECK(pk.length == 10);
    };
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  sc_core::sc_start(ctx.clock.delay(5));
  // From (1,1): (1,3) 2 hops, (3,1) 2, (3,3) 4, (0,0) 2, (1,0) 1, (2,2) 2.
  const std::map<std::string, int> hops{{"(1,3)", 2}, {"(3,1)", 2}, {"(3,3)", 4},
                                        {"(0,0)", 2}, {"(1,0)", 1}, {"(2,2)", 2}};
  std::vector<NodeId> dests;
  for (const auto& [name, h] : hops) dests.push_back(t.parse_node(name));
  net.endpoint(t.parse_node("(1,1)")).inject(tree_worm(dests, 10));
  sc_core::sc_start(ctx.clock.delay(300));
  REQUIRE(ctx.ledger.outstanding() == 0);
  REQUIRE(net.flits_in_network() == 0);
  CHECK(copies.size() == hops.size());
  for (const auto& [name, h] : hops) {
    INFO(name);
    CHECK(copies[t.parse_node(name)] == 1);
    CHECK(latency[t.parse_node(name)] == static_cast<Cycle>(1 + (h + 1) * 3 + 9));
  }
  CHECK(ctx.flits.injected + static_cast<std::uint64_t>(ctx.flits.extra_copies) == ctx.flits.ejected);
}
