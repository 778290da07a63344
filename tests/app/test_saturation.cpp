// The saturation judgement on made-up backlogs (no simulation): a steady
// climb is saturation, a stable queue's wandering or a warm-up that levels
// off is not, whatever the window; each piece of evidence is named.
#include <catch2/catch.hpp>

#include <cmath>
#include <random>

#include "testbenches/app/saturation.h"

using namespace wormcast;
using namespace wormcast::tb;

namespace {

// Samples every `step` cycles up to `end`: `rate` arrivals per cycle, and a
// backlog given by `backlog(t)`.
template <typename F>
std::vector<BacklogSample> trace(Cycle end, Cycle step, double rate, F backlog) {
  std::vector<BacklogSample> s;
  for (Cycle t = 0; t <= end; t += step) {
    const auto arrived = static_cast<std::uint64_t>(rate * static_cast<double>(t)) + 1000;
    const auto b = static_cast<std::uint64_t>(std::max(0.0, backlog(static_cast<double>(t))));
    s.push_back({t, {arrived, arrived - std::min(arrived, b)}});
  }
  return s;
}

}  // namespace

TEST_CASE("a backlog that climbs steadily with the load on is saturation") {
  // 2 arrivals per cycle, 5 % of them left behind: 0.1 per cycle.
  std::mt19937 rng(1);
  std::normal_distribution<double> noise(0, 30);
  const auto s = trace(70000, 1000, 2.0, [&](double t) { return 100 + 0.1 * t + noise(rng); });
  const BacklogGrowth g = backlog_growth(s, 10000, 60000, 70000);
  // The later half of the longer of the window (50k) and the time after it
  // (10k): cycles 45000-70000.
  CHECK(g.from == 45000);
  CHECK(g.to == 70000);
  CHECK(g.samples == 26);
  CHECK(g.rise == Approx(0.1 * 25000).margin(60));
  CHECK(g.grew);
  // 2 % left behind rises as steadily, but under the 3 % share.
  const auto slow = trace(70000, 1000, 2.0, [&](double t) { return 100 + 0.04 * t + noise(rng); });
  CHECK_FALSE(backlog_growth(slow, 10000, 60000, 70000).grew);
  CHECK(g.grew);
}

TEST_CASE("a stable queue that wanders by its own length is not saturation") {
  std::mt19937 rng(2);
  std::normal_distribution<double> noise(0, 40);
  for (int trial = 0; trial < 50; ++trial) {
    const auto s = trace(70000, 1000, 2.0, [&](double) { return 120 + noise(rng); });
    INFO("trial " << trial);
    CHECK_FALSE(backlog_growth(s, 10000, 60000, 70000).grew);
  }
}

TEST_CASE("a warm-up that levels off before the stretch is not saturation, even with no warm-up period") {
  // From empty, the backlog rises to its level of 500 (a concave rise over
  // the first few thousand cycles), then wanders about it.
  std::mt19937 rng(3);
  std::normal_distribution<double> noise(0, 15);
  const auto level = [&](double t) { return 500.0 * (1 - std::exp(-t / 1500)) + noise(rng); };
  // A 3000-cycle window with no warm-up; the load stayed on 9000 cycles
  // after it until the measured work completed: the stretch is 7500-12000.
  const BacklogGrowth g = backlog_growth(trace(12000, 250, 2.0, level), 0, 3000, 12000);
  CHECK(g.from == 7500);
  CHECK_FALSE(g.grew);
  // Judged over the window's later half instead, the rise looks like a trend.
  const BacklogGrowth early = backlog_growth(trace(3000, 250, 2.0, level), 0, 3000, 3000);
  CHECK(early.from == 1500);
  CHECK(early.grew);
}

TEST_CASE("a short run is judged by a coarse rule, and a few items are never a trend") {
  // Two samples in the stretch (cycles 1500-2000): the rise must exceed a
  // tenth of the 500 arrivals.
  const auto s = [](double per_cycle) {
    return trace(2000, 500, 1.0, [per_cycle](double t) { return 50 + per_cycle * t; });
  };
  CHECK(backlog_growth(s(0.2), 0, 1000, 2000).grew);         // 100 of 500
  CHECK_FALSE(backlog_growth(s(0.05), 0, 1000, 2000).grew);  // 25 of 500
  // Nine items of growth: under the floor, however steady.
  const auto few = trace(70000, 1000, 0.01, [](double t) { return t / 2800; });
  CHECK_FALSE(backlog_growth(few, 10000, 60000, 70000).grew);
  CHECK_FALSE(backlog_growth({}, 0, 10, 10).grew);
  CHECK_FALSE(backlog_growth({{0, {1, 0}}}, 0, 10, 10).grew);
}

TEST_CASE("each piece of evidence is reported by name, with its numbers") {
  SaturationInputs in;
  in.unit = "messages";
  in.window_begin = 10000;
  in.window_end = 60000;
  in.load_end = 70000;
  in.backlog = trace(70000, 1000, 2.0, [](double) { return 100.0; });
  CHECK(judge_saturation(in).empty());

  in.measured_incomplete = true;
  in.measured_detail = "3 of 90 measured packets undelivered";
  in.ended_by_drain_limit = true;
  in.packets_left = 7;
  in.messages_left = 2;
  in.backlog = trace(70000, 1000, 2.0, [](double t) { return 0.5 * t; });
  const std::vector<SaturationEvidence> e = judge_saturation(in);
  REQUIRE(e.size() == 3);
  CHECK(e[0].name == "measured_incomplete");
  CHECK(e[0].detail == in.measured_detail);
  CHECK(e[1].name == "backlog_grew");
  CHECK_THAT(e[1].detail, Catch::StartsWith("the backlog of messages grew from 22500 to 35000 over cycles 45000-70000"));
  CHECK(e[2].name == "not_drained");
  CHECK(e[2].detail == "7 packets and 2 messages still outstanding when sim.drain_limit ended the run");
  // A workload with no words for it still counts.
  in.measured_detail.clear();
  CHECK(judge_saturation(in).front().name == "measured_incomplete");
}
