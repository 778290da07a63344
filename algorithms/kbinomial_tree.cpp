#include "algorithms/kbinomial_tree.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "algorithms/kbinomial.h"

namespace wormcast::algo {
namespace {

// Construction B grown in time order, nodes numbered in creation order.
// Creation order is also (receive step, sender rank) order, so "earlier
// received sender first, then lower index" is just "lower index first".
struct Grown {
  std::vector<std::size_t> parent;  // by creation index; parent[0] = kNoParent
  std::vector<unsigned> receive;    // receive step of packet 1, nondecreasing
  std::vector<std::size_t> subtree; // subtree size
};

Grown grow_time_ordered(std::size_t n, unsigned k) {
  Grown g;
  g.parent.reserve(n);
  g.receive.reserve(n);
  g.parent.push_back(kNoParent);
  g.receive.push_back(0);
  std::size_t lo = 0;  // first node still allowed to send (received in t-k or later)
  for (unsigned t = 1; g.parent.size() < n; ++t) {
    const std::size_t hi = g.parent.size();  // nodes received before step t
    while (lo < hi && std::uint64_t{g.receive[lo]} + k < t) ++lo;
    for (std::size_t v = lo; v < hi && g.parent.size() < n; ++v) {
      g.parent.push_back(v);
      g.receive.push_back(t);
    }
  }
  g.subtree.assign(n, 1);
  for (std::size_t v = n - 1; v > 0; --v) g.subtree[g.parent[v]] += g.subtree[v];
  return g;
}

void require_k(unsigned k) {
  if (k < 1) throw std::invalid_argument("k-binomial tree: k must be >= 1, got k = " + std::to_string(k));
}

std::string describe(const RelayBlock& b) {
  return "[" + std::to_string(b.first) + ", " + std::to_string(b.last) + "] with " +
         std::to_string(b.steps) + " steps";
}

void require_block(const RelayBlock& b, unsigned k, TreeConstruction c) {
  if (b.first > b.last)
    throw std::invalid_argument("k-binomial relay: block first > last: " + describe(b));
  const Count size = b.size();
  bool ok = size <= nodes_covered(b.steps, k);
  // B keeps every send before the last step, so a block is never smaller
  // than the full tree one step shorter.
  if (c == TreeConstruction::time_ordered && b.steps > 0) ok = ok && size >= nodes_covered(b.steps - 1, k);
  if (!ok)
    throw std::invalid_argument(std::string("k-binomial relay: block ") + describe(b) + " cannot occur in a " +
                                std::to_string(k) + "-binomial tree (construction " + to_string(c) + ")");
}

std::vector<RelayBlock> children_time_ordered(const RelayBlock& mine, unsigned k) {
  // A subtree of B is B grown on its own block size: the truncation order
  // restricted to a subtree is the subtree's own creation order.
  const Grown g = grow_time_ordered(mine.size(), k);
  std::vector<RelayBlock> out;
  std::size_t right = mine.last;
  unsigned i = 0;
  for (std::size_t v = 1; v < g.parent.size(); ++v) {
    if (g.parent[v] != 0) continue;
    ++i;
    const std::size_t first = right - g.subtree[v] + 1;
    out.push_back({first, right, mine.steps - i});
    right = first - 1;
  }
  return out;
}

std::vector<RelayBlock> children_literal(const RelayBlock& mine, unsigned k) {
  std::vector<RelayBlock> out;
  std::size_t right = mine.last;
  for (unsigned i = 1; i <= k && right > mine.first; ++i) {
    if (i > mine.steps) throw std::logic_error("k-binomial relay: literal construction ran out of steps");
    const Count full = nodes_covered(mine.steps - i, k);
    const std::size_t size = static_cast<std::size_t>(std::min<Count>(full, right - mine.first));
    out.push_back({right - size + 1, right, mine.steps - i});
    right -= size;
  }
  return out;
}

KBinomialTree empty_tree(std::size_t n, unsigned k, TreeConstruction c) {
  KBinomialTree t;
  t.k = k;
  t.construction = c;
  t.children.assign(n, {});
  t.send_step.assign(n, {});
  t.parent.assign(n, kNoParent);
  t.receive_step.assign(n, 0);
  t.block_last.assign(n, 0);
  return t;
}

void add_edge(KBinomialTree& t, std::size_t from, std::size_t to, unsigned step) {
  t.children[from].push_back(to);
  t.send_step[from].push_back(step);
  t.parent[to] = from;
  t.receive_step[to] = step;
}

// Construction B over the whole set: grow in time order, then embed the
// subtrees as contiguous blocks, first child rightmost (Fig. 11).
KBinomialTree build_time_ordered(std::size_t n, unsigned k) {
  const Grown g = grow_time_ordered(n, k);
  std::vector<std::vector<std::size_t>> kids(n);  // by creation index, send order
  for (std::size_t v = 1; v < n; ++v) kids[g.parent[v]].push_back(v);
  std::vector<std::size_t> pos(n, 0);
  KBinomialTree t = empty_tree(n, k, TreeConstruction::time_ordered);
  for (std::size_t v = 0; v < n; ++v) {  // parents precede children in creation order
    std::size_t right = pos[v] + g.subtree[v] - 1;
    t.block_last[pos[v]] = right;
    for (std::size_t c : kids[v]) {
      pos[c] = right - g.subtree[c] + 1;
      right = pos[c] - 1;
      add_edge(t, pos[v], pos[c], g.receive[c]);
    }
  }
  return t;
}

// Construction A: seed002 §6.2's pseudo-code. The recursion build(child,
// right, s-i) is kept on an explicit stack: a linear tree nests n-1 deep.
void build_literal(KBinomialTree& t, const RelayBlock& root) {
  std::vector<RelayBlock> pending{root};  // build(lo, hi, s) calls still to run
  while (!pending.empty()) {
    const auto [lo, hi, s] = pending.back();
    pending.pop_back();
    t.block_last[lo] = hi;
    std::size_t right = hi;
    for (unsigned i = 1; i <= t.k; ++i) {
      if (right <= lo) break;
      const Count full = nodes_covered(s - i, t.k);  // i <= s whenever hi-lo+1 <= N(s,k)
      const std::size_t size = static_cast<std::size_t>(std::min<Count>(full, right - lo));
      const std::size_t child = right - size + 1;
      add_edge(t, lo, child, t.receive_step[lo] + i);
      pending.push_back({child, right, s - i});
      right = child - 1;
    }
  }
}

}  // namespace

const char* to_string(TreeConstruction c) {
  return c == TreeConstruction::time_ordered ? "time_ordered" : "literal";
}

RelayBlock root_block(std::size_t n, unsigned k) {
  const auto steps = static_cast<unsigned>(single_packet_steps(n, k));  // validates n and k
  return {0, n - 1, steps};
}

std::vector<RelayBlock> relay_children(const RelayBlock& mine, unsigned k, TreeConstruction c) {
  require_k(k);
  require_block(mine, k, c);
  return c == TreeConstruction::time_ordered ? children_time_ordered(mine, k) : children_literal(mine, k);
}

KBinomialTree build_kbinomial_tree(std::size_t n, unsigned k, TreeConstruction c) {
  const RelayBlock root = root_block(n, k);  // validates n and k
  KBinomialTree t;
  if (c == TreeConstruction::time_ordered) {
    t = build_time_ordered(n, k);
  } else {
    t = empty_tree(n, k, c);
    build_literal(t, root);
  }
  t.steps = *std::max_element(t.receive_step.begin(), t.receive_step.end());
  return t;
}

RelayBlock block_of(const KBinomialTree& tree, std::size_t node) {
  return {node, tree.block_last.at(node), tree.steps - tree.receive_step.at(node)};
}

}  // namespace wormcast::algo
