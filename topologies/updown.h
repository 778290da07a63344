// Up*/down* (Autonet) routing on an irregular switch network (seed000 §1.2):
// a BFS spanning tree gives every link an "up" end (closer to the root, or the
// lower switch id at equal level); a legal route never takes an up link after a
// down link. Processor ports count as down links. The tables give, for each
// switch, arrival phase and destination, every legal output port on a
// *minimal* legal route, so a decoder can choose adaptively among them.
#pragma once

#include <string>
#include <vector>

#include "topologies/topology.h"

namespace wormcast::topo {

enum class RootRule {
  lowest_id,    // switch 0 (default; the paper leaves the root unspecified)
  max_degree,   // switch with most inter-switch links, ties to lowest id
};

// Phase of a packet at a switch: `may_go_up` until it has taken a down link.
enum class Phase { may_go_up = 0, down_only = 1 };

class UpDownRouting {
 public:
  UpDownRouting() = default;
  UpDownRouting(const Topology& t, RootRule rule = RootRule::lowest_id);

  SwitchId root() const { return root_; }
  int level(SwitchId s) const { return level_.at(s); }
  int max_level() const;
  // Is the BFS-tree parent link of s (-1 for the root / none)?
  SwitchId tree_parent(SwitchId s) const { return parent_.at(s); }
  // True if leaving switch s through port p (to another switch) goes "up".
  // Node ports and open ports return false (node ports are down links).
  bool is_up_port(SwitchId s, PortId p) const;
  // Is the link leaving s through p a BFS tree link?
  bool is_tree_port(SwitchId s, PortId p) const;
  // Phase of a packet that arrived at s through input port p
  // (from a node: may_go_up; from a switch over a link traversed downwards: down_only).
  Phase arrival_phase(SwitchId s, PortId p) const;

  // Legal output ports on minimal legal routes from (s, phase) to node dst,
  // ascending port order. Never empty for a valid (s, phase, dst) that is
  // reachable; for dst attached to s it is exactly the node's port.
  const std::vector<PortId>& ports(SwitchId s, Phase ph, NodeId dst) const;
  // Hops (switch-to-switch links) on a minimal legal route from (s, ph) to the
  // switch of dst; -1 if unreachable in that phase.
  int distance(SwitchId s, Phase ph, SwitchId dst_sw) const;

 private:
  std::vector<std::vector<PortPeer>> ports_;   // copy of the topology's port map
  std::vector<PortRef> node_attach_;
  SwitchId root_ = 0;
  std::vector<int> level_;
  std::vector<SwitchId> parent_;
  std::vector<PortId> parent_port_;             // port of s toward its tree parent
  std::vector<std::vector<char>> up_port_;      // [s][p]
  std::vector<std::vector<int>> dist_;          // [(dst_sw * S + s) * 2 + phase]
  std::vector<std::vector<PortId>> table_;      // [((s * 2 + phase) * N) + dst]
  int num_nodes_ = 0, num_switches_ = 0;
};

// Independent checker (does not reuse the table construction): every table
// entry is a legal up*/down* transition that lies on a minimal legal route,
// every (source node, destination node) pair is routable, and the channel
// dependency graph induced by the tables is acyclic. Returns a list of
// human-readable problems (empty = all good).
std::vector<std::string> check_updown(const Topology& t, const UpDownRouting& r);

}  // namespace wormcast::topo
