// One physical link carrying all VCs of a direct-network channel
// (rtl_models/direct/vc_link.h): one flit per cycle on the wire whatever its VC,
// per-VC credits and credit returns, flits tagged with their VC.
#include <catch2/catch.hpp>

#include "rtl_models/core/kernel.h"
#include "rtl_models/direct/vc_link.h"
#include "tests/common/wake_log.h"

#include <memory>
#include <vector>

using namespace wormcast;
using namespace wormcast::rtl;

namespace {
// A flit does not own its packet (packet.h): these packets live until the
// end of the test program.
std::vector<PacketPtr> vc_packets;
Flit vc_flit(int len, int idx) {
  auto p = std::make_shared<Packet>();
  p->length = len;
  vc_packets.push_back(p);
  return Flit{p, idx};
}
}  // namespace

TEST_CASE("vc link: flits of different VCs share the wire one per cycle and arrive tagged in send order") {
  fresh_kernel();
  LinkParams lp;
  lp.latency = 2;
  VcLink link("l", lp, 3, 0b111, 4);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  link.send(2, vc_flit(3, 0), 10, 1);   // arrives 10 + 1 + 2 = 13
  CHECK_THROWS_AS(link.send(0, vc_flit(3, 0), 10, 1), std::logic_error);   // the wire is taken in cycle 10
  link.send(0, vc_flit(3, 0), 11, 1);   // arrives 14
  CHECK(link.flits_in_flight() == 2);
  CHECK(link.next_flit_arrival() == 13);
  CHECK_FALSE(link.has_flit(12));
  int vc = -1;
  REQUIRE(link.has_flit(13));
  link.pop(vc);
  CHECK(vc == 2);
  CHECK_FALSE(link.has_flit(13));
  REQUIRE(link.has_flit(14));
  link.pop(vc);
  CHECK(vc == 0);
  CHECK(link.flits_sent() == 2);
  CHECK(link.flits_sent(0) == 1);
  CHECK(link.flits_sent(1) == 0);
  CHECK(link.flits_sent(2) == 1);
}

TEST_CASE("vc link: each VC has its own credits and its own returns") {
  fresh_kernel();
  LinkParams lp;
  lp.credit_delay = 3;
  VcLink link("l", lp, 2, 0b11, 1);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  link.send(0, vc_flit(4, 0), 0, 0);
  CHECK(link.credits(0, 1) == 0);
  CHECK(link.credits(1, 1) == 1);   // VC 1 is not affected by VC 0's flit
  CHECK_THROWS_AS(link.send(0, vc_flit(4, 1), 1, 0), std::logic_error);   // VC 0 has no credit
  link.send(1, vc_flit(4, 0), 1, 0);
  CHECK(link.next_credit_arrival(0) == UINT64_MAX);
  link.return_credits(1, 1, 4);   // VC 1 first: usable at 7
  link.return_credits(0, 1, 5);   // VC 0: usable at 8
  CHECK(link.next_credit_arrival(0) == 8);
  CHECK(link.next_credit_arrival(1) == 7);
  CHECK(link.credits(0, 7) == 0);
  CHECK(link.credits(1, 7) == 1);
  CHECK(link.credits(0, 8) == 1);
  CHECK(link.next_credit_arrival(0) == UINT64_MAX);
}

TEST_CASE("vc link: a VC the routing does not use on the channel is refused") {
  fresh_kernel();
  VcLink link("l", LinkParams{}, 3, 0b101, 2);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  CHECK(link.uses_vc(0));
  CHECK_FALSE(link.uses_vc(1));
  CHECK(link.uses_vc(2));
  CHECK_FALSE(link.uses_vc(3));
  // Out of range on either side (uses_vc reads the mask only, whose bits the
  // constructor keeps below the VC count).
  CHECK_FALSE(link.uses_vc(-1));
  CHECK_FALSE(link.uses_vc(31));
  CHECK_FALSE(link.uses_vc(32));
  CHECK_FALSE(link.uses_vc(1000));
  CHECK(link.vcs_used() == 2);
  CHECK(link.credits(1, 0) == 0);
  CHECK_THROWS_AS(link.send(1, vc_flit(1, 0), 0, 0), std::logic_error);
}

TEST_CASE("vc link: bad construction is refused") {
  fresh_kernel();
  LinkParams lp;
  lp.latency = 0;
  CHECK_THROWS_AS(VcLink("a", lp, 1, 1, 1), std::invalid_argument);
  CHECK_THROWS_AS(VcLink("b", LinkParams{}, 2, 0, 1), std::invalid_argument);       // no VC used
  CHECK_THROWS_AS(VcLink("c", LinkParams{}, 2, 0b100, 1), std::invalid_argument);   // VC beyond the count
}

TEST_CASE("vc link: owns the packet of every tail flit on it, until the next tail is popped") {
  fresh_kernel();
  VcLink link("l", LinkParams{}, 2, 0b11, 8);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  auto two = std::make_shared<Packet>();
  two->length = 2;
  std::weak_ptr<Packet> w2 = two;
  auto one = std::make_shared<Packet>();
  one->length = 1;
  std::weak_ptr<Packet> w1 = one;
  link.send(0, Flit{two, 0}, 0, 0);
  CHECK(two.use_count() == 1);   // a head flit takes no reference
  link.send(1, Flit{one, 0}, 1, 0);
  link.send(0, Flit{two, 1}, 2, 0);
  CHECK(two.use_count() == 2);   // the tail does
  two.reset();
  one.reset();
  int vc = -1;
  link.pop(vc);
  const Flit t1 = link.pop(vc);   // tail of `one` on VC 1
  CHECK(vc == 1);
  CHECK(t1.pkt->length == 1);
  CHECK_FALSE(w1.expired());
  CHECK_FALSE(w2.expired());
  const Flit t2 = link.pop(vc);   // the next tail releases `one`, keeps `two`
  CHECK(vc == 0);
  CHECK(w1.expired());
  CHECK(t2.pkt->length == 2);
  CHECK_FALSE(w2.expired());
}

using test::WakeLog;

// A credit return wakes the sender only when the sender found that VC
// without credits since it was last woken so: a sender with credits sends
// when it next has a flit, so a wake-up per returned credit would only
// cost it an idle evaluation.
TEST_CASE("vc link: a credit return wakes the sender only if it found the VC without credits") {
  fresh_kernel();
  LinkParams lp;
  lp.credit_delay = 2;
  VcLink link("l", lp, 2, 0b11, 2);
  WakeLog tx;
  link.attach_sender(&tx);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  link.send(0, vc_flit(4, 0), 0, 0);
  link.send(0, vc_flit(4, 1), 1, 0);
  link.return_credits(0, 1, 2);   // the sender has not looked: no wake-up
  CHECK(tx.at.empty());
  CHECK(link.credits(0, 3) == 0);  // it looks at 3 and finds none (the return arrives at 4)
  CHECK(link.credits(1, 3) == 2);  // VC 1 has credits: not starved
  link.return_credits(1, 1, 3);    // VC 1 not starved: no wake-up
  CHECK(tx.at.empty());
  link.return_credits(0, 1, 3);    // VC 0 starved: wake-up at the arrival, 5
  REQUIRE(tx.at.size() == 1);
  CHECK(tx.at[0] == 5);
  link.return_credits(0, 1, 4);    // woken already: no second wake-up
  CHECK(tx.at.size() == 1);
  CHECK(link.credits(0, 6) == 3);  // all three returns of VC 0 have arrived by 6
}

TEST_CASE("link: wake_sender_only_when_starved wakes the sender only after it found no credits") {
  fresh_kernel();
  Clock clk(1000);
  LinkParams lp;
  Link eager("eager", clk, lp, 1), lazy("lazy", clk, lp, 1);
  lazy.wake_sender_only_when_starved();
  WakeLog te, tl;
  eager.attach_sender(&te);
  lazy.attach_sender(&tl);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  for (Link* l : {&eager, &lazy}) {
    l->send(vc_flit(2, 0), 0, 0);
    l->return_credits(1, 1);        // not looked at yet
    CHECK(l->credits(1) == 0);      // arrives at 2: none now
    l->return_credits(1, 2);        // starved (lazy): wakes
    CHECK(l->credits(4) == 2);
    l->return_credits(1, 4);        // had credits: the lazy link stays quiet
  }
  CHECK(te.at == std::vector<Cycle>{2, 3, 5});
  CHECK(tl.at == std::vector<Cycle>{3});
}

// The receiver keeps track of the front flit's arrival itself while flits
// are in flight (next_flit_arrival after its pops), so the link tells it of
// a flit only when that flit lands on an empty wire.
TEST_CASE("vc link: the receiver is told of a flit only when the wire was empty") {
  fresh_kernel();
  LinkParams lp;
  lp.latency = 2;
  VcLink link("l", lp, 2, 0b11, 4);
  WakeLog rx;
  link.attach_receiver(&rx);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  link.send(0, vc_flit(3, 0), 0, 0);   // empty wire: told, arrival 2
  link.send(1, vc_flit(3, 0), 1, 0);   // arrival 3, behind the first: not told
  CHECK(rx.at == std::vector<Cycle>{2});
  CHECK(link.next_flit_arrival() == 2);
  int vc = -1;
  link.pop(vc);
  CHECK(link.next_flit_arrival() == 3);   // what the receiver reads after its pop
  link.pop(vc);
  CHECK(vc == 1);
  link.send(0, vc_flit(3, 1), 5, 0);   // empty again: told, arrival 7
  CHECK(rx.at == std::vector<Cycle>{2, 7});
}

TEST_CASE("vc link: a folding receiver takes flits at their send, only while the wire is empty") {
  fresh_kernel();
  LinkParams lp;
  lp.latency = 2;
  VcLink link("l", lp, 2, 0b11, 4);
  struct Fold {
    bool accept = true;
    std::vector<std::pair<int, Cycle>> got;   // (vc, arrival)
    static bool deposit(void* r, int key, int vc, Flit, Cycle arrival) {
      Fold& self = *static_cast<Fold*>(r);
      CHECK(key == 7);   // the key attach_fold was given
      if (self.accept) self.got.emplace_back(vc, arrival);
      return self.accept;
    }
  } fold;
  static const VcFoldFns no_deposit{};
  CHECK_THROWS_WITH(link.attach_fold(VcFold{&no_deposit, &fold, 7}), Catch::Contains("no deposit"));
  static const VcFoldFns fns{&Fold::deposit};
  link.attach_fold(VcFold{&fns, &fold, 7});
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  link.send(1, vc_flit(3, 0), 10, 1);   // deposited, arrival 10 + 1 + 2
  CHECK(link.flits_in_flight() == 0);
  fold.accept = false;
  link.send(0, vc_flit(3, 0), 11, 1);   // refused: on the wire, arrives 14
  fold.accept = true;
  link.send(1, vc_flit(3, 1), 12, 1);   // the wire holds a flit that arrives first: not offered
  CHECK(link.flits_in_flight() == 2);
  REQUIRE(fold.got.size() == 1);
  CHECK(fold.got[0] == std::make_pair(1, Cycle{13}));
  // Counters and credits as for a flit on the wire.
  CHECK(link.flits_sent() == 3);
  CHECK(link.flits_sent(1) == 2);
  CHECK(link.credits(1, 12) == 2);
  int vc = -1;
  REQUIRE(link.has_flit(14));
  link.pop(vc);
  CHECK(vc == 0);
  link.pop(vc);
  CHECK(vc == 1);
  link.send(0, vc_flit(3, 1), 16, 1);   // the wire is empty again: deposited
  CHECK(link.flits_in_flight() == 0);
  REQUIRE(fold.got.size() == 2);
  CHECK(fold.got[1] == std::make_pair(0, Cycle{19}));
}

// The lanes are inline: the largest count the constructor
// accepts works on its last VC, and introspection beyond the count throws.
TEST_CASE("vc link: 31 inline lanes, introspection of a VC beyond the count is refused") {
  fresh_kernel();
  LinkParams lp;
  VcLink link("l", lp, 31, 0x7fffffffu, 2);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  CHECK(link.vcs() == 31);
  CHECK(link.credits(30, 0) == 2);
  link.send(30, vc_flit(1, 0), 0, 0);
  CHECK(link.credits_held(30) == 1);
  CHECK(link.flits_sent(30) == 1);
  CHECK(link.credits_held(0) == 2);
  CHECK_THROWS_AS(link.flits_sent(31), std::out_of_range);
  CHECK_THROWS_AS(link.credits_held(-1), std::out_of_range);
}

// The credit returns in flight: two in the link's line, the younger ones in
// a block of their own. With a credit delay of 10 and three
// VCs returning in most cycles, up to 30 are on their way at once; every
// cycle's credits and next arrivals are checked against a plain tally of
// (arrival, vc) pairs kept here, cycle by cycle.
TEST_CASE("vc link: many credit returns in flight keep their order, credits and next arrivals") {
  fresh_kernel();
  VcLink link("l", LinkParams{1, 10}, 3, 0b111, 0);   // latency 1, credit delay 10, no credits at first
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  std::vector<std::pair<Cycle, int>> pending;   // (arrival, vc) of each returned credit
  int given[3] = {0, 0, 0};
  for (Cycle now = 0; now < 60; ++now) {
    for (int vc = 0; vc < 3; ++vc) {
      // VC v returns in cycles where (now + v) % 4 != 0, until cycle 40; VC 1 returns two at once in cycle 5.
      if (now >= 40 || (now + static_cast<Cycle>(vc)) % 4 == 0) continue;
      const int n = vc == 1 && now == 5 ? 2 : 1;
      link.return_credits(vc, n, now);
      for (int k = 0; k < n; ++k) pending.emplace_back(now + 10, vc);
    }
    for (int vc = 0; vc < 3; ++vc) {
      int due = 0;
      Cycle first = UINT64_MAX;
      for (const auto& [at, v] : pending)
        if (v == vc && at <= now) ++due;
        else if (v == vc && at < first) first = at;
      CHECK(link.credits(vc, now) == due - given[vc]);
      CHECK(link.next_credit_arrival(vc) == first);
    }
    if (now % 7 == 0 && link.credits(2, now) > 0) {   // a send takes one of VC 2's credits
      link.send(2, vc_flit(1, 0), now, 0);
      ++given[2];
    }
  }
}

// The worm-level hop (VcLink::send_run, docs/performance.md): a packet's
// flits leave one per cycle as one call; the receiver's fold takes the run
// whole or not at all, and the wire is busy until the last flit's cycle.
TEST_CASE("vc link: a run goes to the folding receiver whole, takes a credit per flit and keeps the wire") {
  fresh_kernel();
  LinkParams lp;
  lp.latency = 2;
  VcLink link("l", lp, 2, 0b11, 5);
  struct Fold {
    bool accept = true;
    int first = -1, n = 0;
    Cycle arrival = 0;
    static bool deposit(void*, int, int, Flit, Cycle) { return false; }
    static bool run(void* r, int key, int vc, PacketPtr& pkt, int first, int n, Cycle arrival) {
      Fold& self = *static_cast<Fold*>(r);
      CHECK(key == 3);
      CHECK(vc == 1);
      CHECK(pkt);
      if (!self.accept) return false;
      self.first = first;
      self.n = n;
      self.arrival = arrival;
      return true;
    }
  } fold;
  auto pkt = std::make_shared<Packet>();
  pkt->length = 4;
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  // Without a run fold there are no runs.
  CHECK_FALSE(link.send_run(1, pkt, 0, 4, 10, 1));
  static const VcFoldFns fns{&Fold::deposit, &Fold::run};
  link.attach_fold(VcFold{&fns, &fold, 3});
  fold.accept = false;   // refused: nothing changes
  CHECK_FALSE(link.send_run(1, pkt, 0, 4, 10, 1));
  CHECK(link.credits(1, 10) == 5);
  CHECK(link.flits_sent(1) == 0);
  CHECK_FALSE(link.send_run(1, pkt, 0, 6, 10, 1));   // 6 flits, 5 credits
  fold.accept = true;
  REQUIRE(link.send_run(1, pkt, 0, 4, 10, 1));
  CHECK(fold.first == 0);
  CHECK(fold.n == 4);
  CHECK(fold.arrival == 13);   // 10 + crossbar 1 + latency 2, the others one per cycle after it
  CHECK(link.credits(1, 10) == 1);
  CHECK(link.flits_sent(1) == 4);
  CHECK(link.flits_in_flight() == 0);
  // Flits 0..3 leave at 10..13: the wire is taken until 13, on any VC.
  CHECK_THROWS_AS(link.send(0, vc_flit(2, 0), 13, 1), std::logic_error);
  link.send(0, vc_flit(2, 0), 14, 1);
}

TEST_CASE("vc link: a credit ramp arrives one credit per cycle and wakes a starved sender at its first") {
  fresh_kernel();
  LinkParams lp;
  lp.credit_delay = 2;
  VcLink link("l", lp, 2, 0b11, 1);
  WakeLog tx;
  link.attach_sender(&tx);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  link.send(0, vc_flit(1, 0), 0, 0);
  CHECK(link.credits(0, 1) == 0);   // starved
  CHECK(link.next_credit_arrival(0) == UINT64_MAX);
  REQUIRE(link.can_return_ramp(0, 5, 5));
  link.return_credit_ramp(0, 3, 5);   // returns at 5, 6, 7: credits at 7, 8, 9
  REQUIRE(tx.at.size() == 1);
  CHECK(tx.at[0] == 7);
  CHECK(link.next_credit_arrival(0) == 7);
  CHECK(link.credits(0, 6) == 0);
  CHECK(link.credits(0, 7) == 1);
  CHECK(link.next_credit_arrival(0) == 8);
  link.send(0, vc_flit(1, 0), 7, 0);   // takes that credit
  CHECK(link.credits(0, 8) == 1);      // the ramp's second
  // A second ramp joins the first only where it ends (its last credit at 9).
  CHECK_FALSE(link.can_return_ramp(0, 9, 8));   // credits from 11: a gap
  CHECK(link.can_return_ramp(0, 8, 8));         // credits from 10
  CHECK(link.credits(0, 9) == 2);
  CHECK(link.credits(1, 9) == 1);    // the other VC's count is its own
  CHECK(tx.at.size() == 1);          // the ramp woke the sender once
  // Per-flit returns on the lane alongside a ramp add up.
  link.return_credits(0, 1, 9);
  CHECK(link.credits(0, 11) == 3);
  CHECK(link.credits_held(0) == 3);
}

TEST_CASE("link: a run puts its flits on the link as its sends would, or into a folding receiver") {
  fresh_kernel();
  LinkParams lp;
  lp.latency = 2;
  const Clock clk(1000);
  Link link("l", clk, lp, 8);
  WakeLog rx;
  link.attach_receiver(&rx);
  auto pkt = std::make_shared<Packet>();
  pkt->length = 3;
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  CHECK_FALSE(link.send_run(pkt, 0, 9, 10, 1));   // 9 flits, 8 credits: nothing
  REQUIRE(link.send_run(pkt, 0, 3, 10, 1));
  CHECK_FALSE(pkt);   // the link owns the packet: its tail is on it
  CHECK(rx.at == std::vector<Cycle>{13, 14, 15});   // as three link_activity calls
  CHECK(link.flits_in_flight() == 3);
  CHECK(link.credits(10) == 5 + 3);   // during the run: as if the flits were sent one per cycle
  CHECK(link.credits(13) == 5);
  CHECK_THROWS_AS(link.send(vc_flit(1, 0), 12, 0), std::logic_error);
  for (Cycle t = 13; t <= 15; ++t) {
    REQUIRE(link.has_flit(t));
    CHECK(link.pop().index == static_cast<int>(t - 13));
  }
  // A folding receiver takes the flits at their send while the link is empty.
  struct Fold {
    std::vector<std::pair<int, Cycle>> got;   // (first, arrival)
    static bool run(void* r, int key, PacketPtr& p, int first, int n, Cycle arrival) {
      CHECK(key == 5);
      CHECK(p);
      static_cast<Fold*>(r)->got.emplace_back(first * 100 + n, arrival);
      return true;
    }
  } fold;
  link.attach_fold(&Fold::run, &fold, 5);
  link.send(vc_flit(2, 0), 20, 0);
  link.send_stream(vc_flit(4, 1), 3, 21, 0);
  REQUIRE(fold.got.size() == 2);
  CHECK(fold.got[0] == std::make_pair(1, Cycle{22}));
  CHECK(fold.got[1] == std::make_pair(103, Cycle{23}));
  CHECK(link.flits_in_flight() == 0);
  CHECK(link.flits_sent() == 3 + 1 + 3);
}
