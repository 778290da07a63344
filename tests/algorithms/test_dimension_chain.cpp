// Dimension-ordered chains for k-ary n-cubes (algorithms/chain_ordering.h,
// seed002 §6.1): hand-worked goldens, and the contention-free property of
// McKinley et al. [9] on hypercubes (E-cube) and unidirectional tori (UTR):
// for a ≺ b ≼ c ≺ d in the chain, the routes a→b and c→d share no channel.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <set>
#include <tuple>
#include <vector>

#include "algorithms/chain_ordering.h"
#include "topologies/direct_routing.h"

using namespace wormcast;
using topo::DirectTopology;
using topo::NodeId;

TEST_CASE("dimension-ordered chain on a 3-cube: addresses relative to the source (XOR), sorted") {
  const auto t = DirectTopology::hypercube(3);
  // Source 101. Relative addresses: 0->101, 1->100, 2->111, 3->110, 4->001,
  // 6->011, 7->010; ascending: 4(001) 7(010) 6(011) 1(100) 0(101) 3(110) 2(111).
  CHECK(algo::dimension_ordered_chain(t, 5, {0, 1, 2, 3, 4, 6, 7}) ==
        std::vector<NodeId>{5, 4, 7, 6, 1, 0, 3, 2});
}

TEST_CASE("dimension-ordered chain on a 4x4 torus, both dimension orders") {
  const auto t = DirectTopology::torus({4, 4}, false);
  // Source (1,2) = id 6. Destinations (0,0)=0, (3,3)=15, (1,3)=7, (2,1)=9;
  // relative (σ1, σ0): 0->(3,2), 15->(2,1), 7->(0,1), 9->(1,3).
  CHECK(algo::dimension_ordered_chain(t, 6, {0, 15, 7, 9}) == std::vector<NodeId>{6, 7, 9, 15, 0});
  // σ0 most significant: 7->(1,0), 15->(1,2), 0->(2,3), 9->(3,1).
  CHECK(algo::dimension_ordered_chain(t, 6, {0, 15, 7, 9}, false) == std::vector<NodeId>{6, 7, 15, 0, 9});
}

TEST_CASE("dimension-ordered chain refuses meshes and bad members") {
  CHECK_THROWS_WITH(algo::dimension_ordered_chain(DirectTopology::mesh({4, 4}), 0, {1}),
                    Catch::Contains("mesh"));
  const auto t = DirectTopology::hypercube(3);
  CHECK_THROWS_WITH(algo::dimension_ordered_chain(t, 0, {8}), Catch::Contains("destination node 8"));
  CHECK_THROWS_WITH(algo::dimension_ordered_chain(t, 0, {1, 1}), Catch::Contains("twice"));
  CHECK_THROWS_WITH(algo::dimension_ordered_chain(t, 0, {0}), Catch::Contains("source"));
}

namespace {

std::set<std::tuple<NodeId, int, int>> channels(const topo::DirectRouting& r, NodeId a, NodeId b) {
  std::set<std::tuple<NodeId, int, int>> s;
  for (const auto& h : r.route(a, b)) s.insert({h.node, h.dim, static_cast<int>(h.dir)});
  return s;
}

// McKinley's contention-free condition over every a < b <= c < d.
bool contention_free(const topo::DirectRouting& r, const std::vector<NodeId>& chain) {
  const std::size_t n = chain.size();
  for (std::size_t a = 0; a < n; ++a)
    for (std::size_t b = a + 1; b < n; ++b) {
      const auto ab = channels(r, chain[a], chain[b]);
      for (std::size_t c = b; c < n; ++c)
        for (std::size_t d = c + 1; d < n; ++d)
          for (const auto& ch : channels(r, chain[c], chain[d]))
            if (ab.count(ch)) return false;
    }
  return true;
}

}  // namespace

TEST_CASE("dimension-ordered chains are contention-free on hypercubes and unidirectional tori") {
  std::mt19937_64 rng(7);
  const std::vector<DirectTopology> nets = {DirectTopology::hypercube(4), DirectTopology::torus({4, 4}, false)};
  for (const auto& t : nets) {
    const topo::DirectRouting r(t, topo::default_routing(t));
    for (int trial = 0; trial < 20; ++trial) {
      std::vector<NodeId> all(static_cast<std::size_t>(t.num_nodes()));
      for (NodeId i = 0; i < t.num_nodes(); ++i) all[static_cast<std::size_t>(i)] = i;
      std::shuffle(all.begin(), all.end(), rng);
      const NodeId src = all[0];
      const std::vector<NodeId> dests(all.begin() + 1, all.begin() + 9);
      const auto chain = algo::dimension_ordered_chain(t, src, dests);
      INFO(t.spec() << " trial " << trial);
      CHECK(contention_free(r, chain));
    }
  }
}
