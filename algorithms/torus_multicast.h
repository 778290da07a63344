// Multicast planners for wormhole-routed k-ary n-cube tori (seed001, Robinson
// Chapters 4-6; spec/seed001.md §2, §3, §4.2-§4.4, §7.5, §7.8, §7.9):
//
//  * U-torus (Ch. 4, Fig. 4.9): one-port, unicast-based recursive halving on
//    the R-chain (the dimension-ordered chain rotated to the source, Def.
//    4.4), routed by UTR on unidirectional and BTR on bidirectional tori;
//    ⌈log2 m⌉ steps and stepwise contention-free (Theorem 4.4).
//  * Path-based multicast with intermediate reception (Ch. 5/6) on regular
//    unidirectional tori under UTPR: the ℋ-cycle of Fig. 5.8, linear
//    partitionings (Def. 6.1-6.3) and the M-torus recursion of Fig. 6.1 in
//    its instances S-torus (one worm), M_d-torus (dimensional) and
//    M_u-torus(r) (uniform; r = 2 is the unicast-based scheme of Sec. 6.6).
//
// As in cube_multicast.h, every member runs a local rule on what it received
// (utorus_local_sends on its address field; mtorus_local_worms on the
// compound-header block Φ̃ it got, itself first), and the plan_* functions
// unroll the whole multicast from those rules for the step model, `wormcast
// plan` and tests. The *_violations checkers are the §7.9 checks.
//
// Choices where the spec leaves room (documented in the functions below):
//  * §7.5: a dimensional partitioning also starts a new part where the cycle
//    wraps round ℋ (label descent), so a tail run of the sender's own
//    sub-torus is its own part;
//  * §7.8: the first m mod r parts of a uniform partitioning get ⌈m/r⌉;
//  * M_d keeps the phase numbering of Sec. 6.3 (level j uses order n-j), so a
//    level whose partition does not split sends nothing and the plan has at
//    most n phases, possibly with empty ones.
#pragma once

#include <string>
#include <vector>

#include "algorithms/compound_header.h"
#include "topologies/direct_routing.h"
#include "topologies/direct_topology.h"

namespace wormcast::algo {

// ---- U-torus (Fig. 4.9), one-port, unicast-based, on the R-chain (dimension_ordered_chain) ----
struct TorusSend { topo::NodeId to = -1; std::vector<topo::NodeId> field; /* D = {d_center..d_right} */ };
// The U-torus loop at one node: field[0] is the node itself; its sends in loop order (center = left + ceil((right-left+1)/2)).
// A field of one node (a leaf) gives no sends. Throws std::invalid_argument for an empty field.
std::vector<TorusSend> utorus_local_sends(const std::vector<topo::NodeId>& field);
struct TorusUnicast { topo::NodeId sender = -1, receiver = -1; int step = 0; std::vector<topo::NodeId> field; };
struct UTorusPlan { std::vector<topo::NodeId> chain; int steps = 0; std::vector<TorusUnicast> unicasts; /* by step, then sender loop order */ };
// One-port step rule: a node that received in step t (source 0) sends its i-th (1-based) message in step t + i.
// unicasts: sorted by step; within a step by the sender's position in the chain (a node sends at most once per step).
// Throws std::invalid_argument for a topology that is not a torus (meshes and hypercubes refused, naming the spec), bad/duplicate nodes, the source as destination, no destinations.
UTorusPlan plan_utorus(const topo::DirectTopology& t, topo::NodeId source, const std::vector<topo::NodeId>& dests);

// Theorem 4.1 (depth contention, [19]) on a U-torus-style plan routed by r: every pair of unicasts (u,v,t),
// (x,y,τ) with t <= τ (either labelling when t = τ) must satisfy one of: (1) x ∈ R_v (the field v received);
// (2) their routes share no virtual channel (channel and VC class); (3) x = u; (4) x ∈ R_w for a unicast
// (u,w,t+i), i > 0. A pair satisfying none may overlap in time on a VC when startup latencies stagger the steps
// (Fig. 4.5(b)). Human-readable, one line per pair, nodes by name; empty = depth contention-free. Unicasts the
// network cannot route are skipped (utorus_violations reports them). O(unicasts² · hops): for tests and
// diagnostics.
std::vector<std::string> utorus_depth_contention(const topo::DirectRouting& r, const UTorusPlan& plan);

// Checks of §7.9 / Theorem 4.4 on a U-torus plan routed by r (UTR or BTR): every chain member but the source receives
// exactly once and nothing else does; a sender has received in an earlier step (the source: step 0); the field starts
// with its receiver; one send per node per step (one-port); steps is the largest step; and no two unicasts of the same
// step use the same virtual channel (channel and VC class) on their routes. Human-readable, nodes by name; empty = ok.
std::vector<std::string> utorus_violations(const topo::DirectRouting& r, const UTorusPlan& plan);

// ---- path-based, UTPR (Ch. 5/6) on regular unidirectional tori ----
// Fig. 5.8: sort source and destinations by label ℓ ascending, rotate so the source is first (the ℋ-cycle). `utpr` must
// be a DirectRouting with RoutingAlgorithm::utpr (else std::invalid_argument). Also throws for bad/duplicate nodes, the
// source as destination, no destinations.
std::vector<topo::NodeId> h_cycle(const topo::DirectRouting& utpr, topo::NodeId source, const std::vector<topo::NodeId>& dests);

// True if `seq` is an ℋ-cycle (Def. 5.3): non-empty, valid distinct nodes whose labels ascend except for at most one
// wrap, after which they stay below ℓ(seq[0]).
bool is_h_cycle(const topo::DirectRouting& utpr, const std::vector<topo::NodeId>& seq);

enum class MTorusPartition { single /* S-torus */, dimensional /* M_d-torus */, uniform /* M_u-torus(r); r = 2 is the unicast-based scheme of Sec. 6.6 */ };
// "storus", "mdtorus", "mutorus".
const char* to_string(MTorusPartition p);

// A linear partitioning (Definition 6.1) of ℋ-cycle `cycle` (cycle[0] the sender): dimensional of order `order_or_r`
// (Definition 6.2, with §7.5's rule: a tail run of the sender's own sub-torus is its own partition), or uniform of size
// `order_or_r` (Definition 6.3, §7.8: the first m mod r parts get ceil(m/r); m < r gives m single parts). single: every
// node its own part.
// Parts are in cycle order and concatenate to `cycle`. A part that does not split (one node, or all of a dimensional
// partitioning's nodes in one sub-torus without a wrap) comes back as one part, which Def. 6.1 would not call a
// partitioning: the M-torus rule then sends nothing at that level.
// Throws std::invalid_argument for a routing that is not UTPR, a `cycle` that is not an ℋ-cycle, an order outside
// 0..n-1 (dimensional) or r < 2 (uniform).
std::vector<std::vector<topo::NodeId>> linear_partition(const topo::DirectRouting& utpr, const std::vector<topo::NodeId>& cycle, MTorusPartition p, int order_or_r);

// One multi-destination worm of an M-torus multicast: its destinations in visiting order (the heads u_{i,0} of the other
// partitions), each with the list of nodes it is then responsible for (CompoundBlock::later = Φ_i without its head).
struct MTorusWorm { topo::NodeId sender = -1; int phase = 0; std::vector<CompoundBlock> blocks; };
struct MTorusPlan { std::vector<topo::NodeId> cycle; int phases = 0; std::vector<MTorusWorm> worms; /* by phase, then sender order along the cycle */ };

// The destinations of a worm in visiting order (what route_path takes).
std::vector<topo::NodeId> worm_destinations(const MTorusWorm& w);

// The M-torus rule (Fig. 6.1) at one node: `part` is the ℋ-cycle it is responsible for, itself first (the source: the
// whole cycle; a receiver: its block's dest followed by its later list), received in phase `received_phase` (0 for the
// source). Returns its worms in sending order, each with its phase: level j = received_phase + 1, +2, ... partitions
// what is left of the part and sends one worm to the heads of all parts but its own; M_d uses order max(n - j, 0) and
// sends nothing at a level that does not split; M_u(r) partitions into r; single sends one worm to every other node.
// Throws as linear_partition (and for received_phase < 0).
std::vector<MTorusWorm> mtorus_local_worms(const topo::DirectRouting& utpr, const std::vector<topo::NodeId>& part,
                                           MTorusPartition p, int r, int received_phase);

// Fig. 6.1 recursively. Phase = recursion level (the source's first worm is phase 1; a node that receives in phase p and
// every sender continuing with its own part run level p+1). M_d: level j uses a dimensional partitioning of order n-j; a
// level at which the node's part does not split sends nothing (phase numbering is kept, so the scheme has at most n phases).
// M_u(r): r >= 2 (else std::invalid_argument naming r), ceil(log_r m) phases for m = |Φ| nodes including the source.
// S-torus: one worm with every destination, phase 1. Throws std::invalid_argument for a topology that is not a regular
// unidirectional torus (or a routing that is not UTPR), bad/duplicate nodes, the source as destination, no destinations.
// phases = the largest phase of any worm.
MTorusPlan plan_mtorus(const topo::DirectRouting& utpr, topo::NodeId source, const std::vector<topo::NodeId>& dests, MTorusPartition p, int r = 2);

// Checks of §7.9 / Theorem 6.1 on an M-torus plan: the cycle is an ℋ-cycle; every destination covered exactly once
// (and nothing else); a sender has received in an earlier phase; each worm splits what its sender still holds as a
// linear partitioning (its part = the part it keeps ‖ each block's {dest} ∪ later, in order); sub-problems never share
// nodes (the ranges of Theorem 6.1's proof of the kept part and the blocks are pairwise disjoint, and every node a worm
// visits lies in the range of its sender's part); every worm's UTPR path (route_path from the sender through its
// destinations in order) crosses at most one boundary, never revisits a node, and each segment u->v has the minimal
// length Σ_d (σ_d(v) - σ_d(u)) mod k; phases is the largest phase. Human-readable; empty = ok. Throws
// std::invalid_argument for a routing that is not UTPR.
std::vector<std::string> mtorus_violations(const topo::DirectRouting& utpr, const MTorusPlan& plan);

}  // namespace wormcast::algo
