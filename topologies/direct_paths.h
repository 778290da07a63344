// Sender-side helpers for path-based worms with intermediate reception on
// the direct networks (seed001 §4.3, Ch. 5; Robinson).
//
// ir_visiting_order() is the message preparation algorithm of Fig. 5.8:
// sort {source} ∪ destinations by the ℋ labels ℓ(u) of Eq. 5.2, rotate so
// that the source is first again, drop the source. The result is an
// ℋ-cycle, so one IR worm routed by ℛ_UTPR (Fig. 5.11) visits every
// destination along minimal segments, crosses at most one boundary and never
// reuses a channel (Theorem 5.1). The thesis defines ℋ only for UTPR on
// regular unidirectional tori; for the other routing functions (UTR, BTR,
// dor, ecube) it gives no deadlock-free visiting order for multi-destination
// worms, so the helper refuses them rather than invent one (the router still
// carries any order a caller builds by hand).
//
// ir_header() builds the worm's header as the router reads it (Fig. 5.9):
// one address per flit, the last address twice as the terminator.
// check_ir_path() is the independent §7.9 check of a prepared worm.
#pragma once

#include <string>
#include <vector>

#include "topologies/direct_routing.h"

namespace wormcast::topo {

// Destinations of a worm from `src` in ℋ order (Fig. 5.8). Throws
// TopologyError when the routing is not utpr, on a node outside the network,
// an empty or duplicate destination set, or the source among the destinations.
std::vector<NodeId> ir_visiting_order(const DirectRouting& r, NodeId src, const std::vector<NodeId>& dests);

// Header flits of an IR worm visiting `ordered` (non-empty): a_1, ..., a_m, a_m.
std::vector<NodeId> ir_header(const std::vector<NodeId>& ordered);
inline int ir_header_flits(int destinations) { return destinations + 1; }

// Problems of the worm src -> ordered[0] -> ... under the routing (empty =
// good): every segment minimal (Σ_d (σ_d(v) − σ_d(u)) mod k hops on a
// unidirectional torus), no node visited twice, at most one boundary crossed
// (UTPR), no physical channel used twice.
std::vector<std::string> check_ir_path(const DirectRouting& r, NodeId src, const std::vector<NodeId>& ordered);

}  // namespace wormcast::topo
