// The InfiniBand m-port n-tree IBFT(m, n) of seed003 (Zhou, Lin, Chung 2007;
// spec/seed002_004.md, SEED 003 §2 and Def. 4 of §3): a fat tree of n switch
// levels with m-port switches, h = m/2, 2h^n processing nodes and
// (2n-1)h^(n-1) switches. Pure data, no SystemC: the wiring is computed from
// the labels, nothing is stored per port.
//
//  * Node P(p_0 p_1 ... p_{n-1}), p_0 in 0..m-1 and p_i in 0..h-1 (i >= 1).
//    Its id is its PID (Def. 4): Σ p_i h^(n-1-i), so ids are 0..2h^n-1.
//  * Switch SW<w_0 ... w_{n-2}, l>, level l in 0..n-1 (0 = the roots, n-1 =
//    the leaf switches the nodes hang on). Level 0: every w_i in 0..h-1;
//    levels >= 1: w_0 in 0..m-1, the others in 0..h-1. Switch ids are dense,
//    by level and then by w read as a mixed-radix number (w_0 most
//    significant), so level 0 holds ids 0..h^(n-1)-1.
//  * Ports are 1..m. Wiring exactly as §2: SW<w,l>_k -- SW<w',l+1>_k' iff
//    w = (w' without digit l) · w_{n-2}, k = w'_l + 1 and k' = w_{n-2} + h + 1;
//    SW<w,n-1>_k -- P(p) iff w = p_0..p_{n-2} and k = p_{n-1} + 1. Hence at
//    levels >= 1 ports 1..h go down and h+1..m go up; at level 0 all m ports
//    go down (port k to the level-1 switch with w'_0 = k-1).
//
// Names follow the paper: "P(201)" and "SW<20,1>" (digits run together, then
// the level); when m > 10 a digit can exceed 9, so digits are separated by
// commas: "P(12,0,3)", "SW<12,0,1>".
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "topologies/topology.h"

namespace wormcast::topo {

// Largest IBFT accepted (2h^n nodes).
constexpr int kMaxFatTreeNodes = 1 << 20;

class FatTree {
 public:
  // A switch as the paper labels it: SW<w, level>, w has n-1 digits.
  struct SwitchLabel {
    std::vector<int> w;
    int level = 0;
  };
  // What is at the other end of a switch port (topology.h has a PortPeer for
  // general topologies; this one is the fat tree's, always wired).
  struct PortPeer {
    bool is_node = false;
    int id = -1;     // node id (PID) or switch id
    int port = 0;    // the peer switch's port; 0 for a node
  };

  // IBFT(m, n). Throws std::invalid_argument naming m or n when m is odd or
  // below 4, n is below 2, or the tree would have more than kMaxFatTreeNodes nodes.
  FatTree(int m, int n);

  int m() const { return m_; }
  int n() const { return n_; }
  int h() const { return h_; }
  int num_nodes() const { return num_nodes_; }         // 2h^n
  int num_switches() const { return num_switches_; }   // (2n-1)h^(n-1)
  int switches_at_level(int level) const;              // h^(n-1) at level 0, 2h^(n-1) above
  std::string spec() const;                            // "ibft:M,N"
  // h^k for 0 <= k <= n (no range check).
  int pow_h(int k) const { return pow_h_[static_cast<std::size_t>(k)]; }

  // ---- nodes (id = PID) ----
  bool valid_node(NodeId id) const { return id >= 0 && id < num_nodes_; }
  int node_digit(NodeId id, int i) const;              // p_i (no range check)
  std::vector<int> node_digits(NodeId id) const;       // p_0..p_{n-1}; throws for a bad id
  NodeId node_of(const std::vector<int>& digits) const;   // throws on a wrong count or range
  std::string node_name(NodeId id) const;              // "P(201)" or "P(12,0,3)"
  // Reads "P(201)", "201", "P(2,0,1)", "p( 2, 0, 1 )"; throws
  // std::invalid_argument naming the text and the reason.
  NodeId parse_node(const std::string& text) const;

  // ---- switches ----
  bool valid_switch(int sw) const { return sw >= 0 && sw < num_switches_; }
  int switch_level(int sw) const;                      // throws for a bad id
  SwitchLabel switch_label(int sw) const;              // throws for a bad id
  int switch_id(const SwitchLabel& label) const;       // throws on a bad level, digit count or range
  std::string switch_name(int sw) const;               // "SW<20,1>" or "SW<12,0,1>"
  // Reads switch_name() output ("SW<20,1>", "SW<2,0,1>", spaces allowed);
  // throws std::invalid_argument naming the text and the reason.
  int parse_switch(const std::string& text) const;

  // ---- wiring (§2) ----
  // The switch or node at the other end of port 1..m of switch sw; every port
  // is wired. Throws std::invalid_argument for a bad switch or port.
  PortPeer peer(int sw, int port) const;
  // Both throw std::invalid_argument for a bad node.
  int leaf_switch(NodeId node) const;                  // SW<p_0..p_{n-2}, n-1>
  int leaf_port(NodeId node) const;                    // p_{n-1} + 1 (ports 1..h of the leaf switch)
  // Ports h+1..m at levels >= 1; none at level 0. Throws for a bad switch or port.
  bool is_up_port(int sw, int port) const;

 private:
  void check_switch(int sw, const char* who) const;
  void check_node(NodeId id, const char* who) const;
  std::string digit_string(const std::vector<int>& digits) const;

  int m_ = 0, n_ = 0, h_ = 0;
  int num_nodes_ = 0, num_switches_ = 0;
  std::vector<int> pow_h_;   // h^0..h^n
};

// The switch-level Topology of IBFT(m, n) for the simulator's elaborator:
// the same switch ids and node ids (PIDs), IB port k as switch port k - 1.
Topology fat_tree_topology(const FatTree& t);

// The FatTree a Topology is, or nothing: m is its ports per switch, n is
// found from its switch and node counts, and every port must be wired as
// fat_tree_topology(FatTree(m, n)) wires it.
std::optional<FatTree> recognise_fat_tree(const Topology& t);

}  // namespace wormcast::topo
