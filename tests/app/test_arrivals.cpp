// The arrival processes of the load workloads (testbenches/app/workloads/arrivals.h),
// checked against their distributions' moments: Bernoulli counts per cycle
// have mean p and variance p(1 - p) and never exceed 1; Poisson counts have
// mean and variance lambda (index of dispersion 1) and may exceed 1.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <vector>

#include "testbenches/app/workloads/arrivals.h"

using namespace wormcast;
using namespace wormcast::tb;

namespace {

struct Moments {
  double mean = 0, variance = 0;
  int most_in_one_cycle = 0;
};

// Counts per cycle over `cycles` cycles after the start.
Moments count_moments(ArrivalKind kind, double rate, Cycle cycles, std::uint64_t seed) {
  ArrivalProcess a(kind, rate, Rng(seed));
  std::vector<int> per(static_cast<std::size_t>(cycles) + 1, 0);
  Cycle last = 0;
  while (a.peek() <= cycles) {
    const Cycle c = a.pop();
    REQUIRE(c >= last);   // non-decreasing
    last = c;
    ++per[static_cast<std::size_t>(c)];
  }
  Moments m;
  double sum = 0, sq = 0;
  for (std::size_t c = 1; c < per.size(); ++c) {
    sum += per[c];
    sq += static_cast<double>(per[c]) * per[c];
    m.most_in_one_cycle = std::max(m.most_in_one_cycle, per[c]);
  }
  CHECK(per[0] == 0);   // the first arrival follows the start
  const double n = static_cast<double>(cycles);
  m.mean = sum / n;
  m.variance = sq / n - m.mean * m.mean;
  return m;
}

}  // namespace

TEST_CASE("arrivals: bernoulli has mean p, variance p(1-p), at most one per cycle") {
  for (const double p : {0.01, 0.2, 0.7}) {
    INFO(p);
    const Moments m = count_moments(ArrivalKind::bernoulli, p, 400000, 7);
    // 400,000 cycles: the mean's standard error is sqrt(p(1-p)/n) < 0.0008.
    CHECK(m.mean == Approx(p).margin(4 * std::sqrt(p * (1 - p) / 400000)));
    CHECK(m.variance == Approx(p * (1 - p)).epsilon(0.03));
    CHECK(m.most_in_one_cycle == 1);
  }
  const Moments all = count_moments(ArrivalKind::bernoulli, 1.0, 1000, 3);
  CHECK(all.mean == 1.0);
  CHECK(all.variance == 0.0);
}

TEST_CASE("arrivals: poisson has mean and variance lambda and can put several in one cycle") {
  for (const double lambda : {0.01, 0.3, 0.9}) {
    INFO(lambda);
    const Moments m = count_moments(ArrivalKind::poisson, lambda, 400000, 11);
    CHECK(m.mean == Approx(lambda).margin(4 * std::sqrt(lambda / 400000)));
    CHECK(m.variance / m.mean == Approx(1.0).epsilon(0.03));   // index of dispersion
    if (lambda >= 0.3) CHECK(m.most_in_one_cycle >= 3);          // P(>= 3) per cycle is 0.004 at 0.3
  }
}

TEST_CASE("arrivals: no rate gives no arrivals, bad rates and names are refused") {
  ArrivalProcess none(ArrivalKind::poisson, 0.0, Rng(1));
  CHECK(none.peek() == UINT64_MAX);
  CHECK(none.pop() == UINT64_MAX);
  ArrivalProcess later(ArrivalKind::bernoulli, 1.0, Rng(1), 500);
  CHECK(later.pop() == 501);
  CHECK_THROWS_WITH(ArrivalProcess(ArrivalKind::bernoulli, 1.5, Rng(1)), Catch::Contains("outside [0, 1]"));
  CHECK_THROWS_WITH(ArrivalProcess(ArrivalKind::poisson, -1.0, Rng(1)), Catch::Contains("outside [0, inf)"));
  CHECK(arrival_kind("poisson") == ArrivalKind::poisson);
  CHECK_THROWS_WITH(arrival_kind("uniform"), Catch::Contains("arrivals 'uniform': bernoulli or poisson"));
}
