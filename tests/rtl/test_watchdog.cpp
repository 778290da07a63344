// The watchdog ends a run in which packets are outstanding and no flit moves,
// and names the blocked resources. Real modules: a source endpoint whose link
// toward the receiver has no credits at all, so its packet can never leave.
#include <catch2/catch.hpp>

#include "rtl_models/node/endpoint.h"
#include "rtl_models/core/kernel.h"
#include "rtl_models/switch/switch.h"
#include "rtl_models/switch/updown_decoder.h"
#include "rtl_models/core/watchdog.h"

using namespace wormcast;
using namespace wormcast::rtl;

namespace {

// Two endpoints, a -> b on a link whose receiver buffer is `credits` flits
// (0: nothing a sends ever leaves), b -> a on one of 8.
struct EndpointPair {
  explicit EndpointPair(int credits)
      : ab("ab", ctx.clock, LinkParams{}, credits), ba("ba", ctx.clock, LinkParams{}, 8) {
    a.out.bind(ab);
    b.in.bind(ab);
    b.out.bind(ba);
    a.in.bind(ba);
  }
  // A packet of `length` flits from a to b, after the first delta cycle.
  void send(int length) {
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    auto p = std::make_shared<Packet>();
    p->header.dest = 1;
    p->length = length;
    a.inject(p);
  }
  SimContext ctx{5000};
  Endpoint a{"a", 0, ctx}, b{"b", 1, ctx};
  Link ab, ba;
};

}  // namespace

TEST_CASE("watchdog trips on a stalled network and reports the stuck packet") {
  fresh_kernel();
  EndpointPair net(0);
  SimContext& ctx = net.ctx;
  Watchdog wd("wd", ctx, 500, [&](Cycle now) { return std::vector<std::string>{net.a.describe(now)}; },
              [&] { return static_cast<std::uint64_t>(net.ab.flits_in_flight()); });
  ctx.on_first_outstanding = [&] { wd.arm(); };
  net.send(4);
  sc_core::sc_start(ctx.clock.delay(5000));
  REQUIRE(wd.tripped());
  CHECK(ctx.clock.now() <= 1001);   // stopped after the first idle interval(s), not at the end
  CHECK_THAT(wd.report(), Catch::Contains("no flit moved for 500 cycles"));
  CHECK_THAT(wd.report(), Catch::Contains("a: 1 packets queued"));
  CHECK_THAT(wd.report(), Catch::Contains("packet 1 -> nodes 1"));
}

TEST_CASE("watchdog stays quiet while flits move and sleeps when the network is empty") {
  fresh_kernel();
  EndpointPair net(8);
  SimContext& ctx = net.ctx;
  Watchdog wd("wd", ctx, 50, [](Cycle) { return std::vector<std::string>{}; },
              [&] { return static_cast<std::uint64_t>(net.ab.flits_in_flight() + net.ba.flits_in_flight()); });
  ctx.on_first_outstanding = [&] { wd.arm(); };
  int received = 0;
  net.b.on_receive = [&](const Packet& p, Cycle now) {
    ++received;
    // Injected after cycle 0 was evaluated, so the head leaves at cycle 1;
    // then link latency + serialisation of 200 flits.
    CHECK(p.injected == p.created + 1);
    CHECK(now - p.injected == 1 + 199);
  };
  net.send(200);   // takes longer than the watchdog interval, credit-limited to 8 in flight
  sc_core::sc_start(ctx.clock.delay(10000));
  CHECK_FALSE(wd.tripped());
  CHECK(received == 1);
  CHECK(ctx.ledger.outstanding() == 0);
}

TEST_CASE("deadlock report names the switch buffer, the packet and what it waits for") {
  fresh_kernel();
  SimContext ctx(5000);
  // One 2-port switch: node0 on port 0, node1 on port 1. The link toward
  // node1 starts with zero credits, so the packet is stuck inside the switch.
  auto t = topo::Topology::empty(1, 2);
  t.attach(0, 0, 0).attach(1, 0, 1);
  auto routing = std::make_shared<const topo::UpDownRouting>(t);
  Switch sw("sw", 0, 2, SwitchParams{}, ctx, [&](int id) -> std::unique_ptr<Decoder> {
    return std::make_unique<UpDownDecoder>("decoder", id, routing, PortSelection::deterministic, Rng(1));
  });
  Endpoint a("a", 0, ctx), b("b", 1, ctx);
  Link a_sw("a_sw", ctx.clock, LinkParams{}, 640), sw_a("sw_a", ctx.clock, LinkParams{}, 640);
  Link b_sw("b_sw", ctx.clock, LinkParams{}, 640), sw_b("sw_b", ctx.clock, LinkParams{}, 0);
  a.out.bind(a_sw);
  sw.in[0]->bind(a_sw);
  sw.out[0]->bind(sw_a);
  a.in.bind(sw_a);
  b.out.bind(b_sw);
  sw.in[1]->bind(b_sw);
  sw.out[1]->bind(sw_b);
  b.in.bind(sw_b);
  Watchdog wd("wd", ctx, 300, [&](Cycle now) { return sw.describe_blocked(now); }, [] { return std::uint64_t{16}; });
  ctx.on_first_outstanding = [&] { wd.arm(); };
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  auto p = std::make_shared<Packet>();
  p->header.dest = 1;
  p->length = 16;
  a.inject(p);
  sc_core::sc_start(ctx.clock.delay(3000));
  REQUIRE(wd.tripped());
  const std::string& r = wd.report();
  CHECK_THAT(r, Catch::Contains("sw.ibuf0: 16/640 flits"));
  CHECK_THAT(r, Catch::Contains("packet 1 src 0 dst 1 16/16 flits in"));
  CHECK_THAT(r, Catch::Contains("->out1 read 0 waiting for downstream credits"));
}

// Sources under load keep their nodes busy (node progress) while a deadlocked
// network holds its flits: the flits that do not move trip it, and busy
// nodes alone (nothing in the network) do not.
TEST_CASE("watchdog trips on flits stuck in the network while the nodes keep working") {
  for (const std::uint64_t in_network : {std::uint64_t{0}, std::uint64_t{7}}) {
    fresh_kernel();
    EndpointPair net(0);   // the packet never leaves a
    SimContext& ctx = net.ctx;
    Watchdog wd("wd", ctx, 500, [](Cycle) { return std::vector<std::string>{}; }, [in_network] { return in_network; });
    ctx.on_first_outstanding = [&] { wd.arm(); };
    sc_core::sc_spawn([&ctx] {
      for (;;) {
        sc_core::wait(ctx.clock.delay(100));
        ++ctx.node_progress;   // a processor finishing a send overhead
      }
    });
    net.send(4);
    sc_core::sc_start(ctx.clock.delay(5000));
    CHECK(wd.tripped() == (in_network > 0));
    if (in_network > 0) {
      CHECK(ctx.clock.now() <= 1001);
      CHECK_THAT(wd.report(), Catch::Contains("no flit moved for 500 cycles") &&
                                  Catch::Contains("while 7 flits sat in the network (the nodes kept working)"));
    }
  }
}
