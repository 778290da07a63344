// k-binomial step counts (seed000 §4.5-4.6, seed002 §4-5): N(s,k), T_1, T_m,
// Theorem 3's optimal k. Golden values come from the papers' worked examples,
// from the digest's independently computed tables, or from brute force
// written here; never from the code under test.
#include <catch2/catch.hpp>

#include <limits>
#include <stdexcept>
#include <vector>

#include "algorithms/kbinomial.h"
#include "algorithms/kbinomial_tree.h"
#include "algorithms/step_model.h"

using namespace wormcast::algo;
using Catch::Matchers::Contains;

namespace {

// Independent count of N(s,k): simulate a population in which every node,
// from the step after it is reached, reaches one new node per step for k
// steps ("recursively doubling, at most k children").
Count brute_force_nodes(unsigned s, unsigned k) {
  std::vector<unsigned> reached_at{0};  // the source
  for (unsigned t = 1; t <= s; ++t) {
    const std::size_t before = reached_at.size();
    for (std::size_t v = 0; v < before; ++v)
      if (reached_at[v] < t && t <= reached_at[v] + k) reached_at.push_back(t);
  }
  return reached_at.size();
}

unsigned brute_ceil_log2(Count n) {
  unsigned b = 0;
  for (Count p = 1; p < n; p *= 2) ++b;
  return b;
}

}  // namespace

TEST_CASE("N(s,k) matches the digest's reference table (seed002 §5)", "[kbinomial]") {
  const std::vector<std::vector<Count>> table = {
      {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11},
      {1, 2, 4, 7, 12, 20, 33, 54, 88, 143, 232},
      {1, 2, 4, 8, 15, 28, 52, 96, 177, 326, 600},
      {1, 2, 4, 8, 16, 31, 60, 116, 224, 432, 833},
      {1, 2, 4, 8, 16, 32, 63, 124, 244, 480, 944},
      {1, 2, 4, 8, 16, 32, 64, 127, 252, 500, 992},
  };
  for (unsigned k = 1; k <= table.size(); ++k)
    for (unsigned s = 0; s <= 10; ++s) {
      INFO("k = " << k << ", s = " << s);
      CHECK(nodes_covered(s, k) == table[k - 1][s]);
    }
}

TEST_CASE("N(s,k) equals a brute-force population count", "[kbinomial]") {
  for (unsigned k = 1; k <= 8; ++k)
    for (unsigned s = 0; s <= 16; ++s) {
      INFO("k = " << k << ", s = " << s);
      CHECK(nodes_covered(s, k) == brute_force_nodes(s, k));
    }
}

TEST_CASE("N(s,k) saturates instead of overflowing", "[kbinomial]") {
  CHECK(nodes_covered(63, 64) == (Count{1} << 63));
  CHECK(nodes_covered(64, 64) == kCountSaturated);
  CHECK(nodes_covered(200, 2) == kCountSaturated);
  CHECK(nodes_covered(100000, 70) == kCountSaturated);
  CHECK(nodes_covered(kCountSaturated, 1) == kCountSaturated);
  CHECK(nodes_covered(1000, 1) == 1001);
}

TEST_CASE("T_1 is the least s with N(s,k) >= n (brute force) and T_m = T_1 + (m-1)k", "[kbinomial]") {
  for (Count n = 2; n <= 300; ++n)
    for (unsigned k = 1; k <= 9; ++k) {
      unsigned s = 0;
      while (brute_force_nodes(s, k) < n) ++s;
      INFO("n = " << n << ", k = " << k);
      REQUIRE(single_packet_steps(n, k) == s);
      CHECK(pipelined_steps(n, k, 1) == s);
      CHECK(pipelined_steps(n, k, 7) == s + 6 * k);
    }
  // Extremes named in seed002 §5: linear T_1 = n-1, binomial T_1 = ceil(log2 n).
  CHECK(single_packet_steps(1000000000000ULL, kLinearK) == 999999999999ULL);
  CHECK(single_packet_steps(1000, binomial_k(1000)) == 10);
  CHECK(single_packet_steps(kCountSaturated, 2) < 100);
}

TEST_CASE("binomial_k is ceil(log2 n)", "[kbinomial]") {
  for (Count n = 2; n <= 5000; ++n) CHECK(binomial_k(n) == brute_ceil_log2(n));
  CHECK(binomial_k(Count{1} << 63) == 63);
  CHECK(binomial_k((Count{1} << 63) + 1) == 64);
  CHECK(binomial_k(kCountSaturated) == 64);
}

TEST_CASE("paper examples: Fig. 5/7 (n=4, m=3) and Fig. 8 (n=8, m=3)", "[kbinomial][golden]") {
  // seed002 Fig. 5 / seed000 Fig. 7: 3 packets to 3 destinations.
  CHECK(pipelined_steps(4, binomial_k(4), 3) == 6);
  CHECK(pipelined_steps(4, kLinearK, 3) == 5);
  // seed002 Fig. 8: 3 packets to 7 destinations on the binomial tree: 3 + 2*3.
  CHECK(binomial_k(8) == 3);
  CHECK(pipelined_steps(8, 3, 3) == 9);
  // seed002 §7.1: linear T_m = (n-1) + (m-1); binomial ceil(log2 n) per packet.
  CHECK(linear_tree_steps(16, 5) == 15 + 4);
  CHECK(binomial_tree_steps(16, 5) == 4 * 5);
  CHECK(binomial_tree_steps(4, 3) == 6);
  CHECK(linear_tree_steps(4, 3) == 5);
  // seed002 Fig. 9: set size 16, one packet: 5 steps with k = 3, 4 with k = 4.
  CHECK(single_packet_steps(16, 3) == 5);
  CHECK(single_packet_steps(16, 4) == 4);
}

TEST_CASE("optimal k: digest checks and tie-break rules (seed002 §5.1, §7.1)", "[kbinomial][golden]") {
  // n = 8, m = 3: the optimum is k = 2 with 8 steps (seed000 digest §4.6).
  CHECK(optimal_k(8, 3).k == 2);
  CHECK(optimal_k(8, 3).total_steps == 8);
  // n = 4, m = 3: linear (5) beats binomial (6).
  CHECK(optimal_k(4, 3).k == 1);
  // n = 15, m = 1: k = 3 and k = 4 both give T_1 = 4.
  CHECK(optimal_k(15, 1).k == 4);
  CHECK(optimal_k(15, 1, KTieBreak::smallest_k).k == 3);
  CHECK(optimal_k(15, 1).first_packet_steps == 4);
  // "For m = 1 the optimal k is ceil(log2 n)" holds with the default tie-break.
  for (Count n = 2; n <= 300; ++n) CHECK(optimal_k(n, 1).k == brute_ceil_log2(n));
  // n = 16: k = 1 first optimal at m = 11 (smallest k) or m = 12 (largest k).
  CHECK(optimal_k(16, 10, KTieBreak::smallest_k).k > 1);
  CHECK(optimal_k(16, 11, KTieBreak::smallest_k).k == 1);
  CHECK(optimal_k(16, 11).k > 1);
  CHECK(optimal_k(16, 12).k == 1);
  // n = 32: m = 26 or 27; n = 64: m = 56 or 57 (digest §7.1 checks).
  CHECK(optimal_k(32, 25, KTieBreak::smallest_k).k > 1);
  CHECK(optimal_k(32, 26, KTieBreak::smallest_k).k == 1);
  CHECK(optimal_k(32, 26).k > 1);
  CHECK(optimal_k(32, 27).k == 1);
  CHECK(optimal_k(64, 55, KTieBreak::smallest_k).k > 1);
  CHECK(optimal_k(64, 56, KTieBreak::smallest_k).k == 1);
  CHECK(optimal_k(64, 56).k > 1);
  CHECK(optimal_k(64, 57).k == 1);
  // m = 4: k = 2 for 9 <= n <= 64; m = 8: k = 2 for 14 <= n <= 64 (Fig. 12(b) prose).
  for (Count n = 9; n <= 64; ++n) CHECK(optimal_k(n, 4).k == 2);
  for (Count n = 14; n <= 64; ++n) CHECK(optimal_k(n, 8).k == 2);
  // k >= 3 first becomes strictly optimal for m = 4 only at n = 6765 (digest §7.1).
  CHECK(optimal_k(6764, 4, KTieBreak::smallest_k).k == 2);
  CHECK(optimal_k(6765, 4, KTieBreak::smallest_k).k >= 3);
  // Huge m: only k = 1 fits without overflow, and it is optimal anyway.
  CHECK(optimal_k(1000, kCountSaturated / 2).k == 1);
}

TEST_CASE("optimal k equals brute force over the step model of every k-binomial tree", "[kbinomial][slow]") {
  for (std::size_t n = 2; n <= 128; ++n) {
    const unsigned top = brute_ceil_log2(n);
    std::vector<KBinomialTree> trees;
    for (unsigned k = 1; k <= top + 2; ++k) trees.push_back(build_kbinomial_tree(n, k));
    for (std::size_t m = 1; m <= 16; ++m) {
      unsigned best_small = 0, best_large = 0, best_steps = std::numeric_limits<unsigned>::max();
      unsigned best_beyond = std::numeric_limits<unsigned>::max();
      for (unsigned k = 1; k <= top + 2; ++k) {
        const unsigned steps = simulate_steps(trees[k - 1].children, 0, m).total_steps;
        if (k > top) {
          best_beyond = std::min(best_beyond, steps);
          continue;
        }
        if (steps < best_steps) best_steps = steps, best_small = k;
        if (steps <= best_steps) best_large = k;
      }
      INFO("n = " << n << ", m = " << m);
      const OptimalK large = optimal_k(n, m);
      const OptimalK small = optimal_k(n, m, KTieBreak::smallest_k);
      CHECK(large.k == best_large);
      CHECK(small.k == best_small);
      CHECK(large.total_steps == best_steps);
      CHECK(small.total_steps == best_steps);
      // Theorem 3's range is enough: a larger k never does strictly better.
      CHECK(best_beyond >= best_steps);
    }
  }
}

TEST_CASE("bad input names the parameter and its value", "[kbinomial][errors]") {
  CHECK_THROWS_AS(nodes_covered(3, 0), std::invalid_argument);
  CHECK_THROWS_WITH(nodes_covered(3, 0), Contains("k = 0"));
  CHECK_THROWS_WITH(single_packet_steps(1, 2), Contains("n = 1"));
  CHECK_THROWS_WITH(single_packet_steps(0, 2), Contains("n = 0"));
  CHECK_THROWS_WITH(single_packet_steps(5, 0), Contains("k = 0"));
  CHECK_THROWS_WITH(pipelined_steps(5, 2, 0), Contains("m = 0"));
  CHECK_THROWS_WITH(pipelined_steps(1, 2, 3), Contains("n = 1"));
  CHECK_THROWS_WITH(optimal_k(1, 3), Contains("n = 1"));
  CHECK_THROWS_WITH(optimal_k(9, 0), Contains("m = 0"));
  CHECK_THROWS_WITH(binomial_k(1), Contains("n = 1"));
  CHECK_THROWS_AS(pipelined_steps(kCountSaturated, 1, 3), std::overflow_error);
  CHECK_THROWS_AS(pipelined_steps(100, 3, kCountSaturated), std::overflow_error);
}
