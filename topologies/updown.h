// Up*/down* (Autonet) routing on an irregular switch network (seed000 §1.2):
// a BFS spanning tree gives every link an "up" end (closer to the root, or the
// lower switch id at equal level); a legal route never takes an up link after a
// down link. Processor ports count as down links. The tables give, for each
// switch, arrival phase and destination, every legal output port on a
// *minimal* legal route, so a decoder can choose adaptively among them.
#pragma once

#include <cstdint>
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
  // Every entry toward node dst at once, for the checker: out[s * 2 + phase]
  // becomes &ports(s, phase, dst) (the same list object ports() returns), for
  // all switches. One call per node instead of one per entry.
  void ports_to(NodeId dst, std::vector<const std::vector<PortId>*>& out) const;
  // Hops (switch-to-switch links) on a minimal legal route from (s, ph) to the
  // switch of dst; -1 if unreachable in that phase.
  int distance(SwitchId s, Phase ph, SwitchId dst_sw) const;

 private:
  // One inter-switch link end: leaving switch s through `port` reaches `peer`.
  struct LinkEnd {
    PortId port;
    SwitchId peer;
    PortId peer_port;
    bool up;
  };

  void copy_links(const Topology& t);
  void choose_root(RootRule rule);
  void build_tree();
  void state_predecessors(std::vector<int>& begin, std::vector<int>& pred) const;
  void build_tables();
  // Link end of s on port p, or nullptr (node port, open port).
  const LinkEnd* link_end(SwitchId s, PortId p) const;
  const std::vector<PortId>& entry(SwitchId s, int phase, SwitchId dst_sw) const;

  int num_nodes_ = 0, num_switches_ = 0, ports_per_switch_ = 0;
  SwitchId root_ = 0;
  std::vector<int> level_;
  std::vector<SwitchId> parent_;
  std::vector<PortId> parent_port_;   // port of s toward its tree parent
  // Link ends of switch s are links_[link_begin_[s] .. link_begin_[s+1]), in
  // ascending port order: memory follows the ports in use, not ports_per_switch.
  std::vector<int> link_begin_;
  std::vector<LinkEnd> links_;
  std::vector<PortRef> node_attach_;
  // Tables. The legal ports toward a node depend only on its switch (except
  // at that switch, where the answer is the node's port), and each switch sees
  // few distinct port sets. So an entry is a 16-bit index into its switch's
  // list of distinct sets: entry_[(dst_switch * S + s) * 2 + phase] names
  // sets_[set_base_[s] + index]. A switch has at most 2S + 1 distinct sets
  // (one per phase and destination switch, plus the empty one), and S is at
  // most kMaxSwitches, so the index fits. Set 0 of every switch is empty.
  std::vector<std::uint16_t> entry_;
  std::vector<std::uint32_t> set_base_;
  std::vector<std::vector<PortId>> sets_;
  std::vector<std::uint32_t> node_set_;   // [dst]: the set {port of dst} in sets_
};

// Independent checker (does not reuse the table construction): every table
// entry is a legal up*/down* transition that lies on a minimal legal route,
// every (source node, destination node) pair is routable, and the channel
// dependency graph induced by the tables is acyclic. Returns a list of
// human-readable problems (empty = all good).
std::vector<std::string> check_updown(const Topology& t, const UpDownRouting& r);

}  // namespace wormcast::topo
