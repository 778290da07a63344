// Step counts of optimal k-binomial multicast trees under a smart, FPFS
// network interface (seed000 §4.5-4.6, seed002 §4-5). A k-binomial tree is a
// recursively doubling tree in which no vertex has more than k children.
// N(s,k) (seed000 Lemma 4 = seed002 Lemma 1) is the number of nodes it covers
// in s steps, T_1(n,k) the steps one packet needs to reach a set of n nodes,
// and under FPFS pipelining m packets need T_1 + (m-1)k steps (Theorem 2 with
// c_R = k). Theorem 3 picks the k in [1, ceil(log2 n)] minimising that. The
// paper gives no tie-break; seed002 §5.1 shows that "for m = 1 the optimal k
// is ceil(log2 n)" holds only with ties going to the largest k, the default.
//
// Throughout, n is the multicast SET size INCLUDING the source (seed002 §1:
// "multicast set size of 16 (number of destinations = 15)"), m the number of
// packets. Pure functions, no SystemC: the NI firmware calls them.
#pragma once

#include <cstdint>

namespace wormcast::algo {

using Count = std::uint64_t;

// N(s,k) saturates here instead of overflowing (only reachable for k >= 2
// with s around 64 or more, far beyond any set size we can simulate).
constexpr Count kCountSaturated = UINT64_MAX;

enum class KTieBreak {
  largest_k,   // default: reproduces "m = 1 gives k = ceil(log2 n)" (seed002 §5.1)
  smallest_k,  // the tie rule used by seed000's digest test vectors
};

// N(s,k): nodes (source included) covered in `steps` steps by a k-binomial
// tree. 2^s for s <= k, else 1 + N(s-1,k) + ... + N(s-k,k). Saturates at
// kCountSaturated. Throws std::invalid_argument if k < 1.
Count nodes_covered(Count steps, unsigned k);

// T_1(n,k) = min { s : N(s,k) >= n }: steps until one packet has reached all
// n members. Throws std::invalid_argument if n < 2 or k < 1.
Count single_packet_steps(Count n, unsigned k);

// T_m = T_1(n,k) + (m-1)k: steps until all m packets have reached all n
// members (seed002 Theorem 2, with a root of k children as construction B
// guarantees). Throws std::invalid_argument if n < 2, k < 1 or m < 1 and
// std::overflow_error if the result does not fit in Count.
Count pipelined_steps(Count n, unsigned k, Count m);

// ceil(log2 n): the k of the binomial tree and the upper end of Theorem 3's
// search range. Throws std::invalid_argument if n < 2.
unsigned binomial_k(Count n);

// The linear tree (a chain) is the 1-binomial tree.
constexpr unsigned kLinearK = 1;

// The two baselines of seed002 §5 and Fig. 14, as T_1 + (m-1)k:
// binomial ceil(log2 n)·m, linear (n-1) + (m-1). Same errors as pipelined_steps.
Count binomial_tree_steps(Count n, Count m);
Count linear_tree_steps(Count n, Count m);

struct OptimalK {
  unsigned k = 1;                   // the chosen fan-out bound
  Count first_packet_steps = 0;     // T_1(n,k)
  Count total_steps = 0;            // T_1 + (m-1)k
};

// Theorem 3: the k in [1, ceil(log2 n)] minimising T_1(n,k) + (m-1)k, ties
// broken by `tie`. Throws std::invalid_argument if n < 2 or m < 1.
OptimalK optimal_k(Count n, Count m, KTieBreak tie = KTieBreak::largest_k);

}  // namespace wormcast::algo
