// Partial Ordered Chains and path-based (multi-drop) worms on irregular
// up*/down* networks: seed000 §5.5 (Definition 3, Theorem 4) and the
// "Finding a set of POCs" algorithm of Fig. 13 (§5.6).
//
// Readings of the ambiguous steps of Fig. 13 (seed000 §10 items 14, 15):
//  * step 1: T is the whole down-DAG between levels (down_dag.h) by default;
//    PocDag::dfs_tree takes the DFS tree of it instead;
//  * step 2: the source's switch is participating (rho counts the source);
//  * step 3: removing a non-participating switch joins each parent to each
//    child; this is computed as "u -> v in T' iff v is reachable from u in T
//    through non-participating switches only" (the same closure);
//  * step 4: weights are computed once and never recomputed after stripping
//    (default; recompute_weights recomputes them on what is left of T' before
//    each chain); Desc(s) is a set, so a descendant reachable twice counts once;
//  * step 5: ties in weight (for the chain head and for the next child) go to
//    the lowest switch id; removed switches are skipped when looking for the
//    heaviest child; a chain ends when its last switch has no remaining child;
//  * a chain's node list is the destinations on its switches, switch by switch
//    in chain order and by port order within a switch; the source is dropped,
//    so the source switch's chain may have no nodes and then yields no worm.
#pragma once

#include <vector>

#include "algorithms/down_dag.h"
#include "topologies/topology.h"
#include "topologies/updown.h"

namespace wormcast::algo {

enum class PocDag { full_down_dag, dfs_tree };

struct PocOptions {
  PocDag dag = PocDag::full_down_dag;   // reading of Fig. 13 step 1
  bool recompute_weights = false;       // step 5 re-weighs T' after each strip
};

// T' of Fig. 13 step 3 with the step-4 weights.
struct ReducedDag {
  std::vector<int> rho;                                 // participating processors per switch
  std::vector<std::vector<topo::SwitchId>> children;    // only for participating switches
  std::vector<int> weight;                              // 0 for non-participating switches
  bool participating(topo::SwitchId s) const { return rho.at(s) > 0; }
};

struct Poc {
  std::vector<topo::SwitchId> switches;   // consecutive ones joined by down paths of T
  std::vector<topo::NodeId> nodes;        // destinations covered, in visiting order
};

// A path-based multidestination worm (Definition 3) with its route.
struct PathWorm {
  topo::NodeId sender = -1;
  std::vector<topo::NodeId> destinations;   // visiting order
  std::vector<topo::SwitchId> path;         // switches crossed, sender's switch first
  std::vector<topo::PortId> out_ports;      // out_ports[i]: port of path[i] toward path[i+1]
};

// Step 3 and step 4 for a given rho (participating processors per switch).
ReducedDag reduce_down_dag(const DownDag& dag, const std::vector<int>& rho);
// Step-4 weights over T' without the `removed` switches (and their links).
std::vector<int> poc_weights(const ReducedDag& g, const std::vector<char>& removed);

// Fig. 13 for (source, dests), chains in stripping order (heaviest first),
// the source switch's chain included. Throws std::invalid_argument on a bad
// multicast (multicast_set.h).
std::vector<Poc> find_pocs(const topo::Topology& t, const topo::UpDownRouting& r,
                           topo::NodeId source, const std::vector<topo::NodeId>& dests,
                           const PocOptions& opt = {});

// Destination lists of the path-based worms covering dests: the non-empty
// chain node lists of find_pocs, in stripping order.
std::vector<std::vector<topo::NodeId>> path_worm_destinations(
    const topo::Topology& t, const topo::UpDownRouting& r, topo::NodeId source,
    const std::vector<topo::NodeId>& dests, const PocOptions& opt = {});

// The route a switch network gives the worm: piecewise minimal up*/down*
// routing toward each destination's switch in turn (Lemma 5), taking the
// lowest-numbered legal minimal port at every switch (§10 item 6: the
// deterministic choice; the tables list every alternative). The phase is
// carried across segments as a decoder would (arrival_phase). Throws
// std::invalid_argument on an empty destination list or a node out of range.
PathWorm route_path_worm(const topo::Topology& t, const topo::UpDownRouting& r,
                         topo::NodeId sender, const std::vector<topo::NodeId>& destinations);

}  // namespace wormcast::algo
