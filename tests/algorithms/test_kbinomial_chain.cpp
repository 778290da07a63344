// Chain orderings for k-binomial trees: CCO-approx on irregular up*/down*
// networks (seed000 §4.7, §10 item 8; seed002 §6.1, §9) and given orders.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <vector>

#include "algorithms/chain_ordering.h"

using namespace wormcast::algo;
using namespace wormcast::topo;
using Catch::Matchers::Contains;
using Nodes = std::vector<NodeId>;

namespace {

// Root s0 (level 0); s1, s2 (level 1); s3 (level 2) below s1 (tree link)
// and s2 (cross link). Hosts: n0@s0, n1@s1, n2@s2, n3 and n4@s3.
// Down-DAG DFS from s0, lowest id first: s0, s1, s3, s2.
Topology diamond() {
  Topology t = Topology::empty(4, 4, "diamond");
  t.connect(0, 0, 1, 0).connect(0, 1, 2, 0).connect(1, 1, 3, 0).connect(2, 1, 3, 1);
  t.attach(0, 0, 2).attach(1, 1, 2).attach(2, 2, 2).attach(3, 3, 2).attach(4, 3, 3);
  return t;
}

// Every property the documented ordering promises, checked from the outside.
void check_chain(const Topology& t, const UpDownRouting& r, NodeId source, const Nodes& dests, const Nodes& chain) {
  REQUIRE(chain.size() == dests.size() + 1);
  CHECK(chain.front() == source);
  Nodes sorted_chain(chain.begin() + 1, chain.end()), sorted_dests = dests;
  std::sort(sorted_chain.begin(), sorted_chain.end());
  std::sort(sorted_dests.begin(), sorted_dests.end());
  CHECK(sorted_chain == sorted_dests);  // a permutation of the destinations

  // Same-switch hosts contiguous: the switch sequence has no repeats once
  // consecutive duplicates are merged.
  std::vector<SwitchId> runs;
  for (NodeId v : chain) {
    const SwitchId s = t.node_attach[v].sw;
    if (runs.empty() || runs.back() != s) runs.push_back(s);
  }
  CHECK(std::set<SwitchId>(runs.begin(), runs.end()).size() == runs.size());
  CHECK(runs.front() == t.node_attach[source].sw);

  // Switches follow the down-DAG preorder, rotated to start at the source's switch.
  std::vector<SwitchId> pre;
  for (SwitchId s : down_dag_preorder(t, r))
    if (std::find(runs.begin(), runs.end(), s) != runs.end()) pre.push_back(s);
  std::rotate(pre.begin(), std::find(pre.begin(), pre.end(), runs.front()), pre.end());
  CHECK(pre == runs);
}

// A DFS preorder of the down-DAG: all switches once, root first, and every
// other switch preceded by a neighbour one BFS level up (its DFS parent).
void check_preorder(const Topology& t, const UpDownRouting& r, const std::vector<SwitchId>& order) {
  REQUIRE(static_cast<int>(order.size()) == t.num_switches());
  CHECK(std::set<SwitchId>(order.begin(), order.end()).size() == order.size());
  CHECK(order.front() == r.root());
  for (std::size_t i = 1; i < order.size(); ++i) {
    bool has_parent_before = false;
    for (std::size_t j = 0; j < i; ++j)
      for (const PortPeer& pp : t.ports[order[j]])
        if (pp.kind == PeerKind::switch_port && pp.id == order[i] && r.level(order[j]) + 1 == r.level(order[i]))
          has_parent_before = true;
    CHECK(has_parent_before);
  }
}

}  // namespace

TEST_CASE("CCO-approx on a hand-built network", "[chain]") {
  const Topology t = diamond();
  const UpDownRouting r(t);
  CHECK(down_dag_preorder(t, r) == std::vector<SwitchId>{0, 1, 3, 2});
  // Source on s2: rotation gives s2, s0, s1, s3.
  CHECK(cco_approx_chain(t, r, 2, {4, 3, 1, 0}) == Nodes{2, 0, 1, 3, 4});
  // Source on s3 (second host first on its switch): s3, s2, s0; s1 not participating.
  CHECK(cco_approx_chain(t, r, 4, {0, 2, 3}) == Nodes{4, 3, 2, 0});
  check_chain(t, r, 4, {0, 2, 3}, cco_approx_chain(t, r, 4, {0, 2, 3}));
}

TEST_CASE("CCO-approx on generated irregular networks: permutation, source first, switches contiguous",
          "[chain]") {
  std::mt19937_64 rng(2024);
  for (std::uint64_t seed = 1; seed <= 8; ++seed) {
    IrregularParams prm;
    prm.switches = seed % 2 ? 16 : 8;
    prm.ports = 8;
    prm.nodes = seed % 2 ? 64 : 32;
    prm.connectivity = seed % 3 ? 0.75 : 0.5;
    prm.seed = seed;
    const Topology t = generate_irregular(prm);
    const UpDownRouting r(t);
    INFO(t.description);
    check_preorder(t, r, down_dag_preorder(t, r));
    for (int trial = 0; trial < 10; ++trial) {
      Nodes all(t.num_nodes());
      for (NodeId v = 0; v < t.num_nodes(); ++v) all[v] = v;
      std::shuffle(all.begin(), all.end(), rng);
      const std::size_t count = 1 + rng() % (all.size() - 1);
      const NodeId source = all[0];
      const Nodes dests(all.begin() + 1, all.begin() + 1 + count);
      check_chain(t, r, source, dests, cco_approx_chain(t, r, source, dests));
    }
  }
}

TEST_CASE("given order passes through, source first", "[chain]") {
  CHECK(given_order_chain(7, {3, 9, 1}) == Nodes{7, 3, 9, 1});
  CHECK(given_order_chain(0, {}) == Nodes{0});
}

TEST_CASE("chain ordering bad input names the node", "[chain][errors]") {
  const Topology t = diamond();
  const UpDownRouting r(t);
  CHECK_THROWS_WITH(cco_approx_chain(t, r, 5, {0}), Contains("source node 5"));
  CHECK_THROWS_WITH(cco_approx_chain(t, r, 0, {1, 9}), Contains("destination node 9"));
  CHECK_THROWS_WITH(cco_approx_chain(t, r, 0, {1, 2, 1}), Contains("node 1 is listed twice"));
  CHECK_THROWS_WITH(cco_approx_chain(t, r, 0, {1, 0}), Contains("node 0 is the source"));
  CHECK_THROWS_WITH(given_order_chain(-1, {1}), Contains("source node -1"));
  CHECK_THROWS_WITH(given_order_chain(1, {2, 2}), Contains("listed twice"));
}
