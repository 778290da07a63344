// Tree-based multicast with one bit-string worm, seed000 §5.3 (§5.9):
// restricted per-port reachability strings r_ij and total strings r_i set up
// by the algorithm of Fig. 18, and the decode a switch applies to a worm.
//
// Fig. 18 step 1 walks levels from the deepest to the root; inside a level it
// takes switches in DECREASING id. A same-level down link always goes from the
// lower to the higher id (§1.2), so this is a reverse topological order of the
// down links inside a level and r_k is final before any r_i that ORs it in
// (§10 item 14: same-level down links are used, not excluded). Step 2 makes
// each destination belong to the highest-numbered down port of a switch that
// reaches it, so a switch's restricted strings partition r_i.
//
// Decoding with header modification (the paper's choice): every copy carries
// only the destinations in its port's restricted string, so a destination
// reachable through two intermediate switches (Fig. 17(b)) gets one copy.
#pragma once

#include <cstddef>
#include <vector>

#include "algorithms/node_bits.h"
#include "topologies/topology.h"
#include "topologies/updown.h"

namespace wormcast::algo {

// One switch's own tables: all its decoder may consult.
struct SwitchReach {
  NodeBits total;                        // r_i
  std::vector<NodeBits> restricted;      // r_ij per port (empty string for non-down ports)
  std::vector<char> down_port;           // node port or down link
  std::vector<char> node_port;           // port attached to a processor
  std::vector<topo::PortId> up_ports;    // ascending
};

struct ReachabilityTables {
  std::vector<SwitchReach> switches;
  const SwitchReach& at(topo::SwitchId s) const { return switches.at(s); }
};

ReachabilityTables compute_reachability(const topo::Topology& t, const topo::UpDownRouting& r);

struct TreeBranch {
  topo::PortId port = -1;
  bool up_down = true;     // the copy's up-down bit
  NodeBits dests;          // the copy's destination string
  bool to_node = false;    // port leads to a processor
};

// Decode at one switch (§5.3.3). arrival: phase of the input port
// (UpDownRouting::arrival_phase). Going up: one branch on up_ports[up_index %
// count], header unchanged (up_index = 0: lowest up port; pass a counter for
// round-robin). Otherwise one branch per down port whose restricted string
// meets the destinations. Throws std::invalid_argument on an empty
// destination string, an up-down bit of 1 on a worm that arrived down, or a
// down-going worm with destinations this switch cannot reach.
std::vector<TreeBranch> decode_tree_worm(const SwitchReach& sw, topo::Phase arrival, bool up_down,
                                         const NodeBits& dests, std::size_t up_index = 0);
inline std::vector<TreeBranch> decode_tree_worm(const ReachabilityTables& tables, topo::SwitchId sw,
                                                topo::Phase arrival, bool up_down, const NodeBits& dests,
                                                std::size_t up_index = 0) {
  return decode_tree_worm(tables.at(sw), arrival, up_down, dests, up_index);
}

// A tree worm followed switch by switch from the source: every link
// traversal (hop) with the hop that brought the worm to its switch.
struct TreeHop {
  topo::SwitchId sw = -1;   // switch the copy leaves
  topo::PortId port = -1;   // through this port
  int parent = -1;          // hop that arrived at sw; -1: injected by the source
  bool up_down = true;      // header carried over this hop
  NodeBits dests;
};
struct TreeTrace {
  topo::NodeId source = -1;
  std::vector<TreeHop> hops;
  std::vector<topo::NodeId> delivered;   // processors reached, in hop order
};

// Injects (up-down 1, dests) at the source's switch and applies
// decode_tree_worm at every switch reached. Throws std::invalid_argument on a
// bad multicast (multicast_set.h).
TreeTrace run_tree_worm(const topo::Topology& t, const topo::UpDownRouting& r, const ReachabilityTables& tables,
                        topo::NodeId source, const std::vector<topo::NodeId>& dests, std::size_t up_index = 0);

}  // namespace wormcast::algo
