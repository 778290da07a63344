// Bad input to the switch-based planners (docs/design.md principle 6) and the
// checkers catching broken worms.
#include <catch2/catch.hpp>

#include "algorithms/multiphase.h"
#include "algorithms/poc.h"
#include "algorithms/reachability.h"
#include "algorithms/ssr.h"
#include "algorithms/worm_check.h"
#include "switchmc_fixtures.h"

using namespace wormcast::algo;
using namespace switchmc_test;
using Catch::Matchers::Contains;

TEST_CASE("switchmc: bad multicast sets are rejected naming the problem", "[switchmc][errors]") {
  const Topology t = fig14();
  const UpDownRouting r = fig14_routing(t);
  const ReachabilityTables rt = compute_reachability(t, r);
  const NodeId src = fig14_source();
  const std::vector<std::pair<std::vector<NodeId>, std::string>> cases{
      {{}, "empty"},
      {{proc(5, 1), src}, "destination 18 is the source itself"},
      {{proc(5, 1), 20}, "destination 20 is not a node"},
      {{-1}, "destination -1 is not a node"},
      {{proc(5, 1), proc(5, 1)}, "listed twice"},
  };
  for (const auto& [dests, why] : cases) {
    INFO(why);
    CHECK_THROWS_WITH(find_pocs(t, r, src, dests), Contains(why));
    CHECK_THROWS_WITH(plan_path_based(t, r, src, dests), Contains(why));
    CHECK_THROWS_WITH(plan_ssr(t, r, src, dests, Scheduler::greedy), Contains(why));
    CHECK_THROWS_WITH(run_tree_worm(t, r, rt, src, dests), Contains(why));
    CHECK_THROWS_AS(ssr_worms(t, r, src, dests), std::invalid_argument);
  }
  CHECK_THROWS_WITH(find_pocs(t, r, 99, {1}), Contains("source node 99"));
  CHECK_THROWS_AS(schedule_worms(t, src, {{}}, Scheduler::greedy), std::invalid_argument);
  CHECK_THROWS_AS(route_path_worm(t, r, src, {}), std::invalid_argument);
}

TEST_CASE("switchmc: the checkers catch illegal worms", "[switchmc][errors]") {
  const Topology t = fig14();
  const UpDownRouting r = fig14_routing(t);
  // 5 -> 3 (down) then 3 -> 5 (up): up after down.
  PathWorm w = route_path_worm(t, r, proc(5, 1), {proc(3, 1)});
  REQUIRE(w.path.size() == 2);
  w.path.push_back(sw(5));
  w.out_ports.push_back(t.peer(sw(5), w.out_ports[0]).port);
  CHECK_FALSE(check_path_worm(t, r.root(), w).empty());
  // A destination the path never reaches.
  PathWorm miss = route_path_worm(t, r, proc(5, 1), {proc(3, 1)});
  miss.destinations.push_back(proc(8, 1));
  CHECK_FALSE(check_path_worm(t, r.root(), miss).empty());
  // A schedule in which a node sends before it has the message.
  Schedule s = plan_path_based(t, r, fig14_source(), fig14_dests());
  s.worms.back().phase = 1;
  CHECK_FALSE(check_schedule(t, r.root(), s, fig14_dests()).empty());
  // A tree trace delivering twice.
  const ReachabilityTables rt = compute_reachability(t, r);
  TreeTrace tr = run_tree_worm(t, r, rt, fig14_source(), {proc(5, 1)});
  tr.hops.push_back(tr.hops.back());
  CHECK_FALSE(check_tree_trace(t, r.root(), tr, {proc(5, 1)}).empty());
}
