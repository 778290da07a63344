// Multicast on an SCI torus without multi-destination worms (seed004, Oral &
// George; spec/seed002_004.md, seed 004 §2, §6): the five algorithms of the
// Wulfkit testbed, every one made of unicasts relayed store-and-forward by
// the hosts (a relay receives the whole message, then sends it on):
//  * separate addressing: the root sends to every destination in turn (Φ′);
//  * U-torus: recursive halving (Eq. 1) on Φ′, the group in dimension order
//    (lexicographic, highest dimension first) rotated to the root;
//  * S-torus: one chain through Θ′, the group ordered by Eq. 2's Hamiltonian
//    cycle labels and rotated to the root;
//  * M_d-torus: the root sends to the head of every other ringlet (2D: row),
//    each head then chains through its ringlet (in 3D first planes, then
//    ringlets per plane);
//  * M_u-torus(r): Θ′ cut into consecutive chunks (of r when d <= r²), the
//    root sends to every other chunk's head, each head chains through its
//    chunk; for larger groups the chunks have r^(L-1) nodes, L = ⌈log_r d⌉,
//    and each chunk head applies the rule again (⌈log_r d⌉ phases).
//
// As elsewhere in algorithms/ (docs/design.md principle 1), every node runs a
// local rule on what it received (sci_local_sends on its field: the nodes it
// is responsible for, itself first); plan_sci unrolls the multicast from
// those rules for `wormcast plan`, the tests and the step-model metrics.
//
// Node coordinates: the paper writes (row, col), 1-based, with σ_1 = row and
// σ_0 = col; the network names nodes (σ_1,σ_0), 0-based, so the paper's
// (2,2) is node "(1,1)".
#pragma once

#include <string>
#include <vector>

#include "topologies/direct_routing.h"
#include "topologies/direct_topology.h"

namespace wormcast::algo {

enum class SciScheme { separate, utorus, storus, mdtorus, mutorus };
// "separate", "utorus", "storus", "mdtorus", "mutorus".
const char* to_string(SciScheme s);

// Φ′ (§2.2): root and destinations sorted in dimension order (lexicographic
// by (σ_{n-1}, ..., σ_0)), rotated so the root is first.
std::vector<topo::NodeId> sci_dimension_order(const topo::DirectTopology& t, topo::NodeId root,
                                              const std::vector<topo::NodeId>& dests);
// Eq. 2 on 1-based coordinates s_j = σ_j(u) + 1, for an n-dimensional
// k-ary torus: ℓ(u) = Σ_{i<n-1} k^i · ((Σ_{j>=i} s_j) mod k) + k^(n-1)·s_{n-1};
// for n = 2 exactly the paper's [(s_0 + s_1) mod k] + k·s_1. Consecutive
// labels move +1 along dimension 0, and from the end of a ringlet +1 in the
// next dimension. Throws std::invalid_argument for a topology that is not a
// regular torus.
long long sci_cycle_label(const topo::DirectTopology& t, topo::NodeId u);
// Θ′ (§2.3): root and destinations sorted by ℓ ascending, rotated so the root
// is first. Throws as sci_cycle_label.
std::vector<topo::NodeId> sci_cycle_order(const topo::DirectTopology& t, topo::NodeId root,
                                          const std::vector<topo::NodeId>& dests);
// The order a scheme works on: Φ′ for separate addressing and U-torus, Θ′
// for the path-based three. Also checks the group: valid nodes, no
// duplicates, the root not a destination, at least one destination, and the
// topology (a torus; regular for Θ′); std::invalid_argument otherwise.
std::vector<topo::NodeId> sci_group_order(const topo::DirectTopology& t, SciScheme s, topo::NodeId root,
                                          const std::vector<topo::NodeId>& dests);

// One send of a node's local rule: the receiver `to` becomes responsible for
// `field` (to first). `level` counts the node's own recursion: 1 for its
// first partitioning (or its chain when it has nothing to partition), +1 per
// level deeper; `chain` marks a chain hop (to = field's successor of the
// sender, field = the rest of the chain), which continues the phase it was
// received in.
struct SciSend {
  topo::NodeId to = -1;
  std::vector<topo::NodeId> field;
  int level = 1;
  bool chain = false;
};
// The scheme's rule at a node holding `field` (itself first, in the scheme's
// order), in sending order. A field of one node sends nothing. r is used by
// mutorus only (>= 2, else std::invalid_argument naming r). Throws
// std::invalid_argument for an empty field.
std::vector<SciSend> sci_local_sends(const topo::DirectTopology& t, SciScheme s, int r,
                                     const std::vector<topo::NodeId>& field);

struct SciUnicast {
  topo::NodeId sender = -1, receiver = -1;
  int step = 0;    // one-port logical step: a node's i-th send goes out i steps after it received (root: step 0)
  int phase = 0;   // partitioning phase (M_d, M_u: 1 = to partition heads; a chain keeps its phase)
  std::vector<topo::NodeId> field;
};
struct SciPlan {
  SciScheme scheme = SciScheme::separate;
  int r = 0;                          // mutorus only
  std::vector<topo::NodeId> order;    // Φ′ or Θ′, root first
  int steps = 0, phases = 0;
  std::vector<SciUnicast> unicasts;   // by step, then by the sender's position in `order`
};
// The whole multicast, unrolled from sci_local_sends breadth-first from the
// root. Throws as sci_group_order and sci_local_sends.
SciPlan plan_sci(const topo::DirectTopology& t, SciScheme s, topo::NodeId root, const std::vector<topo::NodeId>& dests,
                 int r = 4);

// §1's link metrics on the plan's routes (routing: the testbed's dimension
// order, X then Y = DimOrder::ascending), and the step model's concurrency:
// link_visits = Σ route lengths, used_links = distinct directed links,
// utilization = visits / used (>= 1), concurrency = the most unicasts in one
// step, root_targets = distinct nodes the root sends to (§6: start-up
// latency = set-up cost × root_targets).
struct SciLinkUse {
  int link_visits = 0, used_links = 0, concurrency = 0, root_targets = 0;
  double utilization = 0.0;
};
SciLinkUse sci_link_use(const topo::DirectRouting& routing, const SciPlan& p);

// Checks: every destination receives exactly once, nothing else does; a
// sender received in an earlier step (the root: step 0); one send per node
// per step; each field starts with its receiver and the fields a node sends
// are disjoint parts of what it holds; steps and phases are the largest.
// Human-readable, nodes by name; empty = ok.
std::vector<std::string> sci_violations(const topo::DirectTopology& t, const SciPlan& p);

}  // namespace wormcast::algo
