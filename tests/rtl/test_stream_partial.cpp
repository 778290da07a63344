// Streams under contention (docs/performance.md): a sender streams only the
// flits that have a credit by their cycle, counting credits already returned
// for later cycles, and the input buffer reads a stream that stops short of
// the tail. The expected values come from independent per-cycle accounts
// (credits held plus returns arrived minus flits sent; buffer writes minus
// frees), not from the code under test.
#include <catch2/catch.hpp>

#include <algorithm>
#include <memory>
#include <utility>
#include <vector>

#include "rtl_models/switch/input_buffer.h"
#include "rtl_models/core/kernel.h"
#include "rtl_models/core/link.h"
#include "tests/common/packets.h"

using namespace wormcast;
using namespace wormcast::rtl;

namespace {

// Credits of a sender per cycle: `held` at the start plus every return
// arrived by cycle t, minus the flits sent before t.
struct CreditAccount {
  int held;
  std::vector<std::pair<Cycle, int>> arrivals;   // (arrival cycle, credits)
  int arrived_by(Cycle t) const {
    int n = held;
    for (const auto& a : arrivals) n += a.first <= t ? a.second : 0;
    return n;
  }
  // Flits a per-flit sender sends one per cycle from `now` before its first stall.
  int run(Cycle now, int max) const {
    int sent = 0;
    while (sent < max && arrived_by(now + static_cast<Cycle>(sent)) - sent > 0) ++sent;
    return sent;
  }
};

}  // namespace

namespace {

// For every start cycle and cap: a fresh link holding acc.held credits, the
// returns given by `give`, and stream_credits against the per-cycle account.
template <class Give>
void check_stream_credits(const CreditAccount& acc, const std::vector<Cycle>& starts, const std::vector<int>& maxes,
                          Give give) {
  fresh_kernel();
  Clock clk(5000);
  std::vector<std::unique_ptr<Link>> links;
  for (std::size_t i = 0; i < starts.size() * maxes.size(); ++i)
    links.push_back(std::make_unique<Link>(("l" + std::to_string(i)).c_str(), clk, LinkParams{}, acc.held));
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  std::size_t i = 0;
  for (const Cycle now : starts)
    for (const int max : maxes) {
      Link& l = *links[i++];
      give(l);
      INFO("start " << now << ", at most " << max);
      CHECK(l.stream_credits(now, max) == acc.run(now, max));
    }
}

}  // namespace

TEST_CASE("a link streams the flits that have a credit by their cycle, returns given in advance included") {
  // Returns given at 20 (2 credits), 23 (1), 30 (4), arriving one cycle later.
  const CreditAccount acc{3, {{21, 2}, {24, 1}, {31, 4}}};
  check_stream_credits(acc, {15, 19, 20, 21, 22, 25, 28, 40}, {1, 4, 6, 100}, [](Link& l) {
    l.return_credits(2, 20);
    l.return_credits(1, 23);
    l.return_credits(4, 30);
  });
}

TEST_CASE("stream credits count credit ramps (one credit per cycle) as their single credits") {
  // Ramps given from 20 (3 credits), from 23 (2: its first arrives with the
  // first ramp's last), one credit at 26, a ramp from 30 (4); each arrives
  // one cycle later (credit delay 1), one credit per cycle of a ramp.
  const CreditAccount acc{2, {{21, 1}, {22, 1}, {23, 1}, {24, 1}, {25, 1}, {27, 1},
                              {31, 1}, {32, 1}, {33, 1}, {34, 1}}};
  check_stream_credits(acc, {15, 18, 20, 21, 22, 23, 24, 26, 29, 31, 33, 40}, {1, 3, 7, 100}, [](Link& l) {
    l.return_credit_ramp(3, 20);
    l.return_credit_ramp(2, 23);
    l.return_credits(1, 26);
    l.return_credit_ramp(4, 30);
  });
}

TEST_CASE("during a stream short of the tail, credits(t) and the next send are the per-flit ones") {
  fresh_kernel();
  Clock clk(5000);
  Link link("l", clk, LinkParams{}, 2);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  link.return_credits(1, 11);   // arrives at 12
  link.return_credits(3, 12);   // arrives at 13
  const CreditAccount acc{2, {{12, 1}, {13, 3}}};
  auto p = test::bare_packet(20, 3);
  const Cycle now = 10;
  const int m = link.stream_credits(now, 20);
  REQUIRE(m == acc.run(now, 20));
  REQUIRE(m == 6);   // 10, 11 on held credits, 12 on the first return, 13 .. 15 on the second
  link.send_stream(Flit{p, 0}, m, now, 0);
  for (Cycle t = now; t < now + static_cast<Cycle>(m); ++t)
    CHECK(link.credits(t) == acc.arrived_by(t) - static_cast<int>(t - now));
  const Cycle after = now + static_cast<Cycle>(m);
  CHECK(link.credits(after) == acc.arrived_by(after) - m);
  CHECK(link.credits(after) == 0);   // the per-flit sender stalls at 16 as well
  CHECK_THROWS(link.send_stream(Flit{p, m}, 1, after, 0));
  link.return_credits(1, after);
  CHECK(link.stream_credits(after + 1, 20) == 1);
  link.send(Flit{p, m}, after + 1, 0);
  CHECK(link.flits_sent() == static_cast<std::uint64_t>(m + 1));
}

namespace {

// Occupancy after each cycle's writes and frees (writes before frees).
struct BufferAccount {
  std::vector<Cycle> writes;
  std::vector<std::pair<Cycle, int>> frees;
  long occ_after(Cycle c) const {
    long n = 0;
    for (Cycle w : writes) n += w <= c;
    for (const auto& f : frees) n -= f.first <= c ? f.second : 0;
    return n;
  }
  long integral(Cycle upto) const {
    long s = 0;
    for (Cycle c = 0; c < upto; ++c) s += occ_after(c);
    return s;
  }
};

}  // namespace

TEST_CASE("an input buffer reads per flit, as streams short of the tail, and per flit again") {
  fresh_kernel();
  const int len = 20;   // chunks of 8, 8, 4
  InputBuffer buf("ib", 64, 8, NextHeader::after_drain);
  auto p = test::bare_packet(len, 3);
  BufferAccount acc;
  for (int k = 0; k < len; ++k) {
    buf.write(Flit{p, k}, static_cast<Cycle>(k));
    acc.writes.push_back(static_cast<Cycle>(k));
  }
  BufferEntry* e = buf.decode_candidate(1);
  REQUIRE(e != nullptr);
  buf.set_branches(*e, {Branch{2, p, 0, 0, false}});
  Branch& b = e->branches[0];
  buf.grant(*e, b, 19);
  int freed = 0;
  // Flit j is read at 20 + j throughout: per flit 0 .. 2, a stream of 3 .. 15
  // (completes chunk 0 at flit 7, cycle 27, and chunk 1 at its own stop,
  // flit 15, cycle 35), a stream of 16 .. 17 (no chunk completes), per flit
  // 18 .. 19 (chunk 2 at flit 19, cycle 39).
  for (int j = 0; j < 3; ++j) buf.read(*e, b, 20 + static_cast<Cycle>(j), freed);
  std::vector<std::pair<Cycle, int>> credited;
  const auto on_free = [&](Cycle at, int flits) { credited.emplace_back(at, flits); };
  buf.start_stream(*e, b, 23, 13, on_free);
  CHECK(b.next == 16);
  CHECK(credited == std::vector<std::pair<Cycle, int>>{{27, 8}, {35, 8}});
  acc.frees = {{27, 8}, {35, 8}, {39, 4}};
  buf.settle(30, 30);   // cycles up to 29
  CHECK(buf.occupancy() == acc.occ_after(29));
  CHECK(buf.occupancy_integral(30) == static_cast<double>(acc.integral(30)));
  buf.settle(36, 36);   // the stream's last cycle, 35
  CHECK(buf.occupancy() == acc.occ_after(35));
  buf.start_stream(*e, b, 36, 2, on_free);
  CHECK(credited.size() == 2);
  buf.settle(38, 38);
  CHECK(buf.occupancy() == acc.occ_after(37));
  for (int j = 18; j < len; ++j) {
    const Cycle t = 20 + static_cast<Cycle>(j);
    buf.read(*e, b, t, freed);
    CHECK(buf.occupancy() == acc.occ_after(t));
    CHECK(buf.occupancy_integral(t + 1) == static_cast<double>(acc.integral(t + 1)));
  }
  CHECK(buf.empty());
  CHECK(buf.peak_occupancy() == len);
  CHECK(buf.occupancy_integral(50) == static_cast<double>(acc.integral(50)));
}
