// Unicast message latency at zero load equals the analytical sum of its parts
// exactly, with the seed000 §7.2 defaults: t_hs = t_hr = t_ns = t_nr = 1000
// cycles, 266 MB/s I/O bus at a 5 ns clock, 128-flit packets, 1-cycle route,
// crossbar and link. The sum is derived by hand here:
//   host send            t_hs                              1000
//   I/O bus (send DMA)   ceil(128 B / (266e6 B/s * 5 ns))    97   (1.33 B/cycle)
//   NI send              t_ns per packet                   1000
//   network              1 (hand-off to the link interface, registered)
//                        + link + H*(route+crossbar+link) + (L-1)
//   NI receive           t_nr                              1000
//   I/O bus (receive)    97
//   host receive         t_hr                              1000
#include <catch2/catch.hpp>

#include "node_fixture.h"

using namespace wormcast;
using namespace wormcast::rtl;

namespace {
constexpr Cycle kDma128 = 97;   // ceil(128 / 1.33)

struct Result { Cycle send_call = 0, received = 0; };

Result one_message(int src, int dst, int bytes, const rtl::HostNiModel& np = {}) {
  test::NodeNet n(np);
  Result r;
  n.host(src).set_program([&](HostApi& h) {
    h.compute(10);
    r.send_call = h.now();
    h.send(dst, bytes);
  });
  n.host(dst).set_program([&](HostApi& h) {
    const ReceivedMessage m = h.receive();
    CHECK(m.src == src);
    CHECK(m.bytes == bytes);
    r.received = m.received;
  });
  sc_core::sc_start(n.ctx.clock.delay(100000));
  CHECK(n.ctx.messages.outstanding() == 0);
  CHECK(n.ctx.ledger.outstanding() == 0);
  return r;
}
}  // namespace

TEST_CASE("zero-load single-packet message latency is the exact sum of its parts") {
  // node0 -> node1 crosses 3 switches: network = 1 + 1 + 3*3 + 127 = 138.
  const Result r = one_message(0, 1, 128);
  CHECK(r.received - r.send_call == 1000 + kDma128 + 1000 + 138 + 1000 + kDma128 + 1000);   // 4332
  // node0 -> node3 on the same switch: network = 1 + 1 + 3 + 127 = 132.
  const Result s = one_message(0, 3, 128);
  CHECK(s.received - s.send_call == 1000 + kDma128 + 1000 + 132 + 1000 + kDma128 + 1000);
}

TEST_CASE("the latency breakdown adds up and each part has its analytical value") {
  test::NodeNet n;
  n.host(0).set_program([&](HostApi& h) { h.send(1, 128); });
  n.host(1).set_program([&](HostApi& h) { h.receive(); });
  n.ctx.window = {0, 1000};
  sc_core::sc_start(n.ctx.clock.delay(20000));
  const MessageStats& m = n.ctx.msg_stats;
  REQUIRE(m.measured_delivered == 1);
  CHECK(m.host_send == 1000);
  CHECK(m.io_bus_send == kDma128);
  CHECK(m.ni_send == 1000);
  CHECK(m.network == 138);
  CHECK(m.ni_receive == 1000);
  CHECK(m.io_bus_receive == kDma128);
  CHECK(m.host_receive == 1000);
  REQUIRE(m.latency.size() == 1);
  CHECK(m.latency.min() == 4332);
}

TEST_CASE("a three-packet message pipelines through the NIs (t_ns, t_nr dominate the DMA)") {
  // Sender NI processes packets back to back (3 * t_ns); the last packet then
  // crosses the network, is processed (t_nr), DMAed and received (t_hr):
  //   1000 + 97 + 3*1000 + 138 + 1000 + 97 + 1000 = 6332.
  const Result r = one_message(0, 1, 3 * 128);
  CHECK(r.received - r.send_call == 6332);
}

TEST_CASE("with a fast NI the message is paced by link serialisation") {
  // t_ns = t_nr = 10. Packet 1: DMA 97, t_ns 10, hand-off 1 -> injection
  // starts at t1 + 108. The three 128-flit packets then leave back to back
  // (link-bound: 128 cycles each > 97-cycle DMA), so the last tail is on the
  // wire at t1 + 108 + 3*128 - 1 and arrives 1 + 3*3 cycles later; then
  // t_nr 10, receive DMA 97, t_hr 1000. t1 = send call + t_hs.
  rtl::HostNiModel np;
  np.ni.t_ns = 10;
  np.ni.t_nr = 10;
  const Result r = one_message(0, 1, 3 * 128, np);
  const Cycle t1 = 1000;
  const Cycle last_tail_arrives = t1 + 108 + 3 * 128 - 1 + 1 + 9;
  CHECK(r.received - r.send_call == last_tail_arrives + 10 + kDma128 + 1000);   // 2608
}
