// Deterministic routing on the direct networks of direct_topology.h, with the
// virtual-channel classes of seed001 §1.3 and §1.5 (Robinson):
//   dor   dimension-ordered routing on meshes (and hypercubes), one VC;
//   ecube E-cube on hypercubes (Definition 3.1), one VC;
//   utr   unidirectional torus routing, classes p and h (Eq. 4.1);
//   btr   bidirectional torus routing, classes p, l and h (Eq. 4.2; a tie of
//         exactly k/2 hops takes the path without the wrap-around, §7.3);
//   utpr  unidirectional torus path-based routing, classes p and h (Eq. 5.3,
//         boundaries by Lemma 5.7, ℋ labels by Eq. 5.2); needs the class of
//         the arriving VC, and a multi-destination worm keeps it across
//         intermediate destinations (Fig. 5.10);
//   dateline  dimension-ordered routing on bidirectional tori with two
//         classes dl0 and dl1 (BookSim2's deterministic dim_order_torus):
//         shortest way round each ring (a tie of exactly k/2 hops takes the
//         path without the wrap-around, as btr), and on entering a dimension
//         the worm takes dl1 if its route in that dimension crosses the
//         wrap-around link (the "dateline"), else dl0, and keeps that class
//         until it leaves the dimension. Deadlock-free because a wrapping
//         shortest route is at most ⌈k/2⌉-1 hops long (check_direct_routing
//         verifies it); refused on unidirectional tori, where wrapping routes
//         are up to k-1 hops long and dl1 alone would form a cycle (use utr,
//         which changes class at the wrap).
// dor, ecube, utr, btr and dateline resolve the highest differing dimension first, as
// the thesis does; DimOrder::ascending gives the nCUBE-2 / SCI order.
// A deliberately deadlock-prone routing (single-VC dimension order on a
// unidirectional torus, Fig. 2.4) exists only so tests can show that the
// checker finds its dependency cycle.
//
// next_hop() is what a router evaluates per header flit: no allocation, a
// few divisions. route() and route_path() expand whole paths for tests and
// `wormcast plan`.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "topologies/direct_topology.h"

namespace wormcast::topo {

enum class RoutingAlgorithm { dor, ecube, utr, btr, utpr, broken_single_vc_ring, dateline };
enum class DimOrder { descending, ascending };

// Virtual-channel classes. `single` is the only class of one-VC routings.
// `local` is not a network VC: it marks a header injected by the local
// processor (UTPR treats it as 'p', Fig. 5.10). dl0 / dl1 are the dateline
// routing's classes (route in the dimension without / across the wrap).
enum class VcClass : std::uint8_t { p = 0, l = 1, h = 2, single = 3, local = 4, dl0 = 5, dl1 = 6 };
// How many VcClass values there are (0 .. kVcClassCount - 1), for tables indexed by class.
inline constexpr int kVcClassCount = static_cast<int>(VcClass::dl1) + 1;
// The classes a channel can carry (every class but `local`), in index order.
inline constexpr VcClass kChannelClasses[] = {VcClass::p,      VcClass::l,   VcClass::h,
                                              VcClass::single, VcClass::dl0, VcClass::dl1};

// Small set of classes present on one channel.
struct VcSet {
  std::uint8_t bits = 0;
  bool contains(VcClass c) const { return bits & (1u << static_cast<unsigned>(c)); }
  void add(VcClass c) { bits |= static_cast<std::uint8_t>(1u << static_cast<unsigned>(c)); }
  bool empty() const { return bits == 0; }
  bool operator==(const VcSet& o) const { return bits == o.bits; }
};

// Decision at one router. arrived: the header is at its destination (eject).
struct DirectHop {
  bool arrived = false;
  int dim = -1;
  Direction dir = Direction::plus;
  VcClass vc = VcClass::single;
};

// One hop of an expanded route: leave `node` on (dim, dir) using class vc.
struct RouteHop {
  NodeId node = -1;
  int dim = -1;
  Direction dir = Direction::plus;
  VcClass vc = VcClass::single;
  NodeId next = -1;
};

// A node's own coordinates, computed once (DirectRouting::here): a router
// routes every header at its own node, so next_hop(const Here&, ...) divides
// only the destination's address, not its own as well. Networks of more
// than kDims dimensions (large hypercubes) keep the plain next_hop.
struct Here {
  static constexpr int kDims = 4;
  NodeId at = -1;
  bool cached = false;                  // sigma holds σ_d(at) (at most kDims dimensions)
  std::array<std::int32_t, kDims> sigma{};
};

class DirectRouting {
 public:
  // Throws TopologyError when the routing does not fit the network: dor on a
  // torus, ecube on a non-hypercube, utr or utpr on a bidirectional torus or
  // a mesh, btr on a unidirectional torus or a mesh, utpr on a non-regular
  // torus (Eq. 5.2 with mixed radices is no Hamiltonian cycle in general,
  // e.g. torus:4x3:uni; the thesis defines ℋ for k-ary n-cubes) or with
  // DimOrder::ascending (Eq. 5.3 fixes its own dimension choice).
  DirectRouting(const DirectTopology& t, RoutingAlgorithm a, DimOrder order = DimOrder::descending);

  const DirectTopology& topology() const { return topo_; }
  RoutingAlgorithm algorithm() const { return algo_; }
  DimOrder order() const { return order_; }

  // Number of VC classes the routing needs (1, 2 or 3), the index
  // 0..num_vcs()-1 of a class (-1 if the routing does not use it) and its
  // inverse. A router with m * num_vcs() VCs per channel gives class index
  // i the VCs [i*m, (i+1)*m) (docs/direct_networks.md).
  int num_vcs() const;
  int vc_index(VcClass c) const;
  VcClass class_at(int index) const;
  // VCs per class with `vcs` VCs per channel (router.vcs; 0 = one per
  // class): vcs / num_vcs(), or 0 when vcs is negative or not a multiple.
  int vcs_per_class(int vcs) const {
    if (vcs == 0) return 1;
    return vcs > 0 && vcs % num_vcs() == 0 ? vcs / num_vcs() : 0;
  }
  // Classes present on channel (x, d, dir): UTR has no h on the wrap and no
  // p out of coordinate 0; BTR puts only p on wraps and p only where a
  // wrapping message can be; UTPR has only h on boundary links. Empty when
  // the physical channel does not exist.
  VcSet vc_classes(NodeId x, int d, Direction dir) const;

  // The routing function: at node `at`, header for `dst`, having arrived on
  // class `in` (VcClass::local when injected here) through input port
  // `in_port` (DirectTopology::port_index of the channel it came along; -1
  // when injected, or for a fresh decision at an intermediate destination).
  // Only dateline looks at in_port: it keeps its class while the worm goes
  // on in the same dimension and direction. Never returns a class that
  // vc_classes() does not list for the chosen channel.
  DirectHop next_hop(NodeId at, NodeId dst, VcClass in = VcClass::local, int in_port = -1) const;
  // The same decision at node h.at (h = here(h.at)), without dividing h.at.
  Here here(NodeId at) const;
  DirectHop next_hop(const Here& h, NodeId dst, VcClass in = VcClass::local, int in_port = -1) const;

  // Whole route src -> dst (empty when src == dst). Throws TopologyError on a
  // node id outside the network (next_hop() does not check, for speed).
  std::vector<RouteHop> route(NodeId src, NodeId dst, VcClass in = VcClass::local) const;
  // Route of one multi-destination worm visiting `dests` in order; the class
  // carries over at each intermediate destination (IR, Fig. 5.10).
  std::vector<RouteHop> route_path(NodeId src, const std::vector<NodeId>& dests) const;

  // UTPR helpers (valid on any regular torus): ℓ(u) by Eq. 5.2, and whether
  // channel (u, u^d) is a boundary by Lemma 5.7.
  long long label(NodeId u) const;
  bool is_boundary(NodeId u, int d) const;

 private:
  // The hop in dimension d, the first differing one (a = σ_d(at) != b = σ_d(dst)).
  DirectHop dimension_ordered(int d, int a, int b) const;
  DirectHop utpr_hop(NodeId at, NodeId dst, VcClass in) const;
  DirectHop dateline_hop(int d, int a, int b, VcClass in, int in_port) const;
  // Sets a, b to σ_d(at), σ_d(dst) of the dimension returned, so callers do
  // not divide again (-1 when at == dst: a, b untouched).
  int first_differing_dim(NodeId at, NodeId dst, int& a, int& b) const;
  int first_differing_dim(const Here& h, NodeId dst, int& a, int& b) const;
  static DirectHop straight_hop(int d, int a, int b);
  // next_hop once at != dst and the first differing dimension d is known.
  DirectHop ordered_hop(int d, int a, int b, VcClass in, int in_port) const;

  DirectTopology topo_;
  RoutingAlgorithm algo_;
  DimOrder order_;
  std::vector<std::uint32_t> boundary_mask_;   // UTPR: bit d set if (u, u^d) is a boundary
};

const char* to_string(RoutingAlgorithm a);   // "dor", "ecube", ...
const char* to_string(VcClass c);            // "p", "l", "h", "single", "local", "dl0", "dl1"
// Reads to_string(RoutingAlgorithm) names (not the broken test routing);
// throws TopologyError listing the valid names.
RoutingAlgorithm parse_routing(const std::string& name);
// The thesis default for a network: dor (mesh), ecube (hypercube), utr
// (unidirectional torus), btr (bidirectional torus).
RoutingAlgorithm default_routing(const DirectTopology& t);

// Independent checker (its own BFS distances, its own copy of the VC
// existence rules and of the ℋ labels): for every ordered pair of nodes the
// route is a shortest path in the channel graph, never revisits a node and
// uses only VCs that exist by the thesis rules (and that vc_classes() lists);
// vc_classes() agrees with those rules on every channel; and the channel
// dependency graph over (channel, VC) pairs is acyclic. For UTPR the graph
// also holds the dependencies of multi-destination worms continuing through
// a destination along an ℋ-cycle, and every dependency must increase in the
// corrected order of seed001 §7.6. Returns human-readable problems (empty =
// all good); a cycle is reported with its channels.
// `vcs` is the router's VC count per channel (0 = num_vcs()): it must be a
// positive multiple m of num_vcs(). With m > 1 the (channel, VC) dependency
// graph is the class graph with every node replaced by its m VCs and every
// edge by all m x m edges between them (a header may take any VC of its
// class): a cycle there projects onto a cycle of the class graph and every
// class-graph cycle lifts to one, so the checker checks the class graph.
std::vector<std::string> check_direct_routing(const DirectRouting& r, int vcs = 0);

}  // namespace wormcast::topo
