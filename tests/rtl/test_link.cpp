// Link timing and credit flow control (seed000 §7.2: 1 cycle per flit).
#include <catch2/catch.hpp>

#include "rtl_models/core/kernel.h"
#include "rtl_models/core/link.h"
#include "tests/common/wake_log.h"

#include <algorithm>
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

using test::WakeLog;

// A credit ramp (return_credit_ramp: one credit per cycle from a cycle on,
// given in advance by a sink that takes the rest of a packet in one step)
// is one record in the link; what the sender reads must be what n single
// returns would give: checked here against the arithmetic of "one credit
// at each cycle first + d .. first + d + n - 1", cycle by cycle and with
// skipped cycles.
TEST_CASE("a credit ramp answers credits() and next_credit_arrival() as one credit per cycle") {
  const Cycle first = 10, d = 2;
  const int n = 5;
  const auto arrived_by = [&](Cycle t) {   // credits of the ramp arrived by cycle t
    const Cycle a = first + d;
    return t < a ? 0 : static_cast<int>(std::min<Cycle>(t - a + 1, n));
  };
  const auto next_after = [&](Cycle t) {   // first ramp credit arriving after t
    const Cycle a = std::max(first + d, t + 1);
    return a <= first + d + n - 1 ? a : UINT64_MAX;
  };
  for (const std::vector<Cycle>& asks : {std::vector<Cycle>{0, 11, 12, 13, 14, 15, 16, 17, 30},
                                         std::vector<Cycle>{13, 15, 16}, std::vector<Cycle>{12, 40}}) {
    fresh_kernel();
    Clock clk(5000);
    LinkParams lp;
    lp.credit_delay = d;
    Link link("l", clk, lp, 0);
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    link.return_credit_ramp(n, first);
    CHECK(link.next_credit_arrival() == first + d);
    for (const Cycle t : asks) {
      INFO("cycle " << t);
      CHECK(link.credits(t) == arrived_by(t));
      CHECK(link.next_credit_arrival() == next_after(t));
    }
  }
}

TEST_CASE("credit returns after a ramp keep arrival order, and one inside the ramp is refused") {
  fresh_kernel();
  Clock clk(5000);
  Link link("l", clk, LinkParams{}, 0);   // credit delay 1
  Link bad("bad", clk, LinkParams{}, 0);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  link.return_credit_ramp(3, 10);         // credits at 11, 12, 13
  link.return_credits(2, 12);             // 2 at 13, with the ramp's last
  link.return_credit_ramp(2, 14);         // 15, 16
  CHECK(link.credits(12) == 2);
  CHECK(link.next_credit_arrival() == 13);
  CHECK(link.credits(13) == 5);
  CHECK(link.next_credit_arrival() == 15);
  CHECK(link.credits(15) == 6);
  CHECK(link.credits(16) == 7);
  CHECK(link.next_credit_arrival() == UINT64_MAX);
  bad.return_credit_ramp(4, 10);          // 11 .. 14
  CHECK_THROWS_AS(bad.return_credits(1, 11), std::logic_error);      // at 12, before 14
  CHECK_THROWS_AS(bad.return_credit_ramp(2, 11), std::logic_error);
}

// wake_blocked_sender_only (Switch and Endpoint senders): a return
// wakes the sender only after it found no credit, and a ramp wakes a
// starved sender for its first credit only; such a link allows ramps,
// a VC router's lazy link (wake_sender_only_when_starved) does not.
TEST_CASE("wake_blocked_sender_only: returns and ramps wake only a sender that found no credit") {
  fresh_kernel();
  Clock clk(5000);
  Link link("l", clk, LinkParams{}, 1), vc("vc", clk, LinkParams{}, 1), eager("eager", clk, LinkParams{}, 1);
  link.wake_blocked_sender_only();
  vc.wake_sender_only_when_starved();
  CHECK(link.credit_ramp_ok());
  CHECK_FALSE(vc.credit_ramp_ok());
  CHECK(eager.credit_ramp_ok());
  WakeLog tx;
  link.attach_sender(&tx);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  link.return_credits(1, 0);              // not starved: quiet
  CHECK(tx.at.empty());
  link.send(make_flit(4, 0), 1, 0);
  link.send(make_flit(4, 1), 2, 0);
  CHECK(link.credits(3) == 0);            // starved
  link.return_credit_ramp(2, 5);          // credits at 6, 7: woken for 6 only
  CHECK(tx.at == std::vector<Cycle>{6});
  link.return_credits(1, 7);              // woken already, not starved since
  CHECK(tx.at == std::vector<Cycle>{6});
  CHECK(link.credits(6) == 1);
  CHECK(link.next_credit_arrival() == 7);
}
