// Helpers shared by the plan-contract tests (test_plan.cpp, test_plan_direct.cpp).
#pragma once

#include <catch2/catch.hpp>

#include <map>
#include <memory>
#include <string>

#include "algorithms/plan.h"
#include "topologies/networks/network_kind.h"

namespace wormcast::test {

inline std::shared_ptr<const algo::PlanNetwork> plan_net(const std::string& spec) {
  return std::make_shared<const algo::PlanNetwork>(wormcast::topo::resolve_network_spec(spec));
}

// Every destination delivered exactly once and nothing else.
inline void check_exactly_once(const algo::MulticastPlan& p) {
  std::map<topo::NodeId, int> got;
  for (const algo::PlanMessage& m : p.messages)
    for (topo::NodeId d : m.destinations) ++got[d];
  CHECK(got.size() == p.destinations.size());
  for (topo::NodeId d : p.destinations) CHECK(got[d] == 1);
}

}  // namespace wormcast::test
