// Link timing and credit flow control (seed000 §7.2: 1 cycle per flit).
#include <catch2/catch.hpp>

#include "rtl_models/kernel.h"
#include "rtl_models/link.h"

#include <memory>
#include <vector>

using namespace wormcast;
using namespace wormcast::rtl;

namespace {
// A flit does not own its packet (packet.h): the packets of these flits
// live until the end of the test program.
std::vector<PacketPtr> packets;
Flit make_flit(int len, int idx) {
  auto p = std::make_shared<Packet>();
  p->length = len;
  packets.push_back(p);
  return Flit{p, idx};
}
}  // namespace

TEST_CASE("a flit arrives exactly latency + extra cycles after it is sent") {
  fresh_kernel();
  Clock clk(5000);
  LinkParams lp;
  lp.latency = 3;
  Link link("l", clk, lp, 4);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  link.send(make_flit(2, 0), 10, 2);   // sent at cycle 10 through a 2-cycle crossbar
  CHECK_FALSE(link.has_flit(14));
  CHECK(link.next_flit_arrival() == 15);
  CHECK(link.has_flit(15));
  CHECK(link.pop().index == 0);
  CHECK_FALSE(link.has_flit(100));
}

TEST_CASE("credits: a send consumes one, returned credits arrive after credit_delay") {
  fresh_kernel();
  Clock clk(5000);
  LinkParams lp;
  lp.credit_delay = 2;
  Link link("l", clk, lp, 2);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  CHECK(link.credits(0) == 2);
  link.send(make_flit(3, 0), 0, 0);
  link.send(make_flit(3, 1), 1, 0);
  CHECK(link.credits(2) == 0);
  CHECK_THROWS_AS(link.send(make_flit(3, 2), 2, 0), std::logic_error);   // no credit
  link.return_credits(1, 5);
  CHECK(link.next_credit_arrival() == 7);
  CHECK(link.credits(6) == 0);
  CHECK(link.credits(7) == 1);
  link.send(make_flit(3, 2), 7, 0);
  CHECK(link.credits(7) == 0);
  CHECK(link.flits_sent() == 3);
}

TEST_CASE("at most one flit per cycle on a link") {
  fresh_kernel();
  Clock clk(5000);
  Link link("l", clk, LinkParams{}, 8);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  link.send(make_flit(4, 0), 3, 0);
  CHECK_THROWS_AS(link.send(make_flit(4, 1), 3, 0), std::logic_error);
}

TEST_CASE("flits keep their order and per-flit spacing through the link") {
  fresh_kernel();
  Clock clk(5000);
  Link link("l", clk, LinkParams{}, 8);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  for (int i = 0; i < 4; ++i) link.send(make_flit(4, i), static_cast<Cycle>(i * 2), 0);
  for (int i = 0; i < 4; ++i) {
    const Cycle arrival = static_cast<Cycle>(i * 2 + 1);
    CHECK(link.next_flit_arrival() == arrival);
    CHECK_FALSE(link.has_flit(arrival - 1));
    REQUIRE(link.has_flit(arrival));
    CHECK(link.pop().index == i);
  }
}

TEST_CASE("zero link latency is rejected") {
  fresh_kernel();
  Clock clk(5000);
  LinkParams lp;
  lp.latency = 0;
  CHECK_THROWS_AS(Link("l", clk, lp, 1), std::invalid_argument);
}

TEST_CASE("a link owns the packet of every tail flit on it, until the next tail is popped") {
  fresh_kernel();
  Clock clk(5000);
  Link link("l", clk, LinkParams{}, 8);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  auto two = std::make_shared<Packet>();
  two->length = 2;
  std::weak_ptr<Packet> w2 = two;
  link.send(Flit{two, 0}, 0, 0);
  CHECK(two.use_count() == 1);            // a body or head flit takes no reference
  link.send(Flit{two, 1}, 1, 0);
  CHECK(two.use_count() == 2);            // the tail does
  auto one = std::make_shared<Packet>();  // a one-flit packet whose sender lets go at once
  one->length = 1;
  std::weak_ptr<Packet> w1 = one;
  link.send(Flit{one, 0}, 2, 0);
  two.reset();
  one.reset();
  CHECK_FALSE(w2.expired());
  CHECK_FALSE(w1.expired());
  CHECK(link.pop().index == 0);
  const Flit t2 = link.pop();             // tail of `two`: still alive for the receiver
  CHECK(t2.pkt->length == 2);
  CHECK_FALSE(w2.expired());
  const Flit t1 = link.pop();             // the next tail releases `two`, keeps `one`
  CHECK(w2.expired());
  CHECK(t1.pkt->length == 1);
  CHECK_FALSE(w1.expired());
}
