// Text and DOT views of direct networks for `wormcast topo show/export`
// with a spec instead of a topology file: `torus:4x4:uni`, `mesh:8x8`,
// `hypercube:4` (parse_direct_spec). Plain C++, no SystemC.
//   show: every node with its channels and the VC classes the routing uses
//         on each, then the result of check_direct_routing.
//   dot:  a neato graph with fixed grid positions (pos="x,y!"): dimension 0
//         along x, dimension 1 along y, higher dimensions as offset copies of
//         that plane; wrap-around channels dashed, labels = VC classes.
#pragma once

#include <ostream>
#include <string>

#include "topologies/direct_routing.h"

namespace wormcast::topo {

// Does `text` name a direct network (torus:, mesh:, hypercube:) rather than a file?
bool is_direct_spec(const std::string& text);
// "default" or a routing name (dor, ecube, utr, btr, utpr, dateline) for network t.
RoutingAlgorithm routing_for(const DirectTopology& t, const std::string& name);
// vcs: VCs per channel as router.vcs (0 = the routing's class count; else a
// multiple of it, TopologyError otherwise); with m > 1 per class the labels
// give each class's VC range ("dl0:vc0-1,dl1:vc2-3").
void show_direct(const DirectRouting& r, std::ostream& os, int vcs = 0);
void write_direct_dot(const DirectRouting& r, std::ostream& os, int vcs = 0);

}  // namespace wormcast::topo
