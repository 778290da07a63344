// The watchdog ends a run in which packets are outstanding and no flit moves,
// and names the blocked resources. Real modules: a source endpoint whose link
// toward the receiver has no credits at all, so its packet can never leave.
#include <catch2/catch.hpp>

#include "rtl_models/endpoint.h"
#include "rtl_models/kernel.h"
#include "rtl_models/watchdog.h"

using namespace wormcast;
using namespace wormcast::rtl;

TEST_CASE("watchdog trips on a stalled network and reports the stuck packet") {
  fresh_kernel();
  SimContext ctx(5000);
  Endpoint a("a", 0, ctx), b("b", 1, ctx);
  Link ab("ab", ctx.clock, LinkParams{}, 0);   // receiver buffer of zero flits
  Link ba("ba", ctx.clock, LinkParams{}, 8);
  a.out.bind(ab);
  b.in.bind(ab);
  b.out.bind(ba);
  a.in.bind(ba);
  Watchdog wd("wd", ctx, 500, [&](Cycle now) { return std::vector<std::string>{a.describe(now)}; });
  ctx.on_first_outstanding = [&] { wd.arm(); };
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  auto p = std::make_shared<Packet>();
  p->header.dest = 1;
  p->length = 4;
  a.inject(p);
  sc_core::sc_start(ctx.clock.delay(5000));
  REQUIRE(wd.tripped());
  CHECK(ctx.clock.now() <= 1001);   // stopped after the first idle interval(s), not at the end
  CHECK_THAT(wd.report(), Catch::Contains("no flit moved for 500 cycles"));
  CHECK_THAT(wd.report(), Catch::Contains("a: 1 packets queued"));
  CHECK_THAT(wd.report(), Catch::Contains("packet 1 -> nodes 1"));
}

TEST_CASE("watchdog stays quiet while flits move and sleeps when the network is empty") {
  fresh_kernel();
  SimContext ctx(5000);
  Endpoint a("a", 0, ctx), b("b", 1, ctx);
  Link ab("ab", ctx.clock, LinkParams{}, 8), ba("ba", ctx.clock, LinkParams{}, 8);
  a.out.bind(ab);
  b.in.bind(ab);
  b.out.bind(ba);
  a.in.bind(ba);
  Watchdog wd("wd", ctx, 50, [](Cycle) { return std::vector<std::string>{}; });
  ctx.on_first_outstanding = [&] { wd.arm(); };
  int received = 0;
  b.on_receive = [&](const Packet& p, Cycle now) {
    ++received;
    // Injected after cycle 0 was evaluated, so the head leaves at cycle 1;
    // then link latency + serialisation of 200 flits.
    CHECK(p.injected == p.created + 1);
    CHECK(now - p.injected == 1 + 199);
  };
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  auto p = std::make_shared<Packet>();
  p->header.dest = 1;
  p->length = 200;   // takes longer than the watchdog interval, credit-limited to 8 in flight
  a.inject(p);
  sc_core::sc_start(ctx.clock.delay(10000));
  CHECK_FALSE(wd.tripped());
  CHECK(received == 1);
  CHECK(ctx.ledger.outstanding() == 0);
}
