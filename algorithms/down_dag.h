// The down-DAG between BFS levels of seed000 Definition 5 (§1.4) and Fig. 13
// step 1: an edge u -> v for every "down" link (tree link or cross link) whose
// ends lie on different BFS levels, so each edge goes exactly one level down.
// Same-level cross links are excluded (§10 item 14). Parallel links collapse
// into one edge. Step 1's "DFS ... resulting DAG T" is read as this whole DAG
// (§5.6 recommended reading), not as a DFS tree: Theorem 4 only needs every
// consecutive chain pair to be joined by down links, which any edge of T is.
#pragma once

#include <vector>

#include "topologies/topology.h"
#include "topologies/updown.h"

namespace wormcast::algo {

struct DownDag {
  std::vector<int> level;                               // BFS level per switch
  std::vector<std::vector<topo::SwitchId>> children;    // ascending switch id
  std::vector<std::vector<topo::SwitchId>> parents;     // ascending switch id
  int num_switches() const { return static_cast<int>(level.size()); }
};

DownDag build_down_dag(const topo::Topology& t, const topo::UpDownRouting& r);

// The other reading of Fig. 13 step 1: the tree of a depth-first search of
// `g` from the level-0 switch, children visited in ascending id; only the
// edges that discover a switch are kept (every switch has a BFS parent, so
// all are discovered).
DownDag dfs_tree(const DownDag& g);

}  // namespace wormcast::algo
