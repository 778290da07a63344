// Hardware multicast in fat-tree InfiniBand networks (seed003: Zhou, Lin,
// Chung 2007; spec/seed002_004.md, SEED 003 §3-§9) on IBFT(m, n)
// (topologies/fat_tree.h), as plain C++ for the simulator, `wormcast plan`
// and tests:
//
//  * §3: gcp / lca / rank (Defs. 1, 2, 4);
//  * §4: the addressing scheme, 2^LMC = h^(n-1) LIDs per node,
//    BaseLID = 2^LMC·PID + 1;
//  * §5: cyclic path selection, the DLID a source uses for a destination;
//  * §6: the unicast linear forwarding tables (LFT), Eqs. 1-2, and the route
//    a packet takes through them;
//  * §7: the cyclic multicast forwarding table of a (source, group) pair, the
//    union of the LFT ports of the destinations' cyclic DLIDs;
//  * §8: the OpenSM baseline (supplementary description of osm_mcast_mgr.c):
//    root switch and branch recursion, one shared tree per group;
//  * §9: the unicast baseline (one cyclic-DLID unicast per destination).
//
// Forwarding semantics of a multicast table (IBA, §1 [A]): a switch sends a
// copy to every port of its entry except the arrival port; a switch without
// an entry drops the packet. deliver_mft() plays that out and
// ib_mft_violations() checks the result (§7 [D]: exactly once, nothing to
// anybody else, every switch at most once).
//
// Choices where the spec leaves room:
//  * OpenSM's "GUID order" for root ties is the switch id order of FatTree;
//  * link_traversals counts every link a copy crosses, the source's
//    injection link included, so a tree of E links gives E;
//  * lids_per_node() does not check the LIDs against IBA's unicast range
//    (0x0001-0xBFFF); IBFT(16,3) would need LIDs up to 65536.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "topologies/fat_tree.h"

namespace wormcast::algo {

// ---- §3 definitions ----
// α = |gcp(P(a), P(b))| (Def. 1): the number of leading label digits a and b share (n when a == b).
int gcp_length(const topo::FatTree& t, topo::NodeId a, topo::NodeId b);
// lca(P(a), P(b)) (Def. 2): the level-α switches whose w starts with the common prefix, as sorted switch
// ids. Throws std::invalid_argument for a == b (no switch level n) or a bad node.
std::vector<int> lca_switches(const topo::FatTree& t, topo::NodeId a, topo::NodeId b);
// rank(gcp_g(p_0..p_{α-1}, α), P(p)) = Σ_{i=α}^{n-1} p_i h^(n-1-i) (Def. 4); alpha = 0 gives the PID,
// alpha = n gives 0. Throws std::invalid_argument for alpha outside 0..n or a bad node.
int rank_in_group(const topo::FatTree& t, topo::NodeId node, int alpha);

// ---- §4 addressing ----
// 2^LMC = h^(n-1). Throws std::invalid_argument naming m and n when h is not a power of two or
// h^(n-1) > 128 (LMC is a 3-bit field).
int lids_per_node(const topo::FatTree& t);
int base_lid(const topo::FatTree& t, topo::NodeId node);   // 2^LMC·PID + 1
// The node whose LIDset holds lid; throws std::invalid_argument for a lid outside 1..num_nodes·2^LMC.
topo::NodeId lid_owner(const topo::FatTree& t, int lid);

// ---- §5 cyclic path selection ----
// BaseLID(dst) + rank(gcp_g(src_0..src_l, l+1), P(src)) with l = gcp_length(src, dst), the lca level.
// Throws std::invalid_argument for src == dst or a bad node.
int cyclic_dlid(const topo::FatTree& t, topo::NodeId src, topo::NodeId dst);

// ---- §6 unicast forwarding ----
// The LFT output port of switch sw for lid: Case 1 (owner below: w_0..w_{l-1} = p_0..p_{l-1}, always at
// level 0) k = p_l + 1 (Eq. 1); Case 2 k = (⌊(lid-1)/h^(n-1-l)⌋ mod h) + h + 1 (Eq. 2).
int lft_port(const topo::FatTree& t, int sw, int lid);

struct IbHop {
  int sw = -1;
  int in_port = 0;
  int out_port = 0;
  bool operator==(const IbHop& o) const { return sw == o.sw && in_port == o.in_port && out_port == o.out_port; }
};
// The hops of a packet injected by src with DLID dlid, from src's leaf switch (in_port = its leaf port) to
// the node owning dlid, following lft_port() and FatTree::peer(). dlid may belong to src itself (one hop
// back out the arrival port). Throws std::logic_error when the route takes more than 2n hops or reaches
// another node; std::invalid_argument for a bad src or dlid.
std::vector<IbHop> trace_unicast(const topo::FatTree& t, topo::NodeId src, int dlid);
// §9: trace_unicast(src, cyclic_dlid(src, d)) for each d of dests, in order. Dests as for cyclic_mft().
std::vector<std::vector<IbHop>> unicast_routes(const topo::FatTree& t, topo::NodeId src,
                                               const std::vector<topo::NodeId>& dests);

// ---- §7 multicast forwarding tables ----
using Mft = std::map<int, std::vector<int>>;   // switch id -> sorted output ports

// The table of the (src, dests) pair: per switch, the union of the output ports on the routes of the
// destinations' cyclic DLIDs. Throws std::invalid_argument for a bad source, no destinations, or a
// destination that is invalid, listed twice or the source.
Mft cyclic_mft(const topo::FatTree& t, topo::NodeId src, const std::vector<topo::NodeId>& dests);

struct MftDelivery {
  std::vector<int> received;        // per node: copies received
  std::vector<int> switch_visits;   // per switch: copies that arrived
  int link_traversals = 0;          // links crossed, injection link included
};
// Injects one packet of src at its leaf switch (arrival port = src's leaf port) and floods it through the
// table: each switch copies it to every port of its entry except the arrival port; a switch without an
// entry drops it; a node counts one reception. Throws std::invalid_argument for a bad src or a table with
// a bad switch or port, std::logic_error after num_switches()·m forwards (a loop).
MftDelivery deliver_mft(const topo::FatTree& t, topo::NodeId src, const Mft& mft);

// Human-readable problems (empty = ok) of delivering src's packet through mft to dests: a destination
// not receiving exactly once, another node (the source included) receiving anything, a switch visited
// more than once, a table deliver_mft() rejects or that loops. Dests as for cyclic_mft().
std::vector<std::string> ib_mft_violations(const topo::FatTree& t, topo::NodeId src,
                                           const std::vector<topo::NodeId>& dests, const Mft& mft);

// ---- §8 OpenSM baseline ----
// Least hop counts over the switch graph from switch sw to every switch (BFS).
std::vector<int> switch_hops_from(const topo::FatTree& t, int sw);
// The root switch: minimum over switches of the maximum over members of (least hops to the member's leaf
// switch + 1); ties go to the lowest switch id. Throws std::invalid_argument for no members or a bad or
// repeated member.
int opensm_root(const topo::FatTree& t, const std::vector<topo::NodeId>& members);
// The group's one shared tree: from the root, Branch(sw, members, upstream) sends each member to the
// first (lowest-numbered) port with the least hop count (its own port at its leaf switch), sets the bits of
// the used ports and, except at the root, of the upstream port, and recurses into each neighbour switch
// with its members. Any member (or a sender joined to the group) then sends with deliver_mft().
Mft opensm_mft(const topo::FatTree& t, const std::vector<topo::NodeId>& members);

// The table without the ports that lead to none of `keep`: a node port is
// kept only for a node of `keep`, a switch port only when a node of `keep`
// lies beyond it through the table's tree; a switch left without ports loses
// its entry. Every packet that enters at a switch still in the table (a
// sender's leaf switch on the tree) reaches the nodes of `keep` it reached
// before, and no copy goes toward a branch without one. Throws
// std::invalid_argument for a bad or repeated node of `keep` or a table
// deliver_mft() would reject, std::logic_error for a table that is not a tree.
Mft prune_mft(const topo::FatTree& t, const Mft& mft, const std::vector<topo::NodeId>& keep);

}  // namespace wormcast::algo
