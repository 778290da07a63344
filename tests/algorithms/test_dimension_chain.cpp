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

TEST_CASE("dimension-ordered chain on a 4x4 torus: the U-torus example of seed 004 Fig. 1") {
  // seed004 §2.2: the group sorted in dimension order (row, column) and
  // rotated so the root (2,2) is first; coordinates there are 1-based, here
  // 0-based (row = σ1, column = σ0, id = 4·row + column).
  const auto t = DirectTopology::torus({4, 4}, false);
  auto id = [](int row, int col) { return 4 * (row - 1) + (col - 1); };
  const std::vector<NodeId> group = {id(1, 1), id(1, 2), id(1, 3), id(2, 4), id(3, 1),
                                     id(3, 3), id(4, 1), id(4, 2), id(4, 4)};
  const std::vector<NodeId> expected = {id(2, 2), id(2, 4), id(3, 1), id(3, 3), id(4, 1),
                                        id(4, 2), id(4, 4), id(1, 1), id(1, 2), id(1, 3)};
  CHECK(algo::dimension_ordered_chain(t, id(2, 2), group) == expected);
  // σ0 resolved first: sorted by (column, row), then rotated to (2,2).
  CHECK(algo::dimension_ordered_chain(t, id(2, 2), group, false) ==
        std::vector<NodeId>{id(2, 2), id(4, 2), id(1, 3), id(3, 3), id(2, 4), id(4, 4), id(1, 1), id(3, 1),
                            id(4, 1), id(1, 2)});
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

TEST_CASE("dimension-ordered chains are contention-free on hypercubes (E-cube)") {
  // On tori the condition cannot hold for every quadruple: a route that wraps
  // in both dimensions (e.g. (2,1) -> (1,0) with source (1,2) on torus:4x4:uni)
  // crosses the source's row; the U-torus argument covers the tree's sends.
  std::mt19937_64 rng(7);
  for (int dims : {3, 4, 5}) {
    const DirectTopology t = DirectTopology::hypercube(dims);
    const topo::DirectRouting r(t, topo::default_routing(t));
    for (int trial = 0; trial < 10; ++trial) {
      std::vector<NodeId> all(static_cast<std::size_t>(t.num_nodes()));
      for (NodeId i = 0; i < t.num_nodes(); ++i) all[static_cast<std::size_t>(i)] = i;
      std::shuffle(all.begin(), all.end(), rng);
      const NodeId src = all[0];
      const std::vector<NodeId> dests(all.begin() + 1, all.begin() + std::min<std::ptrdiff_t>(10, t.num_nodes()));
      INFO(t.spec() << " trial " << trial);
      CHECK(contention_free(r, algo::dimension_ordered_chain(t, src, dests)));
    }
  }
}
