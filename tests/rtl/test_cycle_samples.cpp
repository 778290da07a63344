// The latency histogram behind every run's latency statistics
// (rtl_models/core/statistics.h): its count, sum, min, max and nearest-rank
// percentiles against a sorted list of the same samples.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <numeric>
#include <random>
#include <stdexcept>
#include <vector>

#include "rtl_models/core/statistics.h"

using wormcast::CycleSamples;

namespace {
// The reference: sort the list and read rank r (1-based).
std::uint32_t rank_of(std::vector<std::uint32_t> v, std::uint64_t r) {
  std::sort(v.begin(), v.end());
  return v.at(r - 1);
}
}  // namespace

TEST_CASE("cycle samples give every rank of a sorted list, inside and beyond the dense range") {
  std::mt19937 gen(7);
  // Mostly small latencies, some past kDense (a saturated run's), added in
  // no particular order, so both the histogram's growth and the sort of the
  // large ones are exercised.
  std::uniform_int_distribution<std::uint32_t> small(0, 900), large(CycleSamples::kDense, 3 * CycleSamples::kDense);
  std::vector<std::uint32_t> ref;
  CycleSamples s;
  for (int i = 0; i < 5000; ++i) {
    const std::uint32_t x = (i % 17 == 0) ? large(gen) : (i % 5 == 0 ? small(gen) + 3000 : small(gen));
    ref.push_back(x);
    s.add(x);
  }
  REQUIRE(s.size() == ref.size());
  CHECK(s.sum() == std::accumulate(ref.begin(), ref.end(), std::uint64_t{0}));
  CHECK(s.min() == *std::min_element(ref.begin(), ref.end()));
  CHECK(s.max() == *std::max_element(ref.begin(), ref.end()));
  for (std::uint64_t r : {1ul, 2ul, 999ul, 2500ul, 4700ul, 4706ul, 4999ul, 5000ul}) CHECK(s.at_rank(r) == rank_of(ref, r));
  // Adding after a query keeps the large samples in order.
  s.add(CycleSamples::kDense + 1);
  ref.push_back(CycleSamples::kDense + 1);
  CHECK(s.at_rank(4800) == rank_of(ref, 4800));
  CHECK_THROWS_AS(s.at_rank(0), std::out_of_range);
  CHECK_THROWS_AS(s.at_rank(5002), std::out_of_range);
}

TEST_CASE("summarize_cycles reports nearest-rank percentiles (worked example)") {
  // Ten latencies 10, 20, ..., 100: nearest rank of p50 is ceil(5) = 5 -> 50,
  // p95 ceil(9.5) = 10 -> 100, p99 ceil(9.9) = 10 -> 100; mean 55.
  std::vector<std::uint32_t> v{100, 30, 10, 20, 40, 60, 50, 80, 70, 90};
  const auto j = wormcast::summarize_cycles(v, 0.5);
  CHECK(j["count"] == 10);
  CHECK(j["mean"].get<double>() == 55.0);
  CHECK(j["min"] == 10);
  CHECK(j["p50"] == 50);
  CHECK(j["p95"] == 100);
  CHECK(j["p99"] == 100);
  CHECK(j["max"] == 100);
  CHECK(j["mean_us"].get<double>() == 27.5);
  CHECK(wormcast::summarize_cycles(CycleSamples{}, 1.0) == nlohmann::json{{"count", 0}});
}
