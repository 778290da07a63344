// Construction of k-binomial multicast trees on an ordered chain of the n
// members of a multicast set (seed000 §4.7, seed002 §6, Figs. 9-11). Chain
// position 0 is the source; a node's subtree always occupies a contiguous
// block of positions with the node at its left end, and the child it sends to
// first gets the rightmost sub-block, the next child the block to its left,
// and so on (Fig. 11). With a contention-free ordering this keeps all sends of
// one packet in one step on disjoint chain intervals.
//
// s = T_1(n,k). The full k-binomial tree of s steps has N(s,k) nodes; when
// n < N(s,k) it must be truncated and the papers give no rule. Two options:
//
//  * Construction B (time_ordered, the default; seed002 §6.3): grow the tree
//    in time order. A node that received packet 1 in step t sends to its
//    i-th child in step t+i (i = 1..k). Steps 1..s-1 are kept whole (they
//    cover N(s-1,k) < n nodes); of the sends of step s only the first
//    n - N(s-1,k) are kept, ordered by the sender's receive step, then by
//    the sender's creation index (which, since nodes are created in time
//    order, is simply "lower creation index first"). This reproduces Fig. 9
//    (per-step counts 1, 2, 4, 7, 1 for n = 16, k = 3) and the root always
//    has min(k, s) = k children for k <= ceil(log2 n), so Theorem 2 holds
//    exactly: T_m = T_1 + (m-1)k.
//  * Construction A (literal; seed002 §6.2): the paper's recursion read
//    literally. The node at lo owning [lo..hi] with s steps left sends, for
//    i = 1..k, to the node min(N(s-i,k), right-lo) places from the current
//    right end, which then owns that block with s-i steps left. Truncation
//    thus falls on the LAST children: for n = 16, k = 3 the root gets one
//    child. T_1 is the same, but T_m = T_1 + (m-1)·(max fan-out), which can
//    differ from Theorem 2.
//
// A relay NI never sees the whole tree: it receives a RelayBlock in the
// packet header and relay_children() gives its children and their blocks.
// build_kbinomial_tree() computes the same tree globally (independently of
// relay_children, so each checks the other).
#pragma once

#include <cstddef>
#include <vector>

namespace wormcast::algo {

enum class TreeConstruction {
  time_ordered,  // construction B: matches Fig. 9 and Theorems 1-2 (default)
  literal,       // construction A: the paper's pseudo-code, truncating the last children
};

const char* to_string(TreeConstruction c);

// What a relay learns from the header of the packet it receives: it owns
// chain positions [first, last] (it is `first`), and it received packet 1 in
// step T_1 - steps (so `steps` is the step budget left for its block).
// k and the construction are message-wide and travel in the header too, as
// must the node ids of positions first..last (or of the whole chain), so the
// relay can address the children these positions name. For time_ordered,
// `steps` only serves to check the block and to label the children.
struct RelayBlock {
  std::size_t first = 0;
  std::size_t last = 0;
  unsigned steps = 0;
  std::size_t size() const { return last - first + 1; }
  bool operator==(const RelayBlock& o) const {
    return first == o.first && last == o.last && steps == o.steps;
  }
};

// The block the source starts with: [0, n-1] and steps = T_1(n,k).
// Throws std::invalid_argument if n < 2 or k < 1.
RelayBlock root_block(std::size_t n, unsigned k);

// The children of the relay owning `mine`, in send order; child i (1-based)
// is sent packet 1 in the relay's receive step + i and owns the returned
// block (its position is block.first, its steps = mine.steps - i). A leaf
// gets an empty list. Cost O(mine.size()) for time_ordered (the relay
// regrows its own subtree, whose truncation depends only on its block size),
// O(k) for literal. Throws std::invalid_argument if k < 1, first > last, or
// the block cannot occur in that construction (size > N(steps,k), or for
// time_ordered size < N(steps-1,k)).
std::vector<RelayBlock> relay_children(const RelayBlock& mine, unsigned k,
                                       TreeConstruction c = TreeConstruction::time_ordered);

// A whole tree, indexed by chain position (0 = source).
struct KBinomialTree {
  unsigned k = 1;
  unsigned steps = 0;  // T_1(n,k): step in which the last node gets packet 1
  TreeConstruction construction = TreeConstruction::time_ordered;
  std::vector<std::vector<std::size_t>> children;  // [node] children in send order
  std::vector<std::vector<unsigned>> send_step;    // [node][i] step packet 1 goes to children[node][i]
  std::vector<std::size_t> parent;                 // [node], parent[0] = kNoParent
  std::vector<unsigned> receive_step;              // [node] step it gets packet 1 (0 for the source)
  std::vector<std::size_t> block_last;             // [node] its subtree is [node, block_last[node]]
  std::size_t size() const { return children.size(); }
};

constexpr std::size_t kNoParent = static_cast<std::size_t>(-1);

// The k-binomial tree on chain positions 0..n-1 with s = T_1(n,k).
// Throws std::invalid_argument if n < 2 or k < 1.
KBinomialTree build_kbinomial_tree(std::size_t n, unsigned k,
                                   TreeConstruction c = TreeConstruction::time_ordered);

// The header a relay at chain position `node` receives in `tree`.
RelayBlock block_of(const KBinomialTree& tree, std::size_t node);

}  // namespace wormcast::algo
