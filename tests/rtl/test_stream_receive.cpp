// The receiving side of the stream step (docs/performance.md, point 3): an
// input buffer that takes the rest of a packet in one step writes it in
// closed form. Its counters, occupancy, occupancy integral and peak must be
// those of writing one flit per cycle; the expected values here come from an
// independent per-cycle account (written minus freed flits per cycle), not
// from the buffer.
#include <catch2/catch.hpp>

#include <algorithm>
#include <utility>
#include <vector>

#include "rtl_models/switch/input_buffer.h"
#include "rtl_models/core/kernel.h"
#include "rtl_models/core/link.h"
#include "rtl_models/core/link_interface.h"
#include "rtl_models/core/sim_context.h"
#include "tests/common/packets.h"

using namespace wormcast;
using namespace wormcast::rtl;

namespace {

PacketPtr packet(int len) { return test::bare_packet(len, 3); }

// Occupancy after each cycle's writes and frees, from the write and free
// cycles alone; the peak counts a cycle's writes before its frees.
struct Account {
  std::vector<Cycle> writes;                 // one entry per flit
  std::vector<std::pair<Cycle, int>> frees;  // (cycle, flits)
  long occ_after(Cycle c) const {
    long n = 0;
    for (Cycle w : writes) n += w <= c;
    for (const auto& f : frees) n -= f.first <= c ? f.second : 0;
    return n;
  }
  long integral(Cycle upto) const {   // flit-cycles over cycles 0 .. upto-1
    long s = 0;
    for (Cycle c = 0; c < upto; ++c) s += occ_after(c);
    return s;
  }
  long peak(Cycle upto) const {
    long best = 0;
    for (Cycle c = 0; c < upto; ++c) {
      long n = 0;
      for (Cycle w : writes) n += w <= c;
      for (const auto& f : frees) n -= f.first < c ? f.second : 0;
      best = std::max(best, n);
    }
    return best;
  }
};

}  // namespace

TEST_CASE("a received stream's ramp: arrived, last write, occupancy, integral and peak per cycle") {
  fresh_kernel();
  const int len = 40;
  InputBuffer buf("ib", 64, 8, NextHeader::after_drain);
  auto p = packet(len);
  Account acc;
  buf.write(Flit{p, 0}, 10);   // the head, per flit
  acc.writes.push_back(10);
  buf.receive_stream(13);      // flits 1 .. 39 written at 13 .. 51
  for (int k = 1; k < len; ++k) acc.writes.push_back(12 + static_cast<Cycle>(k));
  CHECK(buf.receive_tail() == 51);
  for (Cycle c = 11; c <= 60; c += 7) {
    buf.settle(c + 1, c);   // the writes of cycle c, as a switch evaluated at c sees them
    const BufferEntry& e = buf.last_entry();
    const int expect_arrived = static_cast<int>(acc.occ_after(c));
    CHECK(e.arrived == expect_arrived);
    CHECK(e.last_write == (expect_arrived == 1 ? Cycle{10} : 12 + static_cast<Cycle>(expect_arrived - 1)));
    CHECK(buf.occupancy() == expect_arrived);
    CHECK(buf.occupancy_integral(c + 1) == static_cast<double>(acc.integral(c + 1)));
    CHECK(buf.peak_occupancy() == acc.peak(c + 1));
  }
  CHECK_FALSE(buf.receiving());
  CHECK(buf.last_entry().arrived == len);
}

TEST_CASE("a received stream read onward as a stream: writes and chunk frees interleave as per flit") {
  fresh_kernel();
  const int len = 20;   // chunks of 8, 8, 4
  InputBuffer buf("ib", 64, 8, NextHeader::after_drain);
  auto p = packet(len);
  Account acc;
  buf.write(Flit{p, 0}, 5);
  acc.writes.push_back(5);
  buf.receive_stream(6);   // flits 1 .. 19 at 6 .. 24
  for (int k = 1; k < len; ++k) acc.writes.push_back(5 + static_cast<Cycle>(k));
  // Decoded and granted at 6; the branch reads flit j at 7 + j (flit j is
  // written at 5 + j, before its read), as one stream started at 7.
  buf.settle(7, 6);
  BufferEntry* e = buf.decode_candidate(1);
  REQUIRE(e != nullptr);
  CHECK(buf.set_branches(*e, {Branch{2, p, 0, 0, false}}) == 0);
  buf.grant(*e, e->branches[0], 6);
  buf.settle(8, 7);   // the switch's evaluation at 7: writes of 7 first
  CHECK(buf.tail_write(*e) == 24);
  std::vector<std::pair<Cycle, int>> credited;
  buf.start_stream(*e, e->branches[0], 7, len, [&](Cycle at, int flits) { credited.emplace_back(at, flits); });
  // Chunk c is freed at the read of its last flit: flits 7, 15, 19 at 14, 22, 26.
  const std::vector<std::pair<Cycle, int>> expect_frees{{14, 8}, {22, 8}, {26, 4}};
  CHECK(credited == expect_frees);
  acc.frees = expect_frees;
  for (Cycle c = 9; c <= 25; c += 4) {
    buf.settle(c + 1, c + 1);   // everything of cycle c
    CHECK(buf.occupancy() == acc.occ_after(c));
    CHECK(buf.occupancy_integral(c + 1) == static_cast<double>(acc.integral(c + 1)));
    CHECK(buf.peak_occupancy() == acc.peak(c + 1));
  }
  buf.finish_stream(*e, e->branches[0], 26);
  CHECK(buf.empty());
  CHECK(buf.occupancy() == 0);
  CHECK(buf.occupancy_integral(40) == static_cast<double>(acc.integral(40)));
  CHECK(buf.peak_occupancy() == acc.peak(40));
}

TEST_CASE("a received stream into a replicated entry counts branches - 1 copies per flit written") {
  fresh_kernel();
  InputBuffer buf("ib", 64, 4, NextHeader::after_drain);
  auto p = packet(12);
  buf.write(Flit{p, 0}, 0);
  buf.receive_stream(1);   // flits 1 .. 11 at 1 .. 11
  buf.settle(3, 2);        // flits 1, 2 written before the decode at 2
  BufferEntry* e = buf.decode_candidate(1);
  REQUIRE(e != nullptr);
  CHECK(buf.set_branches(*e, {Branch{0, p, 0, 0, false}, Branch{1, p, 0, 0, false}}) == 3);
  CHECK(buf.take_copies() == 0);   // written before the decode: counted by set_branches
  buf.settle(12, 11);
  CHECK(buf.take_copies() == 9);   // flits 3 .. 11, one extra copy each
  CHECK(buf.pending_copies() == 24);
}

TEST_CASE("a link gives up the rest of a packet only as consecutive arrivals ending in its tail") {
  fresh_kernel();
  Clock clk(5000);
  Link link("l", clk, LinkParams{}, 64);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  auto p = packet(6);
  link.send(Flit{p, 0}, 10, 0);
  link.send(Flit{p, 1}, 11, 0);   // arrives at 12; the stream's flits at 14 .. 17: a gap
  link.send_stream(Flit{p, 2}, 4, 13, 0);
  CHECK(link.take_rest(p.get(), 0) == UINT64_MAX);
  CHECK(link.has_flit(11));
  link.pop();
  CHECK(link.take_rest(p.get(), 1) == UINT64_MAX);
  link.pop();
  CHECK(link.take_rest(p.get(), 3) == UINT64_MAX);   // not the front
  CHECK(link.take_rest(p.get(), 2) == 14);
  CHECK(link.flits_in_flight() == 0);
  CHECK(link.flits_sent() == 6);
}

TEST_CASE("an assembler takes a stream's rest in one step, delivers at the tail and says so while it waits") {
  fresh_kernel();
  Clock clk(5000);
  SimContext ctx(5000);
  ctx.streams = true;
  ctx.stream_horizon = 1000;
  Link link("l", clk, LinkParams{}, 64);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  PacketAssembler rx(ctx, "node 0", true);
  auto p = packet(5);
  link.send(Flit{p, 0}, 10, 0);          // the head arrives at 11
  link.send_stream(Flit{p, 1}, 4, 11, 0);  // flits 1 .. 4 arrive at 12 .. 15
  std::vector<std::pair<PacketId, Cycle>> delivered;
  auto on_packet = [&](const PacketPtr& done, Cycle now) { delivered.emplace_back(done->id, now); };
  Cycle next = UINT64_MAX;
  CHECK(rx.step(link, 11, next, on_packet));   // the head, then the rest in one step
  CHECK(next == 15);                           // woken for the tail only
  CHECK(link.flits_in_flight() == 0);
  CHECK(ctx.flits.ejected == 5);
  CHECK(rx.describe() == "receiving packet 3 (its last flits arrive one per cycle, the tail at cycle 15)");
  next = UINT64_MAX;
  CHECK_FALSE(rx.step(link, 13, next, on_packet));   // nothing delivered before the tail's cycle
  CHECK(delivered.empty());
  rx.step(link, 15, next, on_packet);
  REQUIRE(delivered.size() == 1);
  CHECK(delivered[0] == std::make_pair(PacketId{3}, Cycle{15}));
  CHECK(rx.describe().empty());
}

// Deferred receiving (Link::allow_deferred_receive): the sink
// returns each credit when its flit is sent, for the flit's arrival, and
// takes body flits off with the tail or at the settle cycle. The expected
// wake-ups, counts and credits come from the send cycles alone: a flit sent
// at s arrives at s + 1 and its credit is back at s + 2 (latency and credit
// delay 1), as a sink popping every flit at its arrival would have it.
TEST_CASE("a deferring sink: woken for tails and at the settle cycle, counts and credits as per-flit pops") {
  fresh_kernel();
  Clock clk(5000);
  SimContext ctx(5000);
  ctx.streams = true;
  ctx.window = MeasureWindow{12, 16};
  const int initial = 8;
  Link link("l", clk, LinkParams{}, initial);
  link.wake_sender_only_when_starved();
  link.allow_deferred_receive();
  REQUIRE(link.deferred_receive_ok());
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  PacketAssembler rx(ctx, "node 0", false);
  auto p = packet(6);
  const std::vector<Cycle> sent = {10, 11, 13, 14, 17, 18};   // gaps, as behind other VCs
  // Credits at cycle t, before that cycle's send, from the send cycles alone.
  const auto expected_credits = [&](Cycle t) {
    int c = initial;
    for (Cycle s : sent) {
      if (s < t) --c;       // sent before t
      if (s + 2 <= t) ++c;  // its credit back by t
    }
    return c;
  };
  for (std::size_t k = 0; k < sent.size(); ++k) {
    const Cycle s = sent[k];
    CHECK(link.credits(s) == expected_credits(s));
    link.send(Flit{p, static_cast<int>(k)}, s, 0);
    link.return_credits(1, s + 1);   // the sink's return, for the arrival
    CHECK(link.last_sent_is_body() == (k + 1 < sent.size()));
    // Woken for the tail; body flits wait for it or the settle cycle, unless
    // they arrive after it.
    CHECK(link.deferred_due(100) == (k + 1 < sent.size() ? 100 : 19));
    CHECK(link.deferred_due(12) == 12);   // the flits arriving at 11 and 12 wait for the settle
  }
  for (Cycle t = 19; t < 24; ++t) CHECK(link.credits(t) == expected_credits(t));
  std::vector<std::pair<PacketId, Cycle>> delivered;
  auto on_packet = [&](const PacketPtr& done, Cycle now) { delivered.emplace_back(done->id, now); };
  Cycle next = UINT64_MAX;
  CHECK(rx.step_deferred(link, 12, 100, next, on_packet));   // a settle: the two flits arrived by 12
  CHECK(ctx.flits.ejected == 2);
  CHECK(next == 19);
  CHECK(link.deferred_due(12) == 14);   // the rest arrives after a settle at 12: per flit
  CHECK(rx.describe() == "receiving packet 3 (2 flits in)");
  next = UINT64_MAX;
  CHECK(rx.step_deferred(link, 19, 100, next, on_packet));
  CHECK(next == UINT64_MAX);
  REQUIRE(delivered.size() == 1);
  CHECK(delivered[0] == std::make_pair(PacketId{3}, Cycle{19}));
  CHECK(ctx.flits.ejected == 6);
  // Arrivals 11, 12, 14, 15, 18, 19: three in the window [12, 16).
  CHECK(ctx.stats.window_flits_ejected.value() == 3);
  CHECK(ctx.received_stream_flits == 4);   // taken after their arrival: 11 (at 12); 14, 15, 18 (at 19)
  CHECK(link.flits_in_flight() == 0);
}
