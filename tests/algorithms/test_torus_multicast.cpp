// Torus multicast planners of seed001 Chapters 4-6 (algorithms/torus_multicast.h):
// the worked examples of spec/seed001.md §4.2-§4.4 and §7.5 as goldens (the
// R-chain of §4.2, Figs. 4.4/4.5, the ℋ-cycle of Figs. 5.1/5.7 with its
// labels, M_d's first phase of §7.5), the step and phase counts the thesis
// proves (⌈log2 m⌉, ⌈log_r m⌉, at most n) as properties on fixed-seed random
// sets, and the §7.9 checkers, which must pass every plan and catch broken ones.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "algorithms/torus_multicast.h"
#include "topologies/direct_routing.h"
#include "topologies/direct_topology.h"

using namespace wormcast;
using algo::MTorusPartition;
using Catch::Contains;
using topo::DirectRouting;
using topo::DirectTopology;
using topo::NodeId;
using topo::RoutingAlgorithm;

namespace {

std::vector<NodeId> nodes(const DirectTopology& t, const std::vector<std::string>& names) {
  std::vector<NodeId> out;
  for (const std::string& s : names) out.push_back(t.parse_node(s));
  return out;
}

// ⌈log_r m⌉ by repeated multiplication (no floating point).
int ceil_log(int m, int r) {
  int p = 0;
  for (long long reach = 1; reach < m; reach *= r) ++p;
  return p;
}

struct Multicast {
  NodeId source;
  std::vector<NodeId> dests;
};

// A random source and m - 1 distinct other nodes.
Multicast random_multicast(const DirectTopology& t, int m, std::mt19937& rng) {
  std::vector<NodeId> all(static_cast<std::size_t>(t.num_nodes()));
  std::iota(all.begin(), all.end(), 0);
  std::shuffle(all.begin(), all.end(), rng);
  return {all[0], std::vector<NodeId>(all.begin() + 1, all.begin() + m)};
}

std::vector<int> sizes(const std::vector<std::vector<NodeId>>& parts) {
  std::vector<int> out;
  for (const auto& p : parts) out.push_back(static_cast<int>(p.size()));
  return out;
}

}  // namespace

// ---- U-torus ------------------------------------------------------------------

TEST_CASE("U-torus: the R-chain example of §4.2 (3-D, source (8,4,5)) in ceil(log2 11) = 4 steps", "[torus-mc]") {
  for (bool bi : {false, true}) {
    const auto t = DirectTopology::torus({10, 10, 10}, bi);
    const NodeId src = t.parse_node("(8,4,5)");
    // Φ minus the source, in the order the thesis lists it.
    const auto dests = nodes(t, {"(4,9,3)", "(1,9,7)", "(1,0,2)", "(8,5,4)", "(4,8,9)", "(9,0,5)", "(3,5,5)",
                                 "(9,0,1)", "(8,0,5)", "(1,6,4)"});
    const algo::UTorusPlan p = algo::plan_utorus(t, src, dests);
    // Φ″ of §4.2.
    CHECK(p.chain == nodes(t, {"(8,4,5)", "(8,5,4)", "(9,0,1)", "(9,0,5)", "(1,0,2)", "(1,6,4)", "(1,9,7)",
                               "(3,5,5)", "(4,8,9)", "(4,9,3)", "(8,0,5)"}));
    CHECK(p.steps == 4);
    CHECK(p.unicasts.size() == 10);   // one unicast per destination (Sec. 4.5)
    const DirectRouting r(t, bi ? RoutingAlgorithm::btr : RoutingAlgorithm::utr);
    CHECK(algo::utorus_violations(r, p).empty());
  }
}

TEST_CASE("U-torus: Figs. 4.4/4.5 (5x5, source (4,3)) in 3 steps, the p-channel (4,3)->(0,3) in steps 1 and 2",
          "[torus-mc]") {
  const auto t = DirectTopology::torus({5, 5}, false);
  const NodeId src = t.parse_node("(4,3)");
  const algo::UTorusPlan p = algo::plan_utorus(t, src, nodes(t, {"(0,0)", "(1,1)", "(2,1)", "(0,3)", "(1,3)", "(4,4)"}));
  // Def. 4.4: sorted (0,0) (0,3) (1,1) (1,3) (2,1) (4,3) (4,4), rotated to the source.
  CHECK(p.chain == nodes(t, {"(4,3)", "(4,4)", "(0,0)", "(0,3)", "(1,1)", "(1,3)", "(2,1)"}));
  CHECK(p.steps == 3);
  const DirectRouting utr(t, RoutingAlgorithm::utr);
  CHECK(algo::utorus_violations(utr, p).empty());
  // Fig. 4.5(c): the source's unicasts of steps 1 and 2 both take the
  // p-channel from (4,3) to (0,3), in different steps, so without contention.
  std::set<int> steps_on_p;
  for (const algo::TorusUnicast& u : p.unicasts) {
    if (u.sender != src) continue;
    for (const topo::RouteHop& h : utr.route(u.sender, u.receiver))
      if (h.node == src && h.next == t.parse_node("(0,3)") && h.vc == topo::VcClass::p) steps_on_p.insert(u.step);
  }
  CHECK(steps_on_p == std::set<int>{1, 2});
  const auto bi = DirectTopology::torus({5, 5}, true);
  const algo::UTorusPlan b = algo::plan_utorus(bi, src, std::vector<NodeId>(p.chain.begin() + 1, p.chain.end()));
  CHECK(b.steps == 3);   // bidirectional too
  CHECK(algo::utorus_violations(DirectRouting(bi, RoutingAlgorithm::btr), b).empty());
}

TEST_CASE("U-torus checker: the stepwise contention of Fig. 4.5(a)", "[torus-mc]") {
  // Fig. 4.5(a): R_(0,3) = {(0,3), (1,1), (2,1), (0,0)}; in step 2 both
  // (0,3)->(1,1) and (4,3)->(1,3) need the h-channel (0,3)->(1,3) (§4.2).
  const auto t = DirectTopology::torus({5, 5}, false);
  auto n = [&](const char* s) { return t.parse_node(s); };
  algo::UTorusPlan a;
  a.chain = nodes(t, {"(4,3)", "(0,3)", "(1,3)", "(1,1)", "(2,1)", "(0,0)", "(4,4)"});
  a.steps = 3;
  a.unicasts = {{n("(4,3)"), n("(0,3)"), 1, nodes(t, {"(0,3)", "(1,1)", "(2,1)", "(0,0)"})},
                {n("(4,3)"), n("(1,3)"), 2, {n("(1,3)")}},
                {n("(0,3)"), n("(1,1)"), 2, {n("(1,1)"), n("(2,1)")}},
                {n("(4,3)"), n("(4,4)"), 3, {n("(4,4)")}},
                {n("(0,3)"), n("(0,0)"), 3, {n("(0,0)")}},
                {n("(1,1)"), n("(2,1)"), 3, {n("(2,1)")}}};
  const auto v = algo::utorus_violations(DirectRouting(t, RoutingAlgorithm::utr), a);
  REQUIRE(v.size() == 1);
  CHECK_THAT(v[0], Contains("step 2") && Contains("VC h of channel (0,3) dim 1 +"));
  // Delivery and one-port slips are reported too.
  algo::UTorusPlan b = a;
  b.unicasts.pop_back();                                     // (2,1) never receives
  b.unicasts.push_back({n("(4,3)"), n("(0,0)"), 3, {n("(0,0)")}});   // (0,0) twice, (4,3) twice in step 3
  const auto w = algo::utorus_violations(DirectRouting(t, RoutingAlgorithm::utr), b);
  const std::string all = std::accumulate(w.begin(), w.end(), std::string(), [](auto s, auto x) { return s + x + "\n"; });
  CHECK_THAT(all, Contains("(2,1) never receives") && Contains("(0,0) receives 2 times") &&
                      Contains("(4,3) sends twice in step 3"));
}

TEST_CASE("U-torus local loop: Fig. 4.9's centre is left + ceil((right-left+1)/2)", "[torus-mc]") {
  // Field {a..g} = {10..16}: centre 0 + ceil(7/2) = 4 (e), then ceil(4/2) = 2 (c), then 1 (b).
  const auto s = algo::utorus_local_sends({10, 11, 12, 13, 14, 15, 16});
  REQUIRE(s.size() == 3);
  CHECK(s[0].to == 14);
  CHECK(s[0].field == std::vector<NodeId>{14, 15, 16});
  CHECK(s[1].to == 12);
  CHECK(s[1].field == std::vector<NodeId>{12, 13});
  CHECK(s[2].to == 11);
  CHECK(s[2].field == std::vector<NodeId>{11});
  CHECK(algo::utorus_local_sends({7}).empty());
  CHECK_THROWS_AS(algo::utorus_local_sends({}), std::invalid_argument);
}

TEST_CASE("U-torus: ceil(log2 m) steps and stepwise contention-free under UTR and BTR (random sets)", "[torus-mc]") {
  std::mt19937 rng(2024);
  for (const auto& radices : std::vector<std::vector<int>>{{4, 4}, {6, 6}, {5, 5, 5}, {4, 8}})
    for (bool bi : {false, true}) {
      const auto t = DirectTopology::torus(radices, bi);
      const DirectRouting r(t, bi ? RoutingAlgorithm::btr : RoutingAlgorithm::utr);
      for (int trial = 0; trial < 40; ++trial) {
        const int m = 2 + static_cast<int>(rng() % static_cast<unsigned>(t.num_nodes() - 1));
        const Multicast mc = random_multicast(t, m, rng);
        const algo::UTorusPlan p = algo::plan_utorus(t, mc.source, mc.dests);
        INFO(t.spec() << " source " << t.name(mc.source) << " m = " << m);
        CHECK(p.steps == ceil_log(m, 2));   // Sec. 4.3 lower bound, met by Theorem 4.4
        CHECK(p.unicasts.size() == mc.dests.size());
        const auto v = algo::utorus_violations(r, p);
        CHECK(v.empty());
        if (!v.empty()) FAIL_CHECK(v.front());
        const auto depth = algo::utorus_depth_contention(r, p);   // Theorem 4.4: depth contention-free too
        CHECK(depth.empty());
        if (!depth.empty()) FAIL_CHECK(depth.front());
      }
    }
}

TEST_CASE("U-torus checker: the depth contention of Fig. 4.5(b)", "[torus-mc]") {
  // Fig. 4.5(b): the set of Figs. 4.4/4.5 (5x5, source (4,3)) in a 3-step
  // tree with no stepwise contention: step 1 (4,3)->(0,3), which serves
  // R_(0,3) = {(0,3), (1,1), (2,1), (0,0)}; step 2 (4,3)->(4,4) and
  // (0,3)->(1,1) (R = {(1,1), (2,1)}); step 3 (4,3)->(1,3), (0,3)->(0,0) and
  // (1,1)->(2,1). With t_S = t_N + t_R, (0,3) receives at 2 t_S and its
  // step-2 send enters the network at 3 t_S, as the source's step-3 send
  // does: both need the h VC of (0,3)'s dimension-1 channel (UTR: dimension
  // 1 first, (0,3)->(1,3), then (1,3)->(1,4)->(1,0)->(1,1)). No condition of
  // Theorem 4.1 holds for that pair ((4,3) is in no field the pair's sender
  // (0,3) sends later); every other pair is disjoint or ordered.
  const auto t = DirectTopology::torus({5, 5}, false);
  const DirectRouting utr(t, RoutingAlgorithm::utr);
  auto n = [&](const char* s) { return t.parse_node(s); };
  algo::UTorusPlan b;
  b.chain = nodes(t, {"(4,3)", "(0,3)", "(1,1)", "(2,1)", "(0,0)", "(4,4)", "(1,3)"});
  b.steps = 3;
  b.unicasts = {{n("(4,3)"), n("(0,3)"), 1, nodes(t, {"(0,3)", "(1,1)", "(2,1)", "(0,0)"})},
                {n("(4,3)"), n("(4,4)"), 2, {n("(4,4)")}},
                {n("(0,3)"), n("(1,1)"), 2, nodes(t, {"(1,1)", "(2,1)"})},
                {n("(4,3)"), n("(1,3)"), 3, {n("(1,3)")}},
                {n("(0,3)"), n("(0,0)"), 3, {n("(0,0)")}},
                {n("(1,1)"), n("(2,1)"), 3, {n("(2,1)")}}};
  CHECK(algo::utorus_violations(utr, b).empty());   // no stepwise contention
  const auto depth = algo::utorus_depth_contention(utr, b);
  REQUIRE(depth.size() == 1);
  CHECK(depth[0] == "unicasts (0,3)->(1,1) (step 2) and (4,3)->(1,3) (step 3) may overlap in time (Theorem 4.1) "
                    "on VC h of channel (0,3) dim 1 +");
  // Fig. 4.5(c), U-torus on the same set: contention-free in both senses (Theorem 4.4).
  const algo::UTorusPlan c = algo::plan_utorus(t, n("(4,3)"), nodes(t, {"(0,0)", "(1,1)", "(2,1)", "(0,3)", "(1,3)", "(4,4)"}));
  CHECK(algo::utorus_depth_contention(utr, c).empty());
  // Condition 4. (0,3)->(1,1) (step 2) and (1,3)->(1,0) share the VCs of
  // (1,3)->(1,4) and (1,4)->(1,0) (dimension 0 after (1,1)'s turn). When
  // (0,3) itself sends to (1,3) later (step 3), (1,3)'s send follows the
  // one to (1,1): free (e1). When the source sends to (1,3) instead, no
  // condition orders them (e2); that plan also has the stepwise contention
  // of Fig. 4.5(a) on (0,3)'s dimension-1 channel in step 2.
  algo::UTorusPlan e1;
  e1.chain = nodes(t, {"(4,3)", "(0,3)", "(1,1)", "(1,3)", "(1,0)"});
  e1.steps = 4;
  e1.unicasts = {{n("(4,3)"), n("(0,3)"), 1, nodes(t, {"(0,3)", "(1,1)", "(1,3)", "(1,0)"})},
                 {n("(0,3)"), n("(1,1)"), 2, {n("(1,1)")}},
                 {n("(0,3)"), n("(1,3)"), 3, nodes(t, {"(1,3)", "(1,0)"})},
                 {n("(1,3)"), n("(1,0)"), 4, {n("(1,0)")}}};
  CHECK(algo::utorus_violations(utr, e1).empty());
  CHECK(algo::utorus_depth_contention(utr, e1).empty());
  algo::UTorusPlan e2;
  e2.chain = e1.chain;
  e2.steps = 3;
  e2.unicasts = {{n("(4,3)"), n("(0,3)"), 1, nodes(t, {"(0,3)", "(1,1)"})},
                 {n("(4,3)"), n("(1,3)"), 2, nodes(t, {"(1,3)", "(1,0)"})},
                 {n("(0,3)"), n("(1,1)"), 2, {n("(1,1)")}},
                 {n("(1,3)"), n("(1,0)"), 3, {n("(1,0)")}}};
  const auto e2_depth = algo::utorus_depth_contention(utr, e2);
  REQUIRE(e2_depth.size() == 2);
  CHECK_THAT(e2_depth[0], Contains("(4,3)->(1,3) (step 2) and (0,3)->(1,1) (step 2)") &&
                              Contains("of channel (0,3) dim 1 +"));
  CHECK_THAT(e2_depth[1], Contains("(0,3)->(1,1) (step 2) and (1,3)->(1,0) (step 3)") &&
                              Contains("of channel (1,3) dim 0 +"));
}

TEST_CASE("U-torus refuses meshes, hypercubes and bad destination sets", "[torus-mc]") {
  CHECK_THROWS_WITH(algo::plan_utorus(DirectTopology::mesh({4, 4}), 0, {1}),
                    Contains("seed001") && Contains("mesh:4x4") && Contains("torus"));
  CHECK_THROWS_WITH(algo::plan_utorus(DirectTopology::hypercube(3), 0, {1}), Contains("hypercube"));
  const auto t = DirectTopology::torus({4, 4}, false);
  CHECK_THROWS_WITH(algo::plan_utorus(t, 0, {}), Contains("no destinations"));
  CHECK_THROWS_WITH(algo::plan_utorus(t, 0, {3, 3}), Contains("(0,3) is listed twice"));
  CHECK_THROWS_WITH(algo::plan_utorus(t, 5, {5}), Contains("is the source"));
  CHECK_THROWS_WITH(algo::plan_utorus(t, 0, {16}), Contains("destination node 16"));
  CHECK_THROWS_WITH(algo::plan_utorus(t, -1, {1}), Contains("source node -1"));
}

// ---- ℋ labels and ℋ-cycles --------------------------------------------------------

TEST_CASE("H labels of Eq. 5.2 on 6x6 (Fig. 5.4 and the labels of Fig. 5.7)", "[torus-mc]") {
  const auto t = DirectTopology::torus({6, 6}, false);
  const DirectRouting utpr(t, RoutingAlgorithm::utpr);
  CHECK(utpr.label(t.parse_node("(0,0)")) == 0);
  CHECK(utpr.label(t.parse_node("(0,1)")) == 1);
  CHECK(utpr.label(t.parse_node("(1,0)")) == 7);
  const std::vector<std::pair<const char*, long long>> fig57 = {
      {"(3,2)", 23}, {"(0,5)", 5}, {"(4,5)", 27}, {"(3,4)", 19}, {"(5,4)", 33},
      {"(4,3)", 25}, {"(1,2)", 9}, {"(2,1)", 15}, {"(5,1)", 30}, {"(1,0)", 7}};
  for (const auto& [name, label] : fig57) CHECK(utpr.label(t.parse_node(name)) == label);
}

TEST_CASE("H-cycle of Figs. 5.1/5.7 (6x6, source (3,2)) by Fig. 5.8", "[torus-mc]") {
  const auto t = DirectTopology::torus({6, 6}, false);
  const DirectRouting utpr(t, RoutingAlgorithm::utpr);
  // Φ in the order the thesis gives it.
  const auto dests = nodes(t, {"(0,5)", "(4,5)", "(3,4)", "(5,4)", "(4,3)", "(1,2)", "(2,1)", "(5,1)", "(1,0)"});
  const auto phi2 = nodes(t, {"(3,2)", "(4,3)", "(4,5)", "(5,1)", "(5,4)", "(0,5)", "(1,0)", "(1,2)", "(2,1)", "(3,4)"});
  CHECK(algo::h_cycle(utpr, t.parse_node("(3,2)"), dests) == phi2);
  CHECK(algo::is_h_cycle(utpr, phi2));
  // Φ′ (sorted, an ℋ-chain) is an ℋ-cycle too (s = 0); Φ as given is not.
  CHECK(algo::is_h_cycle(utpr, nodes(t, {"(0,5)", "(1,0)", "(1,2)", "(2,1)", "(3,4)", "(3,2)", "(4,3)", "(4,5)",
                                         "(5,1)", "(5,4)"})));
  std::vector<NodeId> phi{t.parse_node("(3,2)")};
  phi.insert(phi.end(), dests.begin(), dests.end());
  CHECK_FALSE(algo::is_h_cycle(utpr, phi));
  // Fig. 5.6's restrictive example is an ℋ-chain from the source.
  CHECK(algo::is_h_cycle(utpr, nodes(t, {"(3,2)", "(4,3)", "(4,5)", "(5,1)", "(5,4)"})));
  CHECK_FALSE(algo::is_h_cycle(utpr, {}));
}

// ---- linear partitionings -----------------------------------------------------------

TEST_CASE("dimensional partitioning of order 1 on the Fig. 5.7 cycle: rows, the source's tail row its own (§7.5)",
          "[torus-mc]") {
  const auto t = DirectTopology::torus({6, 6}, false);
  const DirectRouting utpr(t, RoutingAlgorithm::utpr);
  const auto cycle = nodes(t, {"(3,2)", "(4,3)", "(4,5)", "(5,1)", "(5,4)", "(0,5)", "(1,0)", "(1,2)", "(2,1)", "(3,4)"});
  const auto parts = algo::linear_partition(utpr, cycle, MTorusPartition::dimensional, 1);
  const std::vector<std::vector<NodeId>> expected = {
      nodes(t, {"(3,2)"}), nodes(t, {"(4,3)", "(4,5)"}), nodes(t, {"(5,1)", "(5,4)"}), nodes(t, {"(0,5)"}),
      nodes(t, {"(1,0)", "(1,2)"}), nodes(t, {"(2,1)"}), nodes(t, {"(3,4)"})};
  CHECK(parts == expected);
  // Order 0: every node its own part; single likewise.
  CHECK(algo::linear_partition(utpr, cycle, MTorusPartition::dimensional, 0).size() == cycle.size());
  CHECK(algo::linear_partition(utpr, cycle, MTorusPartition::single, 0).size() == cycle.size());
  // §7.5 with nothing between head and tail: (3,2)^23 then (3,3)^18, (3,5)^20
  // of the same row; the tail run is still a part of its own.
  CHECK(algo::linear_partition(utpr, nodes(t, {"(3,2)", "(3,3)", "(3,5)"}), MTorusPartition::dimensional, 1) ==
        std::vector<std::vector<NodeId>>{nodes(t, {"(3,2)"}), nodes(t, {"(3,3)", "(3,5)"})});
  // One row without a wrap does not split at order 1.
  CHECK(algo::linear_partition(utpr, nodes(t, {"(3,3)", "(3,5)", "(3,2)"}), MTorusPartition::dimensional, 1).size() == 1);
}

TEST_CASE("uniform partitioning: the first m mod r parts get ceil(m/r) (§7.8), m < r gives m parts (Sec. 6.4)",
          "[torus-mc]") {
  const auto t = DirectTopology::torus({6, 6}, false);
  const DirectRouting utpr(t, RoutingAlgorithm::utpr);
  const auto cycle = nodes(t, {"(3,2)", "(4,3)", "(4,5)", "(5,1)", "(5,4)", "(0,5)", "(1,0)", "(1,2)", "(2,1)", "(3,4)"});
  CHECK(sizes(algo::linear_partition(utpr, cycle, MTorusPartition::uniform, 4)) == std::vector<int>{3, 3, 2, 2});
  CHECK(sizes(algo::linear_partition(utpr, cycle, MTorusPartition::uniform, 2)) == std::vector<int>{5, 5});
  CHECK(sizes(algo::linear_partition(utpr, cycle, MTorusPartition::uniform, 3)) == std::vector<int>{4, 3, 3});
  const std::vector<NodeId> three(cycle.begin(), cycle.begin() + 3);
  CHECK(sizes(algo::linear_partition(utpr, three, MTorusPartition::uniform, 8)) == std::vector<int>{1, 1, 1});
  // Parts concatenate to the cycle (Def. 6.1).
  std::vector<NodeId> joined;
  for (const auto& p : algo::linear_partition(utpr, cycle, MTorusPartition::uniform, 4))
    joined.insert(joined.end(), p.begin(), p.end());
  CHECK(joined == cycle);
}

// ---- M-torus ------------------------------------------------------------------------

TEST_CASE("M_d-torus on Fig. 5.7: phase 1 of §7.5, then each row's head finishes its row", "[torus-mc]") {
  const auto t = DirectTopology::torus({6, 6}, false);
  const DirectRouting utpr(t, RoutingAlgorithm::utpr);
  auto n = [&](const char* s) { return t.parse_node(s); };
  const auto dests = nodes(t, {"(0,5)", "(4,5)", "(3,4)", "(5,4)", "(4,3)", "(1,2)", "(2,1)", "(5,1)", "(1,0)"});
  const algo::MTorusPlan p = algo::plan_mtorus(utpr, n("(3,2)"), dests, MTorusPartition::dimensional);
  CHECK(p.phases == 2);   // n phases
  REQUIRE(p.worms.size() == 4);
  CHECK(p.worms[0].sender == n("(3,2)"));
  CHECK(p.worms[0].phase == 1);
  CHECK(algo::worm_destinations(p.worms[0]) == nodes(t, {"(4,3)", "(5,1)", "(0,5)", "(1,0)", "(2,1)", "(3,4)"}));
  // Each destination then serves the rest of its row (Def. 6.2, order 1).
  CHECK(p.worms[0].blocks == std::vector<algo::CompoundBlock>{{n("(4,3)"), {n("(4,5)")}},
                                                             {n("(5,1)"), {n("(5,4)")}},
                                                             {n("(0,5)"), {}},
                                                             {n("(1,0)"), {n("(1,2)")}},
                                                             {n("(2,1)"), {}},
                                                             {n("(3,4)"), {}}});
  // Phase 2, senders in cycle order; the source's own row part is {(3,2)}: it sends nothing.
  for (std::size_t i = 1; i < 4; ++i) CHECK(p.worms[i].phase == 2);
  CHECK(p.worms[1].sender == n("(4,3)"));
  CHECK(p.worms[1].blocks == std::vector<algo::CompoundBlock>{{n("(4,5)"), {}}});
  CHECK(p.worms[2].sender == n("(5,1)"));
  CHECK(p.worms[3].sender == n("(1,0)"));
  CHECK(algo::worm_destinations(p.worms[3]) == nodes(t, {"(1,2)"}));
  CHECK(algo::mtorus_violations(utpr, p).empty());
}

TEST_CASE("M_d-torus keeps its phase numbering: a level that does not split sends nothing", "[torus-mc]") {
  const auto t = DirectTopology::torus({6, 6}, false);
  const DirectRouting utpr(t, RoutingAlgorithm::utpr);
  auto n = [&](const char* s) { return t.parse_node(s); };
  // All of row 3 after the source (3,3)^18: (3,5)^20, (3,2)^23: phase 1 (rows) has one part.
  const algo::MTorusPlan p = algo::plan_mtorus(utpr, n("(3,3)"), nodes(t, {"(3,2)", "(3,5)"}), MTorusPartition::dimensional);
  REQUIRE(p.worms.size() == 1);
  CHECK(p.worms[0].phase == 2);
  CHECK(algo::worm_destinations(p.worms[0]) == nodes(t, {"(3,5)", "(3,2)"}));
  CHECK(p.phases == 2);
  CHECK(algo::mtorus_violations(utpr, p).empty());
  // The wrapping row of §7.5: source (3,2)^23, then (3,3)^18, (3,5)^20 as its own part.
  const algo::MTorusPlan w = algo::plan_mtorus(utpr, n("(3,2)"), nodes(t, {"(3,3)", "(3,5)"}), MTorusPartition::dimensional);
  REQUIRE(w.worms.size() == 2);
  CHECK(w.worms[0].blocks == std::vector<algo::CompoundBlock>{{n("(3,3)"), {n("(3,5)")}}});
  CHECK(w.worms[1].sender == n("(3,3)"));
  CHECK(w.worms[1].phase == 2);
  CHECK(algo::mtorus_violations(utpr, w).empty());
}

TEST_CASE("M_d-torus: at most n phases, phase 1 reaches one destination per other plane (Sec. 6.3)", "[torus-mc]") {
  std::mt19937 rng(77);
  for (const auto& radices : std::vector<std::vector<int>>{{6, 6}, {5, 5, 5}, {4, 4, 4}})
    for (int trial = 0; trial < 30; ++trial) {
      const auto t = DirectTopology::torus(radices, false);
      const DirectRouting utpr(t, RoutingAlgorithm::utpr);
      const int top = t.dimensions() - 1;
      const Multicast mc = random_multicast(t, 2 + static_cast<int>(rng() % 34), rng);
      const algo::MTorusPlan p = algo::plan_mtorus(utpr, mc.source, mc.dests, MTorusPartition::dimensional);
      INFO(t.spec() << " source " << t.name(mc.source));
      CHECK(p.phases <= t.dimensions());
      std::set<int> planes, reached;
      for (NodeId d : mc.dests)
        if (t.sigma(d, top) != t.sigma(mc.source, top)) planes.insert(t.sigma(d, top));
      int own = 0;
      for (const algo::MTorusWorm& w : p.worms)
        if (w.phase == 1)
          for (NodeId d : algo::worm_destinations(w)) {
            if (t.sigma(d, top) == t.sigma(mc.source, top)) ++own;   // §7.5's tail run only
            else CHECK(reached.insert(t.sigma(d, top)).second);
          }
      CHECK(reached == planes);
      CHECK(own <= 1);
    }
}

TEST_CASE("S-torus: one worm in phase 1 along the whole H-cycle", "[torus-mc]") {
  const auto t = DirectTopology::torus({6, 6}, false);
  const DirectRouting utpr(t, RoutingAlgorithm::utpr);
  const auto dests = nodes(t, {"(0,5)", "(4,5)", "(3,4)", "(5,4)", "(4,3)", "(1,2)", "(2,1)", "(5,1)", "(1,0)"});
  const algo::MTorusPlan p = algo::plan_mtorus(utpr, t.parse_node("(3,2)"), dests, MTorusPartition::single);
  CHECK(p.phases == 1);
  REQUIRE(p.worms.size() == 1);
  CHECK(p.worms[0].phase == 1);
  CHECK(algo::worm_destinations(p.worms[0]) == nodes(t, {"(4,3)", "(4,5)", "(5,1)", "(5,4)", "(0,5)", "(1,0)", "(1,2)",
                                                         "(2,1)", "(3,4)"}));
  for (const algo::CompoundBlock& b : p.worms[0].blocks) CHECK(b.later.empty());
  CHECK(algo::mtorus_violations(utpr, p).empty());
}

TEST_CASE("M_u-torus(r) on Fig. 5.7: halves for r = 2, thirds for r = 3", "[torus-mc]") {
  const auto t = DirectTopology::torus({6, 6}, false);
  const DirectRouting utpr(t, RoutingAlgorithm::utpr);
  auto n = [&](const char* s) { return t.parse_node(s); };
  const auto dests = nodes(t, {"(0,5)", "(4,5)", "(3,4)", "(5,4)", "(4,3)", "(1,2)", "(2,1)", "(5,1)", "(1,0)"});
  const algo::MTorusPlan u2 = algo::plan_mtorus(utpr, n("(3,2)"), dests, MTorusPartition::uniform, 2);
  CHECK(u2.phases == 4);   // ceil(log2 10)
  REQUIRE_FALSE(u2.worms.empty());
  CHECK(u2.worms[0].blocks ==
        std::vector<algo::CompoundBlock>{{n("(0,5)"), nodes(t, {"(1,0)", "(1,2)", "(2,1)", "(3,4)"})}});
  for (const algo::MTorusWorm& w : u2.worms) CHECK(w.blocks.size() == 1);
  CHECK(algo::mtorus_violations(utpr, u2).empty());
  const algo::MTorusPlan u3 = algo::plan_mtorus(utpr, n("(3,2)"), dests, MTorusPartition::uniform, 3);
  CHECK(u3.phases == 3);   // ceil(log3 10)
  CHECK(algo::worm_destinations(u3.worms[0]) == nodes(t, {"(5,4)", "(1,2)"}));
  CHECK(algo::mtorus_violations(utpr, u3).empty());
}

TEST_CASE("M_u-torus(r): ceil(log_r m) phases, r = 2 is unicast-based (random sets)", "[torus-mc]") {
  std::mt19937 rng(31337);
  const auto t = DirectTopology::torus({8, 8}, false);
  const DirectRouting utpr(t, RoutingAlgorithm::utpr);
  for (int r : {2, 3, 4, 8, 64})
    for (int m : {2, 3, 7, 8, 9, 16, 17, 33, 64}) {
      const Multicast mc = random_multicast(t, m, rng);
      const algo::MTorusPlan p = algo::plan_mtorus(utpr, mc.source, mc.dests, MTorusPartition::uniform, r);
      INFO("r = " << r << ", m = " << m);
      CHECK(p.phases == ceil_log(m, r));
      for (const algo::MTorusWorm& w : p.worms) {
        CHECK(static_cast<int>(w.blocks.size()) <= r - 1);
        if (r == 2) CHECK(w.blocks.size() == 1);
      }
    }
}

TEST_CASE("M-torus checker passes every scheme on random sets (4x4, 6x6, 5x5x5)", "[torus-mc]") {
  std::mt19937 rng(4242);
  for (const auto& radices : std::vector<std::vector<int>>{{4, 4}, {6, 6}, {5, 5, 5}}) {
    const auto t = DirectTopology::torus(radices, false);
    const DirectRouting utpr(t, RoutingAlgorithm::utpr);
    for (int trial = 0; trial < 25; ++trial) {
      const int m = 2 + static_cast<int>(rng() % static_cast<unsigned>(std::min(t.num_nodes(), 60) - 1));
      const Multicast mc = random_multicast(t, m, rng);
      const std::vector<std::pair<MTorusPartition, int>> schemes = {{MTorusPartition::single, 2},
                                                                    {MTorusPartition::dimensional, 2},
                                                                    {MTorusPartition::uniform, 2},
                                                                    {MTorusPartition::uniform, 3},
                                                                    {MTorusPartition::uniform, 8}};
      for (const auto& [part, r] : schemes) {
        const algo::MTorusPlan p = algo::plan_mtorus(utpr, mc.source, mc.dests, part, r);
        INFO(t.spec() << " " << algo::to_string(part) << " r = " << r << " m = " << m);
        CHECK(p.cycle == algo::h_cycle(utpr, mc.source, mc.dests));
        const auto v = algo::mtorus_violations(utpr, p);
        CHECK(v.empty());
        if (!v.empty()) FAIL_CHECK(v.front());
      }
    }
  }
}

TEST_CASE("M-torus checker catches a worm off the H-cycle order and a double delivery", "[torus-mc]") {
  const auto t = DirectTopology::torus({6, 6}, false);
  const DirectRouting utpr(t, RoutingAlgorithm::utpr);
  auto n = [&](const char* s) { return t.parse_node(s); };
  // Cycle (3,2)^23, (4,3)^25, (0,5)^5, (1,0)^7; a worm visiting (4,3), (1,0),
  // (0,5) goes 25 -> 7 and 7 -> 5: two boundaries (Lemma 5.6).
  algo::MTorusPlan bad;
  bad.cycle = nodes(t, {"(3,2)", "(4,3)", "(0,5)", "(1,0)"});
  bad.phases = 1;
  bad.worms = {{n("(3,2)"), 1, {{n("(4,3)"), {}}, {n("(1,0)"), {}}, {n("(0,5)"), {}}}}};
  auto joined = [](const std::vector<std::string>& v) {
    return std::accumulate(v.begin(), v.end(), std::string(), [](auto s, auto x) { return s + x + "\n"; });
  };
  CHECK_THAT(joined(algo::mtorus_violations(utpr, bad)), Contains("crosses 2 boundaries") && Contains("linear"));
  algo::MTorusPlan twice = algo::plan_mtorus(utpr, n("(3,2)"), nodes(t, {"(4,3)", "(0,5)"}), MTorusPartition::single);
  twice.worms.push_back({n("(3,2)"), 2, {{n("(0,5)"), {}}}});
  twice.phases = 2;
  CHECK_THAT(joined(algo::mtorus_violations(utpr, twice)), Contains("(0,5) receives 2 times"));
  algo::MTorusPlan lost = algo::plan_mtorus(utpr, n("(3,2)"), nodes(t, {"(4,3)", "(0,5)"}), MTorusPartition::single);
  lost.worms[0].blocks.pop_back();
  CHECK_THAT(joined(algo::mtorus_violations(utpr, lost)), Contains("(0,5) never receives"));
}

TEST_CASE("path-based schemes refuse other networks and routings, and r < 2", "[torus-mc]") {
  const auto uni = DirectTopology::torus({6, 6}, false);
  const DirectRouting utpr(uni, RoutingAlgorithm::utpr);
  const DirectRouting btr(DirectTopology::torus({6, 6}, true), RoutingAlgorithm::btr);
  CHECK_THROWS_WITH(algo::plan_mtorus(btr, 0, {1}, MTorusPartition::single),
                    Contains("regular unidirectional torus") && Contains("torus:6x6:bi"));
  const DirectRouting dor(DirectTopology::mesh({4, 4}), RoutingAlgorithm::dor);
  CHECK_THROWS_WITH(algo::plan_mtorus(dor, 0, {1}, MTorusPartition::dimensional), Contains("mesh:4x4"));
  const DirectRouting utr(uni, RoutingAlgorithm::utr);
  CHECK_THROWS_WITH(algo::plan_mtorus(utr, 0, {1}, MTorusPartition::uniform, 2), Contains("utpr"));
  CHECK_THROWS_WITH(algo::h_cycle(utr, 0, {1}), Contains("utpr"));
  CHECK_THROWS_WITH(algo::plan_mtorus(utpr, 0, {1}, MTorusPartition::uniform, 1), Contains("r = 1"));
  CHECK_THROWS_WITH(algo::plan_mtorus(utpr, 0, {1}, MTorusPartition::uniform, 0), Contains("r = 0"));
  CHECK_THROWS_WITH(algo::plan_mtorus(utpr, 0, {}, MTorusPartition::single), Contains("no destinations"));
  CHECK_THROWS_WITH(algo::plan_mtorus(utpr, 0, {1, 1}, MTorusPartition::single), Contains("listed twice"));
  CHECK_THROWS_WITH(algo::plan_mtorus(utpr, 0, {0}, MTorusPartition::single), Contains("is the source"));
  CHECK_THROWS_WITH(algo::linear_partition(utpr, {2, 1, 0}, MTorusPartition::single, 0), Contains("not an H-cycle"));
  CHECK_THROWS_WITH(algo::linear_partition(utpr, {0, 1}, MTorusPartition::dimensional, 2), Contains("order 2"));
  CHECK_THROWS_WITH(algo::linear_partition(utpr, {0, 1}, MTorusPartition::uniform, 1), Contains("r = 1"));
  CHECK_THROWS_AS(algo::mtorus_violations(utr, algo::MTorusPlan{}), std::invalid_argument);
}
