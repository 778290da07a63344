// Independent legality checker for multidestination worms (seed000 §1.5
// BRCP, §1.2 up*/down*, Definition 3): it recomputes BFS levels and link
// directions from the topology and the root alone, sharing no code with the
// planners, and reports every problem as a sentence (empty = legal).
//  * a path-based worm: a connected switch path from the sender's switch that
//    never takes an up link after a down link and meets the destinations'
//    switches in visiting order (a multi-drop decoder drops at the first
//    matching switch);
//  * a tree-based worm: every branch leaves the switch its parent reached, and
//    no branch takes an up link once it or an ancestor took a down link
//    (processor ports are down links); each destination gets exactly one copy
//    and nothing else is delivered;
//  * a multi-phase schedule: every sender holds the message before its phase,
//    each destination is delivered exactly once, the source never.
#pragma once

#include <string>
#include <vector>

#include "algorithms/multiphase.h"
#include "algorithms/poc.h"
#include "algorithms/reachability.h"
#include "topologies/topology.h"

namespace wormcast::algo {

std::vector<std::string> check_path_worm(const topo::Topology& t, topo::SwitchId root, const PathWorm& w);
std::vector<std::string> check_tree_trace(const topo::Topology& t, topo::SwitchId root, const TreeTrace& tr,
                                          const std::vector<topo::NodeId>& dests);
// Also applies check_path_worm to every worm that carries a route.
std::vector<std::string> check_schedule(const topo::Topology& t, topo::SwitchId root, const Schedule& s,
                                        const std::vector<topo::NodeId>& dests);

}  // namespace wormcast::algo
