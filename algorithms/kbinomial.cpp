#include "algorithms/kbinomial.h"

#include <stdexcept>
#include <string>
#include <vector>

namespace wormcast::algo {
namespace {

void require_k(unsigned k) {
  if (k < 1) throw std::invalid_argument("k-binomial: k must be >= 1, got k = " + std::to_string(k));
}

void require_n(Count n) {
  // A set of one node (the source alone) has nothing to send: no tree exists.
  if (n < 2)
    throw std::invalid_argument("k-binomial: multicast set size n (source included) must be >= 2, got n = " +
                                std::to_string(n));
}

void require_m(Count m) {
  if (m < 1) throw std::invalid_argument("k-binomial: packet count m must be >= 1, got m = " + std::to_string(m));
}

Count saturating_add(Count a, Count b) { return a > kCountSaturated - b ? kCountSaturated : a + b; }

}  // namespace

Count nodes_covered(Count steps, unsigned k) {
  require_k(k);
  // Closed forms avoid a window of k values when k is large or 1.
  if (k == 1) return saturating_add(steps, 1);
  if (steps <= k) return steps >= 64 ? kCountSaturated : Count{1} << steps;
  if (k >= 64) return kCountSaturated;  // N(s,k) >= N(k+1,k) = 2^(k+1) - 1
  // For s <= k, 2^s = 1 + N(s-1) + ... + N(0), so one recurrence with the
  // sum limited to the last min(s,k) values covers both cases of Lemma 4.
  std::vector<Count> window(k, 0);  // N(s-1..s-k), ring buffer indexed by s mod k
  Count sum = 0;                    // N(s-1) + ... + N(s-k)
  Count current = 1;                // N(0)
  for (Count s = 0;; ++s) {
    if (s == steps || current == kCountSaturated) return current;
    Count& slot = window[s % k];
    sum = saturating_add(sum - (sum == kCountSaturated ? 0 : slot), current);
    slot = current;
    current = saturating_add(sum, 1);
  }
}

Count single_packet_steps(Count n, unsigned k) {
  require_n(n);
  require_k(k);
  if (k == 1) return n - 1;  // the chain adds one node per step
  // N(s,k) >= Fib(s+3)-1 for k >= 2, so at most ~92 iterations before saturation.
  Count s = 1;
  while (nodes_covered(s, k) < n) ++s;
  return s;
}

Count pipelined_steps(Count n, unsigned k, Count m) {
  require_m(m);
  const Count t1 = single_packet_steps(n, k);
  const Count lag = m - 1;
  if (lag != 0 && k > (kCountSaturated - t1) / lag)
    throw std::overflow_error("k-binomial: T_1 + (m-1)k overflows for n = " + std::to_string(n) +
                              ", k = " + std::to_string(k) + ", m = " + std::to_string(m));
  return t1 + lag * k;
}

unsigned binomial_k(Count n) {
  require_n(n);
  unsigned b = 0;
  while (b < 64 && (Count{1} << b) < n) ++b;
  return b;
}

Count binomial_tree_steps(Count n, Count m) { return pipelined_steps(n, binomial_k(n), m); }

Count linear_tree_steps(Count n, Count m) { return pipelined_steps(n, kLinearK, m); }

OptimalK optimal_k(Count n, Count m, KTieBreak tie) {
  require_n(n);
  require_m(m);
  OptimalK best;
  bool have = false;
  for (unsigned k = 1; k <= binomial_k(n); ++k) {
    Count total;
    try {
      total = pipelined_steps(n, k, m);
    } catch (const std::overflow_error&) {
      continue;  // a k whose latency overflows cannot be the minimum
    }
    const bool better = !have || total < best.total_steps ||
                        (total == best.total_steps && tie == KTieBreak::largest_k);
    if (better) best = {k, single_packet_steps(n, k), total};
    have = true;
  }
  if (!have)
    throw std::overflow_error("k-binomial: no k fits T_1 + (m-1)k for n = " + std::to_string(n) +
                              ", m = " + std::to_string(m));
  return best;
}

}  // namespace wormcast::algo
