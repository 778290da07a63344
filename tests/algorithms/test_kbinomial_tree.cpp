// k-binomial tree construction on a chain (seed002 §6, Figs. 9-11) and the
// relay-local function a NI evaluates from its packet header.
#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <vector>

#include "algorithms/kbinomial.h"
#include "algorithms/kbinomial_tree.h"
#include "algorithms/step_model.h"

using namespace wormcast::algo;
using Catch::Matchers::Contains;
using Children = std::vector<std::vector<std::size_t>>;

namespace {

unsigned ceil_log2(std::size_t n) {
  unsigned b = 0;
  for (std::size_t p = 1; p < n; p *= 2) ++b;
  return b;
}

// Packet-1 sends per step, counted straight from the tree's edge labels.
std::vector<unsigned> sends_per_step_from_labels(const KBinomialTree& t) {
  std::vector<unsigned> count(t.steps + 1, 0);
  for (const auto& steps : t.send_step)
    for (unsigned s : steps) ++count.at(s);
  return count;
}

// Rebuild the whole tree by evaluating only relay_children, node by node, as
// the NIs would: each relay knows just the block it received.
struct LocalTree {
  Children children;
  std::vector<RelayBlock> header;  // what each node received (root: root_block)
  std::vector<unsigned> receive;   // step packet 1 arrives
  std::vector<int> times_reached;
};

LocalTree evaluate_locally(std::size_t n, unsigned k, TreeConstruction c) {
  LocalTree lt{Children(n), std::vector<RelayBlock>(n), std::vector<unsigned>(n, 0), std::vector<int>(n, 0)};
  std::deque<std::size_t> todo{0};
  lt.header[0] = root_block(n, k);
  lt.times_reached[0] = 1;
  while (!todo.empty()) {
    const std::size_t v = todo.front();
    todo.pop_front();
    const std::vector<RelayBlock> kids = relay_children(lt.header[v], k, c);
    for (std::size_t i = 0; i < kids.size(); ++i) {
      const std::size_t child = kids[i].first;
      REQUIRE(child < n);
      lt.children[v].push_back(child);
      if (lt.times_reached[child]++ == 0) {
        lt.header[child] = kids[i];
        lt.receive[child] = lt.receive[v] + static_cast<unsigned>(i + 1);
        todo.push_back(child);
      }
    }
  }
  return lt;
}

}  // namespace

TEST_CASE("Fig. 9: 16 nodes, one packet: k = 3 takes 5 steps (1,2,4,7,1), k = 4 takes 4 (1,2,4,8)",
          "[kbinomial_tree][golden]") {
  // Fig. 9 labels carry no packet subscripts: it is a single-packet (m = 1) picture.
  const KBinomialTree t3 = build_kbinomial_tree(16, 3);
  CHECK(t3.steps == 5);
  CHECK(sends_per_step_from_labels(t3) == std::vector<unsigned>{0, 1, 2, 4, 7, 1});
  CHECK(t3.send_step[0] == std::vector<unsigned>{1, 2, 3});  // root row "[1][2][3]"
  const StepSchedule s3 = simulate_steps(t3.children, 0, 1);
  CHECK(s3.total_steps == 5);
  CHECK(s3.sends_per_step == std::vector<unsigned>{0, 1, 2, 4, 7, 1});

  const KBinomialTree t4 = build_kbinomial_tree(16, 4);
  CHECK(t4.steps == 4);
  CHECK(sends_per_step_from_labels(t4) == std::vector<unsigned>{0, 1, 2, 4, 8});
  CHECK(t4.send_step[0] == std::vector<unsigned>{1, 2, 3, 4});
  CHECK(simulate_steps(t4.children, 0, 1).sends_per_step == std::vector<unsigned>{0, 1, 2, 4, 8});
}

TEST_CASE("Fig. 11 placement: first child N(s-1,k) places from the right end, next N(s-2,k) further left",
          "[kbinomial_tree][golden]") {
  // Full trees (n = N(s,k)) need no truncation, so both constructions must
  // follow the figure exactly: child i of the root sits at n - (N(s-1)+..+N(s-i)).
  for (unsigned k = 1; k <= 5; ++k)
    for (unsigned s = 1; s <= 7; ++s) {
      const std::size_t n = nodes_covered(s, k);
      if (n < 2) continue;
      for (TreeConstruction c : {TreeConstruction::time_ordered, TreeConstruction::literal}) {
        const KBinomialTree t = build_kbinomial_tree(n, k, c);
        INFO("k = " << k << ", s = " << s << ", " << to_string(c));
        REQUIRE(t.steps == s);
        std::vector<std::size_t> expect;
        std::size_t offset = n;
        for (unsigned i = 1; i <= std::min(k, s); ++i) {
          offset -= nodes_covered(s - i, k);
          expect.push_back(offset);
        }
        CHECK(t.children[0] == expect);
      }
    }
  // The binomial tree of Fig. 5(a): 0 sends to 2 then 1; 2 sends to 3.
  const KBinomialTree b = build_kbinomial_tree(4, 2);
  CHECK(b.children == Children{{2, 1}, {}, {3}, {}});
}

TEST_CASE("construction A truncates the last children (n = 16, k = 3: root has one child)", "[kbinomial_tree]") {
  const KBinomialTree a = build_kbinomial_tree(16, 3, TreeConstruction::literal);
  CHECK(a.steps == 5);
  CHECK(a.children[0] == std::vector<std::size_t>{1});
  CHECK(a.block_last[1] == 15);
}

TEST_CASE("Theorem 2 for construction B: step model T_i = T_1 + (i-1)k for all i", "[kbinomial_tree][slow]") {
  for (std::size_t n = 2; n <= 96; ++n)
    for (unsigned k = 1; k <= ceil_log2(n); ++k) {
      const KBinomialTree t = build_kbinomial_tree(n, k);
      REQUIRE(t.children[0].size() == k);  // the root always has k children
      for (std::size_t m : {1, 2, 3, 5, 8, 13}) {
        const StepSchedule s = simulate_steps(t.children, 0, m);
        INFO("n = " << n << ", k = " << k << ", m = " << m);
        CHECK(s.total_steps == pipelined_steps(n, k, m));
        for (std::size_t i = 0; i < m; ++i) CHECK(s.completion_step[i] == t.steps + i * k);
      }
    }
}

TEST_CASE("construction A: same T_1, and T_m = T_1 + (m-1) * max fan-out", "[kbinomial_tree][slow]") {
  for (std::size_t n = 2; n <= 96; ++n)
    for (unsigned k = 1; k <= ceil_log2(n) + 1; ++k) {
      const KBinomialTree t = build_kbinomial_tree(n, k, TreeConstruction::literal);
      std::size_t fan = 0;
      for (const auto& c : t.children) fan = std::max(fan, c.size());
      REQUIRE(fan <= k);
      INFO("n = " << n << ", k = " << k);
      CHECK(t.steps == single_packet_steps(n, k));
      for (std::size_t m : {1, 2, 5})
        CHECK(simulate_steps(t.children, 0, m).total_steps == t.steps + (m - 1) * fan);
    }
}

TEST_CASE("global tree invariants: blocks, fan-out, labels", "[kbinomial_tree]") {
  for (std::size_t n = 2; n <= 150; ++n)
    for (unsigned k = 1; k <= ceil_log2(n) + 2; ++k)
      for (TreeConstruction c : {TreeConstruction::time_ordered, TreeConstruction::literal}) {
        const KBinomialTree t = build_kbinomial_tree(n, k, c);
        INFO("n = " << n << ", k = " << k << ", " << to_string(c));
        REQUIRE(t.size() == n);
        CHECK(t.block_last[0] == n - 1);
        CHECK(t.steps == single_packet_steps(n, k));
        for (std::size_t v = 0; v < n; ++v) {
          REQUIRE(t.children[v].size() <= k);
          // Children tile the parent's block minus the parent, right to left.
          std::size_t right = t.block_last[v];
          for (std::size_t i = 0; i < t.children[v].size(); ++i) {
            const std::size_t c_pos = t.children[v][i];
            CHECK(t.block_last[c_pos] == right);
            CHECK(t.parent[c_pos] == v);
            CHECK(t.send_step[v][i] == t.receive_step[v] + i + 1);
            CHECK(t.receive_step[c_pos] == t.send_step[v][i]);
            right = c_pos - 1;
          }
          CHECK(right == v);
        }
      }
}

TEST_CASE("the relay-local function reproduces the global tree at every node", "[kbinomial_tree][relay]") {
  for (std::size_t n = 2; n <= 200; ++n)
    for (unsigned k = 1; k <= ceil_log2(n) + 2; ++k)
      for (TreeConstruction c : {TreeConstruction::time_ordered, TreeConstruction::literal}) {
        const KBinomialTree global = build_kbinomial_tree(n, k, c);
        const LocalTree local = evaluate_locally(n, k, c);
        INFO("n = " << n << ", k = " << k << ", " << to_string(c));
        CHECK(local.children == global.children);
        CHECK(local.receive == global.receive_step);
        for (std::size_t v = 0; v < n; ++v) {
          CHECK(local.times_reached[v] == 1);  // every node reached exactly once
          CHECK(local.header[v] == block_of(global, v));
        }
      }
}

TEST_CASE("every node gets every packet exactly once on the locally evaluated tree", "[kbinomial_tree][relay]") {
  for (std::size_t n : {2, 3, 7, 16, 33, 64, 100})
    for (unsigned k = 1; k <= ceil_log2(n); ++k)
      for (TreeConstruction c : {TreeConstruction::time_ordered, TreeConstruction::literal}) {
        const LocalTree local = evaluate_locally(n, k, c);
        const std::size_t m = 4;
        const StepSchedule s = simulate_steps(local.children, 0, m);  // throws unless a spanning tree
        unsigned total = 0;
        for (unsigned x : s.receptions_per_step) total += x;
        INFO("n = " << n << ", k = " << k << ", " << to_string(c));
        CHECK(total == (n - 1) * m);
        for (std::size_t v = 1; v < n; ++v)
          for (std::size_t p = 0; p < m; ++p) CHECK(s.receive_step[v][p] >= 1);
      }
}

TEST_CASE("relay_children on a large block is the same as the global tree's root", "[kbinomial_tree][relay]") {
  const std::size_t n = 100000;
  const KBinomialTree t = build_kbinomial_tree(n, 3);
  std::vector<std::size_t> kids;
  for (const RelayBlock& b : relay_children(root_block(n, 3), 3)) kids.push_back(b.first);
  CHECK(kids == t.children[0]);
  // A linear literal tree nests n-1 deep; it must not recurse on the stack.
  CHECK(build_kbinomial_tree(n, 1, TreeConstruction::literal).steps == n - 1);
}

TEST_CASE("tree and relay bad input", "[kbinomial_tree][errors]") {
  CHECK_THROWS_WITH(build_kbinomial_tree(1, 2), Contains("n = 1"));
  CHECK_THROWS_WITH(build_kbinomial_tree(8, 0), Contains("k = 0"));
  CHECK_THROWS_WITH(root_block(0, 2), Contains("n = 0"));
  CHECK_THROWS_WITH(relay_children({0, 7, 3}, 0), Contains("k = 0"));
  CHECK_THROWS_AS(relay_children({5, 4, 3}, 2), std::invalid_argument);
  // 9 nodes cannot be covered in 3 steps by a 3-binomial tree (N(3,3) = 8).
  CHECK_THROWS_WITH(relay_children({0, 8, 3}, 3), Contains("[0, 8] with 3 steps"));
  // Construction B never hands out a block smaller than N(steps-1,k).
  CHECK_THROWS_AS(relay_children({0, 2, 3}, 3), std::invalid_argument);
  CHECK_NOTHROW(relay_children({0, 2, 3}, 3, TreeConstruction::literal));
}
