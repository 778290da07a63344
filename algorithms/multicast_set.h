// Validation of a multicast request (source node + destination node set) on a
// switch-level Topology, shared by every switch-based planner of seed000 §5
// (docs/design.md principle 6: bad input gets an error naming what is wrong).
#pragma once

#include <vector>

#include "topologies/topology.h"

namespace wormcast::algo {

// Throws std::invalid_argument naming the problem when: the source is not a
// node of `t`, the destination set is empty, a destination is not a node of
// `t`, a destination is the source, or a destination is listed twice.
void check_multicast(const topo::Topology& t, topo::NodeId source,
                     const std::vector<topo::NodeId>& dests);

}  // namespace wormcast::algo
