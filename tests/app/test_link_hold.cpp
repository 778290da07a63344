// router.link_hold: packet (the link allocated per packet, as CNSim does):
// a worm that has started on a physical output keeps it until its tail has
// left, and a worm on another VC of that output waits instead of sharing the
// link flit by flit; saturating traffic stays exactly-once and deadlock-free;
// the options that do not follow the policy are refused.
//
// Golden values by hand, default timing (route 1, crossbar 1, link 1) and
// streaming buffers: h hops cost 1 + (h + 1) x 3 + (L - 1) cycles on an idle
// path (docs/direct_networks.md, "Zero-load latency").
#include <catch2/catch.hpp>

#include "rtl_models/core/kernel.h"
#include "tests/common/runs.h"
#include "topologies/networks/direct_network_kind.h"

using namespace wormcast;
using namespace wormcast::rtl;
using topo::Direction;
using topo::DirectTopology;
using topo::RoutingAlgorithm;

namespace {

Cycle zero_load(int hops, int length) { return 1 + static_cast<Cycle>(hops + 1) * 3 + static_cast<Cycle>(length - 1); }

struct TwoWorms {
  Cycle a_latency = 0, b_latency = 0;
  std::uint64_t b_flits_while_a = 0;  // B's flits on 2->3 when A's tail reached node 5
  std::vector<std::string> blocked;   // the deadlock report's lines 20 cycles after the start
};

// A line of 8 routers (a 1-D mesh), dor, 2 VCs per channel: A = 2 -> 5
// (3 hops) and B = 1 -> 3 (2 hops), both created in the same cycle; both
// cross 2->3, then A goes on and B leaves at 3. A's header reaches router
// 2's output one router (3 cycles) before B's, so A starts on 2->3 first
// (VC 0) and B takes VC 1.
TwoWorms two_worms(const std::string& hold, int la, int lb) {
  const DirectTopology line = DirectTopology::mesh({8});
  auto routing = std::make_shared<const topo::DirectRouting>(line, RoutingAlgorithm::dor);
  fresh_kernel();
  SimContext ctx(5000);
  topo::DirectNetworkParams p;
  p.router.vcs = 2;
  p.router.buffer_flits = 4;  // covers the credit round trip: a lone worm streams
  p.router.link_hold = hold;
  topo::DirectNetwork net("net", routing, p, ctx);
  TwoWorms r;
  const VcLink* link = net.channel_link(2, 0, Direction::plus);
  REQUIRE(link);
  net.endpoint(5).on_receive = [&](const Packet& pk, Cycle now) {
    r.a_latency = now - pk.created;
    r.b_flits_while_a = link->flits_sent(1);
  };
  net.endpoint(3).on_receive = [&](const Packet& pk, Cycle now) { r.b_latency = now - pk.created; };
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  auto send = [&](NodeId s, NodeId d, int length) {
    auto pk = std::make_shared<Packet>();
    pk->header.dest = d;
    pk->length = length;
    net.endpoint(s).inject(pk);
  };
  sc_core::sc_start(ctx.clock.delay(5));  // as the zero-load tests: not in the first cycle
  send(2, 5, la);
  send(1, 3, lb);
  sc_core::sc_start(ctx.clock.delay(20));
  r.blocked = net.describe_blocked(ctx.clock.now());
  sc_core::sc_start(ctx.clock.delay(480));
  REQUIRE(ctx.ledger.outstanding() == 0);
  REQUIRE(net.flits_in_network() == 0);
  REQUIRE(link->flits_sent(0) == static_cast<std::uint64_t>(la));
  REQUIRE(link->flits_sent(1) == static_cast<std::uint64_t>(lb));
  return r;
}

}  // namespace

TEST_CASE("link_hold packet: a worm on the other VC waits for the tail of the worm holding the link") {
  constexpr int kA = 40, kB = 20;
  const TwoWorms held = two_worms("packet", kA, kB);
  // A never waits. B's header, which would leave router 2 three cycles after
  // A's header, leaves the cycle after A's tail (A's header + kA - 1 + 1):
  // kA - 3 cycles late, and streams from there on.
  CHECK(held.a_latency == zero_load(3, kA));
  CHECK(held.b_latency == zero_load(2, kB) + (kA - 3));
  // The deadlock report says why B waits: its VC on 2->3 is held, the link is A's.
  auto waits_for_link = [](const std::vector<std::string>& lines) {
    for (const auto& l : lines)
      if (l.find("router2 ") != std::string::npos &&
          l.find("-> d0p_vc1 holds the VC, waiting for the link") != std::string::npos &&
          l.find("d0p_vc0's packet has it") != std::string::npos)
        return true;
    return false;
  };
  CHECK(waits_for_link(held.blocked));
  // B's worm had not all crossed 2->3 when A's tail reached node 5.
  CHECK(held.b_flits_while_a < static_cast<std::uint64_t>(kB));
  // Flit by flit, the two share the link from B's arrival: both are slower
  // than alone, B is far sooner than behind A's whole worm and done first,
  // and no report line waits for a link.
  const TwoWorms shared = two_worms("flit", kA, kB);
  CHECK(shared.a_latency > zero_load(3, kA));
  CHECK(shared.b_latency > zero_load(2, kB));
  CHECK(shared.b_latency < held.b_latency);
  CHECK(shared.b_flits_while_a == static_cast<std::uint64_t>(kB));
  CHECK_FALSE(waits_for_link(shared.blocked));
}

TEST_CASE("link_hold packet stays exactly-once and deadlock-free at saturation on meshes and hypercubes") {
  // Every source offers 0.9 flits/cycle until 8 packets wait in its queue:
  // the network runs saturated, then must drain completely.
  struct Case {
    const char* kind;
    const char* dims;
    const char* routing;
    const char* vcs;
  };
  for (const Case c :
       {Case{"mesh", "4x4", "dor", "2"}, Case{"mesh", "4x4", "dor", "4"}, Case{"hypercube", "2x2x2x2", "ecube", "2"}}) {
    const std::vector<tb::Override> o = {
        {"topology.kind", c.kind},    {"topology.dims", c.dims},      {"routing.function", c.routing},
        {"router.vcs", c.vcs},        {"router.link_hold", "packet"}, {"traffic.load", "0.9"},
        {"traffic.packet_size", "8"}, {"router.buffer", "4"},         {"sim.warmup", "300"},
        {"sim.measure", "2000"},      {"sim.drain_limit", "20000"},   {"traffic.source_queue", "8"}};
    const auto r = test::run_with(o);
    INFO(c.kind << " " << c.dims << " " << c.routing << " " << c.vcs << " VCs");
    test::check_delivered_exactly_once(r, 100);
  }
}

TEST_CASE("link_hold packet is refused on tori, with the shared bidirectional wire and with replication") {
  const auto routing = std::make_shared<const topo::DirectRouting>(DirectTopology::mesh({2, 2}), RoutingAlgorithm::dor);
  for (const bool shared : {true, false}) {
    fresh_kernel();
    SimContext ctx(5000);
    topo::DirectNetworkParams p;
    p.router.link_hold = "packet";
    if (shared)
      p.router.link_sharing = "bidirectional";
    else
      p.router.replication = true;
    CHECK_THROWS_WITH(topo::DirectNetwork("net", routing, p, ctx),
                      Catch::Contains("router.link_hold: packet") &&
                          Catch::Contains(shared ? "router.link_sharing: bidirectional" : "router.replication: true") &&
                          Catch::Contains("cannot be combined"));
  }
  // On a torus a stalled worm holding a link for all its VCs defeats the
  // dateline classes (a 4x4 UTR torus deadlocked at saturation): refused.
  fresh_kernel();
  SimContext ctx(5000);
  topo::DirectNetworkParams p;
  p.router.link_hold = "packet";
  CHECK_THROWS_WITH(
      topo::DirectNetwork(
          "net",
          std::make_shared<const topo::DirectRouting>(DirectTopology::torus({4, 4}, false), RoutingAlgorithm::utr), p,
          ctx),
      Catch::Contains("router.link_hold: packet is for meshes and hypercubes") && Catch::Contains("torus:4x4"));
  CHECK_THAT(test::config_error({{"topology.kind", "mesh"}, {"router.link_hold", "worm"}}),
             Catch::Contains("router.link_hold") && Catch::Contains("worm"));
}
