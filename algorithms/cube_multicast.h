// Unicast-based multicast planners for wormhole-routed hypercubes with E-cube
// routing (seed001 Chapter 3; spec/seed001.md §2, §3, §4.1, §7.1, §7.4):
// U-cube, Maxport, Combine (Algorithm 1, Fig. 3.5, steps 4a/4b/4c) and W-sort
// (dimension-ordered chain, then WeightedSort of Fig. 3.8, then Maxport).
//
// Every member runs the same local procedure, cube_local_sends(), on the
// address field it received (its own address first); nothing else travels
// with the message, so the simulated hosts call exactly that function.
// plan_cube_multicast() unrolls the whole tree at once for the analytical
// step model and for `wormcast plan`.
//
// Chains are relative (§7.4): the source and destinations are sorted on
// d XOR source and carried as absolute addresses in that order; δ is
// XOR-invariant, so Algorithm 1 runs on absolute addresses, while
// WeightedSort/CubeCenter test bits of the relative address because
// S-cubes are defined in relative space.
//
// Steps (§7.1): a member that received in step t (the source: t = 0) issues
// its sends in loop order. One-port: one send per step. All-port: the
// thesis only fixes that one channel carries one send per step and that
// different channels may be used in the same step; model A (per-channel
// queue, the default) and model B (in-order issue) are both consistent with
// that, and both are offered.
#pragma once

#include <string>
#include <vector>

#include "topologies/topology.h"

namespace wormcast::algo {

enum class CubeVariant { ucube, maxport, combine, wsort };  // Algorithm 1 step 4a/4b/4c; wsort = WeightedSort then Maxport
enum class CubePorts { one_port, all_port };
enum class CubeSteps { per_channel_queue, in_order_issue };  // seed001 §7.1 models (A) default and (B)

// "ucube", "maxport", "combine", "wsort".
const char* to_string(CubeVariant v);

// δ(u, v): highest differing bit (Definition 3.2). Throws std::invalid_argument if u == v or either is negative.
int cube_delta(topo::NodeId u, topo::NodeId v);

// The E-cube path P(u, v) of Definition 3.1 (highest differing bit first), u first and v last; {u} if u == v.
// Throws std::invalid_argument for n outside 1..30 or a node outside 0..2^n-1.
std::vector<topo::NodeId> cube_ecube_path(int n, topo::NodeId u, topo::NodeId v);

// Definition 3.5: the members of every S-cube are contiguous in the chain. False also when an address is outside
// 0..2^n-1. XOR with a constant maps S-cubes onto S-cubes, so a relative chain may be checked on its absolute
// addresses. Throws std::invalid_argument for n outside 1..30.
bool is_cube_ordered(const std::vector<topo::NodeId>& chain, int n);

// The source followed by the destinations as a d0-relative dimension-ordered chain (sorted ascending on d XOR source),
// and for wsort then WeightedSort (Fig. 3.8) with CubeCenter on relative addresses (§7.4). Throws std::invalid_argument
// (message naming the node) for n < 1 or n > 30, a node outside 0..2^n-1, a duplicate destination, the source listed as a
// destination, or no destinations.
std::vector<topo::NodeId> cube_chain(int n, topo::NodeId source, const std::vector<topo::NodeId>& dests, CubeVariant v);

// WeightedSort(D, 0, m, n) of Fig. 3.8 on a relative dimension-ordered chain (chain[0] = source), in place.
// Any cube-ordered chain with the source first is accepted (Theorem 3.5's precondition); a chain that is not
// cube-ordered, a node outside 0..2^n-1, a repeated node, an empty chain or n outside 1..30 throws
// std::invalid_argument.
void weighted_sort(std::vector<topo::NodeId>& chain, int n);

// Algorithm 1 (Fig. 3.5) at one node: field = {d_left..d_right} with field[0] the node itself; its sends in loop order.
// wsort uses the Maxport rule (4b). The field of each send is D = {d_next..d_right}.
// A field of one node (a leaf) gives no sends. Throws std::invalid_argument for an empty field, a negative address,
// or the node's own address repeated in its field.
struct CubeSend { topo::NodeId to = -1; int dimension = -1; /* δ(self,to): the outgoing channel under E-cube */ std::vector<topo::NodeId> field; };
std::vector<CubeSend> cube_local_sends(const std::vector<topo::NodeId>& field, CubeVariant v);

// The step of each of one node's sends (in loop order), for a node that received in step receive_step (§7.1):
// one_port: receive_step + i for the i-th send; all_port model A: receive_step + 1 + (earlier sends on the same
// dimension); model B: starts at receive_step + 1 and advances by one whenever a dimension is re-used within the
// current step. Throws std::invalid_argument for a negative receive_step or a send without a dimension.
std::vector<int> cube_send_steps(const std::vector<CubeSend>& sends, int receive_step, CubePorts ports,
                                 CubeSteps model = CubeSteps::per_channel_queue);

// The whole multicast: every unicast with its analytical step. Step rule: a node that received in step t (source: t = 0)
// issues its sends in loop order; one_port: one send per step, the i-th (1-based) in step t + i; all_port model A:
// step = t + 1 + (number of this node's earlier sends on the same dimension); model B: in-order issue, the step advances
// when a channel is re-used within the current step (§7.1). steps = the largest step (0 never: there is a destination).
// order: 1-based position of this send in the sender's loop (Algorithm 1 iteration), the order its processor
// issues it in; under all-port model A a later send can get an earlier step, so the step alone does not give it.
struct CubeUnicast { topo::NodeId sender = -1, receiver = -1; int step = 0; int dimension = -1; std::vector<topo::NodeId> field; int order = 0; };
// unicasts: sorted by step; within a step, senders in the order the tree reaches them (breadth-first from the
// source, each node's sends in loop order), each sender's sends in its loop order (a stable sort).
struct CubePlan { std::vector<topo::NodeId> chain; int steps = 0; std::vector<CubeUnicast> unicasts; /* sorted by step, then sender's loop order; stable */ };
CubePlan plan_cube_multicast(int n, topo::NodeId source, const std::vector<topo::NodeId>& dests, CubeVariant v,
                             CubePorts ports = CubePorts::all_port, CubeSteps model = CubeSteps::per_channel_queue);

// Stepwise contention rules of §7.9 on a plan in an n-cube: (1) no node sends twice in one step on one dimension;
// (2) no two unicasts of one step share a directed channel of their E-cube paths. Also reported: a unicast whose
// dimension is not δ(sender, receiver). Human-readable violations with nodes as n-bit strings; empty = ok.
// Throws std::invalid_argument for n outside 1..30, a node outside 0..2^n-1, or a unicast to its own sender.
std::vector<std::string> cube_contention(const CubePlan& plan, int n);

// Theorem 3.3 (depth contention): every pair of unicasts (u,v,t), (x,y,τ) with t <= τ (either labelling when
// t = τ) must satisfy one of: (1) arc-disjoint E-cube paths; (2) x = u; (3) x ∈ R_v; (4) x ∈ R_w for a unicast
// (u,w,t+k), k > 0, "node u sends the message to v prior to sending it to node w". Condition 4 has two readings:
//  * loop_order (default): u issues the send to w after the one to v (a larger `order`). This is the proof's
//    argument (v's message leaves u first, x sends only after w has received), and the reading under which
//    the thesis' "all the algorithms are depth-contention free" holds for U-cube on all-port nodes too
//    (checked on random sets in the tests);
//  * later_step: the literal t + k with k > 0 on the plan's steps. Maxport and W-sort satisfy even this
//    (Theorem 3.6's proof needs only conditions 1-3), and so does Combine on the tested sets; all-port
//    U-cube does not always (two sends of one node on different channels share a step).
// Also reported: a node received more than once, or a sender that never received. O(unicasts² · n): a check for
// tests and diagnostics, not for large runs. Same throws as cube_contention, and for loop_order a unicast whose
// order is < 1 or repeats among its sender's sends.
enum class CubeDepthRule { loop_order, later_step };
std::vector<std::string> cube_depth_contention(const CubePlan& plan, int n,
                                               CubeDepthRule rule = CubeDepthRule::loop_order);

}  // namespace wormcast::algo
