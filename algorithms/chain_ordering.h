// Orderings of a multicast set into the chain that k-binomial trees are
// built on (seed000 §4.7, seed002 §6.1): source first, then the destinations.
// The papers build the tree on a contention-free ordering; on irregular
// up*/down* networks none exists, and they use the Chain Concatenated
// Ordering (CCO) of their ref. [5], built from Partial Ordered Chains
// (seed000 Definition 5), without giving its details (seed000 §10 item 8,
// seed002 §9). cco_approx_chain() is our documented approximation of it,
// "CCO-approx":
//
//  1. Order all switches by a depth-first preorder of the down-DAG from the
//     BFS root: from switch s the DFS descends over every "down" link to a
//     switch exactly one BFS level lower (tree links and inter-level cross
//     links, i.e. the links a POC may use), neighbours in ascending switch
//     id, each switch visited once (first time reached). Every maximal run
//     in this preorder where each switch is a down-DAG child of the previous
//     one is a POC, so the order is a concatenation of POCs; and each BFS
//     subtree's switches appear contiguously, so a k-binomial block (always
//     a contiguous chain interval) tends to stay within one region of the
//     network.
//  2. Keep only participating switches (the source's and destinations'),
//     preserving that order.
//  3. Rotate the list cyclically so the source's switch is first (the papers
//     put the source first "without loss of generality"; rotating keeps the
//     cyclic neighbourhoods of the DFS order intact).
//  4. Emit each switch's participating hosts contiguously, in port order,
//     except that the source comes first on its own switch.
//
// It does not strip heaviest chains first or weigh switches as the POC
// finder of seed000 Fig. 13 does; it is an ordering heuristic, not the
// paper's exact CCO. K-ary n-cube orderings belong with those topologies.
#pragma once

#include <vector>

#include "topologies/direct_topology.h"
#include "topologies/topology.h"
#include "topologies/updown.h"

namespace wormcast::algo {

// Step 1 above: every switch of `t` in down-DAG DFS preorder from r.root().
std::vector<topo::SwitchId> down_dag_preorder(const topo::Topology& t, const topo::UpDownRouting& r);

// The CCO-approx chain: source first, then every destination exactly once.
// `r` must be the routing of `t`. Throws std::invalid_argument naming the
// node for an out-of-range source or destination, a duplicate destination,
// or the source listed as a destination.
std::vector<topo::NodeId> cco_approx_chain(const topo::Topology& t, const topo::UpDownRouting& r,
                                           topo::NodeId source, const std::vector<topo::NodeId>& destinations);

// The chain in the order given: source, then destinations as listed (for
// orderings computed elsewhere, e.g. dimension-ordered chains). Same checks,
// with ids only required to be >= 0.
std::vector<topo::NodeId> given_order_chain(topo::NodeId source, const std::vector<topo::NodeId>& destinations);

}  // namespace wormcast::algo

namespace wormcast::algo {

// Dimension-ordered chain for k-ary n-cubes (seed002 §6.1, after McKinley et
// al. [9]): the members sorted lexicographically on their digits, with the
// dimension the routing resolves first as the most significant digit
// (`highest_dimension_first`: σ_{n-1} first, as the dor/ecube/utr/btr
// routings of topologies/direct_routing.h do by default; false: σ_0 first,
// DimOrder::ascending), and the source first:
//  * hypercubes (U-cube): digits relative to the source (bitwise XOR), so
//    the source (address 0) sorts first; contention-free under E-cube for
//    every a ≺ b ≼ c ≺ d (tested);
//  * tori (U-torus, seed004 §2.2): absolute digits, the sorted list rotated
//    so the source is first (reproduces seed004 Fig. 1's Φ′).
// Meshes are refused (the source is not first in a mesh's chain).
// Throws std::invalid_argument for a mesh, an out-of-range node, a
// duplicate, or the source listed as a destination.
std::vector<topo::NodeId> dimension_ordered_chain(const topo::DirectTopology& t, topo::NodeId source,
                                                  const std::vector<topo::NodeId>& destinations,
                                                  bool highest_dimension_first = true);

}  // namespace wormcast::algo
