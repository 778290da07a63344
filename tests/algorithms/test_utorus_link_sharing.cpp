// The U-torus step model with physical link sharing (seed001 §5.2,
// algorithms/utorus_link_sharing.h): hand-built plans on 8-node rings whose
// steps are worked out by hand, the no-sharing case equal to the plan's own
// steps, and bounds on random U-torus plans.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <numeric>
#include <random>

#include "algorithms/utorus_link_sharing.h"

using namespace wormcast;
using namespace wormcast::algo;
using topo::DirectRouting;
using topo::DirectTopology;
using topo::RoutingAlgorithm;
using topo::VcClass;

TEST_CASE("link sharing: p and h of one unidirectional link in one step take two steps each", "[torus-mc]") {
  const DirectTopology t = DirectTopology::torus({8}, false);
  const DirectRouting r(t, RoutingAlgorithm::utr);
  // UTR (seed001 §1.5): 5 -> 1 will wrap, so it leaves 5 on p and crosses
  // 6 -> 7 on p; 6 -> 7 does not wrap and takes h: one wire, two VCs.
  REQUIRE(r.route(5, 1).at(1).node == 6);
  REQUIRE(r.route(5, 1).at(1).vc == VcClass::p);
  REQUIRE(r.route(6, 7).front().vc == VcClass::h);
  // Step 1: 5 -> 6 alone. Step 2: 5 -> 1 and 6 -> 7 share 6 -> 7.
  UTorusPlan plan;
  plan.chain = {5, 6, 7, 1};
  plan.steps = 2;
  plan.unicasts = {{5, 6, 1, {6, 7}}, {5, 1, 2, {1}}, {6, 7, 2, {7}}};
  // By hand: node 6 has it at 1; 5's second send starts at 1 and takes 2
  // steps (node 1 at 3); 6 -> 7 starts at 1 and takes 2 (node 7 at 3).
  const SharedSteps s = utorus_shared_steps(r, plan, LinkSharing::two_way);
  CHECK(s.received == std::vector<int>{1, 3, 3});
  CHECK(s.max == 3);
  CHECK(s.mean == Approx(7.0 / 3));
  CHECK(s.shared_unicasts == 2);
  CHECK(s.triple_unicasts == 0);
  // Unidirectional: three_way is the same wire set.
  CHECK(utorus_shared_steps(r, plan, LinkSharing::three_way).received == s.received);
  // The lower bound: the plan's own steps.
  const SharedSteps none = utorus_shared_steps(r, plan, LinkSharing::none);
  CHECK(none.received == std::vector<int>{1, 2, 2});
  CHECK(none.max == 2);
  CHECK(none.shared_unicasts == 0);
}

TEST_CASE("link sharing: opposite directions share only under 3-way multiplexing", "[torus-mc]") {
  const DirectTopology t = DirectTopology::torus({8}, true);
  const DirectRouting r(t, RoutingAlgorithm::btr);
  // Step 2: 0 -> 2 crosses 0 -> 1 (plus), 1 -> 7 crosses 1 -> 0 (minus).
  REQUIRE(r.route(0, 2).front().next == 1);
  REQUIRE(r.route(1, 7).front().next == 0);
  UTorusPlan plan;
  plan.chain = {0, 1, 2, 7};
  plan.steps = 2;
  plan.unicasts = {{0, 1, 1, {1, 7}}, {0, 2, 2, {2}}, {1, 7, 2, {7}}};
  CHECK(utorus_shared_steps(r, plan, LinkSharing::two_way).received == std::vector<int>{1, 2, 2});
  const SharedSteps three = utorus_shared_steps(r, plan, LinkSharing::three_way);
  CHECK(three.received == std::vector<int>{1, 3, 3});
  CHECK(three.shared_unicasts == 2);
}

TEST_CASE("link sharing: a wire used by three unicasts of one step takes three steps each", "[torus-mc]") {
  const DirectTopology t = DirectTopology::torus({16}, true);
  const DirectRouting r(t, RoutingAlgorithm::btr);
  auto nodes = [&](topo::NodeId a, topo::NodeId b) {
    std::vector<topo::NodeId> v{a};
    for (const auto& h : r.route(a, b)) v.push_back(h.next);
    return v;
  };
  // Step 3: 0 -> 2 and 15 -> 3 cross 0 -> 1 (plus), 1 -> 14 crosses 1 -> 0 (minus).
  REQUIRE(nodes(0, 2) == std::vector<topo::NodeId>{0, 1, 2});
  REQUIRE(nodes(15, 3) == std::vector<topo::NodeId>{15, 0, 1, 2, 3});
  REQUIRE(nodes(1, 14) == std::vector<topo::NodeId>{1, 0, 15, 14});
  UTorusPlan plan;
  plan.chain = {0, 1, 2, 3, 5, 14, 15};
  plan.steps = 3;
  plan.unicasts = {{0, 1, 1, {}}, {0, 15, 2, {}}, {1, 5, 2, {}}, {0, 2, 3, {}}, {15, 3, 3, {}}, {1, 14, 3, {}}};
  // 3-way: the wire {0,1} carries all three of step 3: 3 steps each.
  // 0: 1 at 1, 15 at 2, 2 at 2 + 3 = 5; 1: 5 at 2, 14 at 5; 15: 3 at 5.
  const SharedSteps three = utorus_shared_steps(r, plan, LinkSharing::three_way);
  CHECK(three.received == std::vector<int>{1, 2, 2, 5, 5, 5});
  CHECK(three.triple_unicasts == 3);
  CHECK(three.max == 5);
  // 2-way: 0 -> 2 and 15 -> 3 share 0 -> 1 and 1 -> 2 (2 steps each); 1 -> 14 is alone.
  const SharedSteps two = utorus_shared_steps(r, plan, LinkSharing::two_way);
  CHECK(two.received == std::vector<int>{1, 2, 2, 4, 4, 3});
  CHECK(two.shared_unicasts == 2);
  CHECK(two.triple_unicasts == 0);
}

TEST_CASE("link sharing: on random U-torus plans, none = the plan's steps, 2-way bounded by the VCs per direction",
          "[torus-mc]") {
  std::mt19937 rng(7);
  for (const bool bi : {false, true}) {
    const DirectTopology t = DirectTopology::torus({8, 8}, bi);
    const DirectRouting r(t, bi ? RoutingAlgorithm::btr : RoutingAlgorithm::utr);
    for (int trial = 0; trial < 40; ++trial) {
      std::vector<topo::NodeId> all(64);
      std::iota(all.begin(), all.end(), 0);
      std::shuffle(all.begin(), all.end(), rng);
      const int m = 2 + trial % 30;
      const UTorusPlan plan = plan_utorus(t, all[0], std::vector<topo::NodeId>(all.begin() + 1, all.begin() + m));
      INFO((bi ? "bi" : "uni") << " trial " << trial);
      const SharedSteps none = utorus_shared_steps(r, plan, LinkSharing::none);
      CHECK(none.max == plan.steps);
      for (std::size_t i = 0; i < plan.unicasts.size(); ++i) CHECK(none.received[i] == plan.unicasts[i].step);
      const SharedSteps two = utorus_shared_steps(r, plan, LinkSharing::two_way);
      CHECK(two.max >= none.max);
      // Theorem 4.4: no two unicasts of a step share a VC, so a one-way wire
      // has at most as many users as VCs (uni: p, h; bi: p, l, h).
      CHECK(two.max <= (bi ? 3 : 2) * none.max);
      if (!bi) CHECK(two.triple_unicasts == 0);
      const SharedSteps three = utorus_shared_steps(r, plan, LinkSharing::three_way);
      CHECK(three.max >= two.max);
      if (!bi) CHECK(three.received == two.received);
    }
  }
}
