// Helpers of the multicast testbenches (testbenches/*_multicast_tb.cpp): the
// multicast set named as `wormcast plan` names it, the plan's text for that
// set, and the check that every destination received the message once.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "algorithms/plan.h"
#include "algorithms/plan_network.h"

namespace wormcast::tb {

struct TbMulticast {
  std::shared_ptr<const algo::PlanNetwork> net;
  topo::NodeId source = 0;
  std::vector<topo::NodeId> dests;
  std::string names(const std::vector<topo::NodeId>& nodes) const;  // "(0,1),(2,3)"
};

// The network of `spec` (as `wormcast plan --topology`), the source (empty:
// node 0) and the destinations: `dests` as listed, or else `degree` nodes
// drawn as `wormcast plan --random degree --seed seed` draws them. Throws
// std::invalid_argument naming the option and the value.
TbMulticast tb_multicast(const std::string& spec, const std::string& source, const std::string& dests, int degree,
                         std::uint64_t seed);

// The plan of `scheme` for m, as `wormcast plan` prints it, each line
// indented by two spaces.
std::string plan_text(const std::string& scheme, const TbMulticast& m, const algo::PlanOptions& options);

// Throws std::runtime_error unless `got` holds every destination exactly once
// and nothing else.
void check_exactly_once(const TbMulticast& m, std::vector<topo::NodeId> got);

}  // namespace wormcast::tb
