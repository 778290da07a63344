// Shared by the direct-network planners (torus_multicast, sci_multicast):
// naming nodes in messages and checking a multicast's members. Plain C++.
#pragma once

#include <string>
#include <vector>

#include "topologies/direct_topology.h"

namespace wormcast::algo {

// A node as the papers write it, or "#id" when it is not in the network (so a
// checker can name a bad node without throwing).
std::string node_name_or_id(const topo::DirectTopology& t, topo::NodeId x);
// "{(0,1), (2,3)}".
std::string node_set_text(const topo::DirectTopology& t, const std::vector<topo::NodeId>& nodes);

// Throws std::invalid_argument "<who>: ..." for a source (called `role`, e.g.
// "source" or "root") that is not a node, no destinations, or a destination
// that is not a node, is the source or is listed twice.
void check_multicast_members(const topo::DirectTopology& t, topo::NodeId source, const std::vector<topo::NodeId>& dests,
                             const std::string& who, const std::string& role = "source");

}  // namespace wormcast::algo
