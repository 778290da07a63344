// A source's queue (PacketInjector, link_interface.h): a unicast_only()
// source's packets wait as QueuedUnicast records and become Packets when they
// start to leave. These cases check that a packet built so is the
// packet the endpoint would make at creation, that records and whole
// packets leave in the order queued, and that a queue of records counts for
// queue_limit and the deadlock report as packets do.
#include <catch2/catch.hpp>

#include "rtl_models/node/endpoint.h"
#include "rtl_models/core/kernel.h"
#include "rtl_models/core/link_interface.h"
#include "rtl_models/node/traffic.h"

#include <memory>
#include <stdexcept>
#include <string>
#include <tuple>
#include <vector>

using namespace wormcast;
using namespace wormcast::rtl;

namespace {
// A SyntheticSource whose packets the endpoint must queue whole: the
// behaviour before the records, to compare with.
struct WholeSource : PacketSource {
  SyntheticSource s;
  explicit WholeSource(SyntheticSource src) : s(std::move(src)) {}
  Cycle next_time() const override { return s.next_time(); }
  void generate(Packet& p) override { s.generate(p); }
};

using Arrival = std::tuple<PacketId, PacketId, NodeId, NodeId, Cycle, Cycle, bool, int, int, Cycle>;

// Two endpoints sending to each other over 1-flit/cycle links at 0.9 flits
// per cycle (queues build up), each injecting one whole packet at cycle 300
// between its source's packets; every packet as received.
std::vector<Arrival> exchange(bool records) {
  fresh_kernel();
  SimContext ctx(5000);
  ctx.window = {100, 700};
  Endpoint a("a", 0, ctx), b("b", 1, ctx);
  Link ab("ab", ctx.clock, LinkParams{}, 4), ba("ba", ctx.clock, LinkParams{}, 4);
  a.out.bind(ab);
  b.in.bind(ab);
  b.out.bind(ba);
  a.in.bind(ba);
  TrafficParams tp;
  tp.load = 0.9;
  tp.packet_size = 6;
  tp.header_flits = 2;
  std::vector<Arrival> log;
  for (Endpoint* e : {&a, &b}) {
    const NodeId self = e->id();
    SyntheticSource src(tp, self, 2, Rng(7).fork(static_cast<std::uint64_t>(self)));
    if (records) e->set_source(std::make_unique<SyntheticSource>(src));
    else e->set_source(std::make_unique<WholeSource>(src));
    e->stop_creating_at(900);
    e->on_receive = [&log](const Packet& p, Cycle at) {
      log.emplace_back(p.id, p.origin, p.src, p.header.dest, p.created, p.injected, p.measured, p.length,
                       p.header_flits, at);
    };
  }
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  sc_core::sc_start(ctx.clock.delay(300));
  for (Endpoint* e : {&a, &b}) {
    auto p = std::make_shared<Packet>();
    p->header.dest = 1 - e->id();
    p->length = 3;
    e->inject(p);
  }
  sc_core::sc_start(ctx.clock.delay(20000));
  CHECK(ctx.ledger.outstanding() == 0);
  CHECK(ctx.ledger.created() == log.size());
  return log;
}
}  // namespace

TEST_CASE("a queued record becomes the packet the endpoint would have created") {
  const QueuedUnicast q{42, 17, UnicastShape{5, 9, 3}, true};
  const PacketPtr p = q.build(2);
  CHECK(p->id == 42);
  CHECK(p->origin == 42);
  CHECK(p->src == 2);
  CHECK(p->created == 17);
  CHECK(p->measured);
  CHECK(p->header.kind == HeaderKind::unicast);
  CHECK(p->header.dest == 5);
  CHECK(p->length == 9);
  CHECK(p->header_flits == 3);
  CHECK(p->injected == 0);
  CHECK(p->message == 0);
  // Id 0 marks a whole packet's place in the injector's queue: a record
  // needs a real id.
  SimContext ctx(5000);
  PacketInjector inj(ctx, false, 2);
  CHECK_THROWS_AS(inj.push(QueuedUnicast{}), std::logic_error);
  inj.push(q);
  inj.push(std::make_shared<Packet>());
  CHECK(inj.queued() == 2);
  CHECK(inj.busy());
}

TEST_CASE("packets queued as records arrive as the whole packets did, in the same order") {
  const auto with_records = exchange(true);
  const auto whole = exchange(false);
  REQUIRE(with_records.size() > 200);   // 0.15 packets/cycle for 900 cycles, both ways
  CHECK(with_records == whole);
  // The injected 3-flit packets left behind the records queued before them.
  int late = 0;
  for (const auto& a : with_records)
    if (std::get<7>(a) == 3) late += std::get<5>(a) > 310;
  CHECK(late == 2);
}

TEST_CASE("a queue of records counts for queue_limit and the deadlock report") {
  fresh_kernel();
  SimContext ctx(5000);
  Endpoint a("a", 0, ctx), b("b", 1, ctx);
  Link ab("ab", ctx.clock, LinkParams{}, 0);   // no credits: nothing ever leaves
  Link ba("ba", ctx.clock, LinkParams{}, 4);
  a.out.bind(ab);
  b.in.bind(ab);
  b.out.bind(ba);
  a.in.bind(ba);
  TrafficParams tp;
  tp.load = 0.5;
  tp.packet_size = 4;
  a.set_source(std::make_unique<SyntheticSource>(tp, 0, 2, Rng(3)), 5);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  sc_core::sc_start(ctx.clock.delay(1000));
  CHECK(a.source_overflowed());
  CHECK(a.queued_packets() == 5);
  CHECK(ctx.ledger.created() == 5);
  CHECK(ctx.ledger.outstanding() == 5);
  // The front record was built (it waits for a credit); four are records.
  CHECK_THAT(a.describe(1000), Catch::Contains("a: 5 packets queued, injecting packet 1 (0/4 flits sent)"));
  CHECK(ctx.ledger.describe_outstanding(2) == std::vector<std::string>{"packet 1 -> nodes 1", "packet 2 -> nodes 1"});
}
