#include "topologies/direct_routing.h"

#include <cstdlib>
#include <stdexcept>

namespace wormcast::topo {

namespace {

std::string mismatch(RoutingAlgorithm a, const DirectTopology& t, const std::string& why) {
  return std::string("routing ") + to_string(a) + " does not fit " + t.spec() + ": " + why;
}

// The fit rules of the constructor, one place per algorithm.
void check_fit(const DirectTopology& t, RoutingAlgorithm a, DimOrder order) {
  const bool uni_torus = t.is_torus() && !t.bidirectional();
  const bool bi_torus = t.is_torus() && t.bidirectional();
  switch (a) {
    case RoutingAlgorithm::dor:
      if (t.is_torus())
        throw TopologyError(mismatch(a, t, "single-VC dimension order deadlocks on a torus (Fig. 2.4); use utr "
                                           "(unidirectional) or btr (bidirectional)"));
      return;
    case RoutingAlgorithm::ecube:
      if (t.kind() != DirectKind::hypercube)
        throw TopologyError(mismatch(a, t, "E-cube is defined for hypercubes; use dor, utr or btr"));
      return;
    case RoutingAlgorithm::utr:
      if (!uni_torus) throw TopologyError(mismatch(a, t, "UTR (Eq. 4.1) needs a unidirectional torus"));
      return;
    case RoutingAlgorithm::btr:
      if (!bi_torus) throw TopologyError(mismatch(a, t, "BTR (Eq. 4.2) needs a bidirectional torus"));
      return;
    case RoutingAlgorithm::utpr:
      if (!uni_torus) throw TopologyError(mismatch(a, t, "UTPR (Eq. 5.3) needs a unidirectional torus"));
      if (!t.regular())
        throw TopologyError(mismatch(a, t, "UTPR needs a k-ary n-cube (equal radices): the ℋ labels of "
                                           "Eq. 5.2 are not a Hamiltonian cycle otherwise"));
      if (order != DimOrder::descending)
        throw TopologyError(mismatch(a, t, "UTPR chooses its own dimension (Eq. 5.3); no dimension order option"));
      return;
    case RoutingAlgorithm::broken_single_vc_ring:
      if (!uni_torus) throw TopologyError(mismatch(a, t, "the broken test routing is for unidirectional tori"));
      return;
    case RoutingAlgorithm::dateline:
      if (!t.is_torus())
        throw TopologyError(mismatch(a, t, "the dateline classes are for the wrap-around links of a torus; a " +
                                               std::string(t.kind() == DirectKind::mesh ? "mesh" : "hypercube") +
                                               " has none (use dor or ecube; router.vcs may give them more VCs)"));
      if (!bi_torus)
        throw TopologyError(mismatch(a, t, "on a unidirectional torus a wrapping route can be k-1 hops long and "
                                           "keeping class dl1 along it closes a dependency cycle; use utr (it "
                                           "changes class at the wrap)"));
      return;
  }
}

}  // namespace

DirectRouting::DirectRouting(const DirectTopology& t, RoutingAlgorithm a, DimOrder order)
    : topo_(t), algo_(a), order_(order) {
  check_fit(t, a, order);
  if (a != RoutingAlgorithm::utpr) return;
  // Boundaries are static (Sec. 5.6): one bit per (node, dimension).
  boundary_mask_.assign(t.num_nodes(), 0);
  for (NodeId u = 0; u < t.num_nodes(); ++u)
    for (int d = 0; d < t.dimensions(); ++d)
      if (is_boundary(u, d)) boundary_mask_[u] |= 1u << d;
}

int DirectRouting::num_vcs() const {
  switch (algo_) {
    case RoutingAlgorithm::utr: return 2;
    case RoutingAlgorithm::btr: return 3;
    case RoutingAlgorithm::utpr: return 2;
    case RoutingAlgorithm::dateline: return 2;
    default: return 1;
  }
}

int DirectRouting::vc_index(VcClass c) const {
  switch (num_vcs()) {
    case 1: return c == VcClass::single ? 0 : -1;
    case 2:
      if (algo_ == RoutingAlgorithm::dateline) return c == VcClass::dl0 ? 0 : c == VcClass::dl1 ? 1 : -1;
      return c == VcClass::p ? 0 : c == VcClass::h ? 1 : -1;
    default: return c == VcClass::p ? 0 : c == VcClass::l ? 1 : c == VcClass::h ? 2 : -1;
  }
}

VcClass DirectRouting::class_at(int index) const {
  for (VcClass c : kChannelClasses)
    if (vc_index(c) == index) return c;
  throw std::logic_error("routing " + std::string(to_string(algo_)) + " has no VC class index " +
                         std::to_string(index));
}

VcSet DirectRouting::vc_classes(NodeId x, int d, Direction dir) const {
  VcSet s;
  if (!topo_.has_channel(x, d, dir)) return s;
  const int k = topo_.radix(d), sig = topo_.sigma(x, d);
  const bool plus = dir == Direction::plus;
  switch (algo_) {
    case RoutingAlgorithm::utr:   // §1.5 UTR rules 1 and 2
      if (sig <= k - 2) s.add(VcClass::h);
      if (sig >= 1) s.add(VcClass::p);
      return s;
    case RoutingAlgorithm::btr:   // §1.5 BTR rules 1-4; ⌈(k-1)/2⌉ = k/2 in integers
      if (plus && sig <= k - 2) s.add(VcClass::h);
      if (!plus && sig >= 1) s.add(VcClass::l);
      if (plus && sig >= k / 2 + 1) s.add(VcClass::p);
      if (!plus && sig <= (k - 1) / 2 - 1) s.add(VcClass::p);
      return s;
    case RoutingAlgorithm::utpr:
      s.add(VcClass::h);
      if (!(boundary_mask_[x] >> d & 1u)) s.add(VcClass::p);
      return s;
    case RoutingAlgorithm::dateline: {
      // dl0 on every non-wrap channel. dl1 where a wrapping route can be: it
      // is at most w = ⌈k/2⌉-1 hops long (a tie of k/2 does not wrap), so
      // going + it is on the last w channels before the wrap or the first
      // w-1 after it (mirrored going -).
      const int w = (k - 1) / 2, pos = plus ? sig : k - 1 - sig;   // pos: distance along the ring from its start
      if (pos <= k - 2) s.add(VcClass::dl0);
      if (w >= 1 && (pos >= k - w || pos <= w - 2)) s.add(VcClass::dl1);
      return s;
    }
    default:
      s.add(VcClass::single);
      return s;
  }
}

namespace {
// The first dimension, in `order`, where σ_d(at) = sigma_at(d) and σ_d(dst)
// = sigma_dst(d) differ, with a, b set to the two (-1 when none: a, b
// untouched). One loop for every caller: σ_d(at) from the address or from a
// Here, σ_d(dst) from the address or from its row of the digit table.
template <class SigmaAt, class SigmaDst>
__attribute__((always_inline)) inline int first_differing(int n, DimOrder order, SigmaAt sigma_at, SigmaDst sigma_dst,
                                                          int& a, int& b) {
  const int first = order == DimOrder::descending ? n - 1 : 0, step = order == DimOrder::descending ? -1 : 1;
  for (int d = first; d >= 0 && d < n; d += step) {
    const int sa = sigma_at(d), sb = sigma_dst(d);
    if (sa != sb) {
      a = sa;
      b = sb;
      return d;
    }
  }
  return -1;
}
}  // namespace

int DirectRouting::first_differing_dim(NodeId at, NodeId dst, int& a, int& b) const {
  return first_differing(
      topo_.dimensions(), order_, [&](int d) { return topo_.digit(at, d); }, [&](int d) { return topo_.digit(dst, d); },
      a, b);
}

// Inlined into next_hop (with ordered_hop and dimension_ordered): a call
// each cost about as many instructions per routed header as their bodies.
// The destination's digits come from its row of the digit table when there
// is one (one address computed per header, not one per dimension).
__attribute__((always_inline)) inline int DirectRouting::first_differing_dim(const Here& h, NodeId dst, int& a,
                                                                          int& b) const {
  const auto here = [&](int d) { return h.sigma[static_cast<std::size_t>(d)]; };
  if (const std::uint8_t* row = topo_.digit_row(dst))
    return first_differing(topo_.dimensions(), order_, here, [row](int d) { return static_cast<int>(row[d]); }, a, b);
  return first_differing(topo_.dimensions(), order_, here, [&](int d) { return topo_.sigma(dst, d); }, a, b);
}

__attribute__((always_inline)) inline DirectHop DirectRouting::dimension_ordered(int d, int a, int b) const {
  DirectHop h;
  h.dim = d;
  const int k = topo_.radix(h.dim);
  const int delta = b - a;
  switch (algo_) {
    case RoutingAlgorithm::utr:   // Eq. 4.1: p until the wrap, h after it or without one
      h.dir = Direction::plus;
      h.vc = delta < 0 ? VcClass::p : VcClass::h;
      return h;
    case RoutingAlgorithm::btr:   // Eq. 4.2; |Δ| = k/2 does not wrap (§7.3)
      if (2 * std::abs(delta) > k) {
        h.vc = VcClass::p;
        h.dir = delta < 0 ? Direction::plus : Direction::minus;
      } else {
        h.vc = delta < 0 ? VcClass::l : VcClass::h;
        h.dir = delta < 0 ? Direction::minus : Direction::plus;
      }
      return h;
    case RoutingAlgorithm::broken_single_vc_ring:
      h.dir = Direction::plus;
      h.vc = VcClass::single;
      return h;
    default:   // dor, ecube
      return straight_hop(d, a, b);
  }
}

// dor and ecube: straight towards the destination's coordinate b.
DirectHop DirectRouting::straight_hop(int d, int a, int b) {
  DirectHop h;
  h.dim = d;
  h.dir = b > a ? Direction::plus : Direction::minus;
  h.vc = VcClass::single;
  return h;
}

// Shortest way round dimension h.dim (a tie of k/2 takes the path without
// the wrap); dl1 if that crosses the wrap, chosen when the worm enters the
// dimension and kept while it arrives on the same port (BookSim2's
// deterministic dim_order_torus, without its random tie-break).
DirectHop DirectRouting::dateline_hop(int d, int a, int b, VcClass in, int in_port) const {
  DirectHop h;
  h.dim = d;
  const int k = topo_.radix(h.dim);
  const int fwd = (b - a + k) % k;
  const bool plus = 2 * fwd < k || (2 * fwd == k && b > a);
  h.dir = plus ? Direction::plus : Direction::minus;
  const bool same = in_port == DirectTopology::port_index(h.dim, h.dir) && (in == VcClass::dl0 || in == VcClass::dl1);
  h.vc = same ? in : (plus ? b < a : b > a) ? VcClass::dl1 : VcClass::dl0;
  return h;
}

// Fig. 5.11: the lowest useful dimension that is not a boundary, else the
// highest useful (boundary) dimension; after a boundary only h.
DirectHop DirectRouting::utpr_hop(NodeId at, NodeId dst, VcClass in) const {
  DirectHop h;
  const std::uint32_t boundary = boundary_mask_[at];
  for (int i = 0; i < topo_.dimensions(); ++i) {
    if (topo_.digit(at, i) == topo_.digit(dst, i)) continue;
    if (!(boundary >> i & 1u)) {
      h.dim = i;
      h.vc = in == VcClass::h ? VcClass::h : VcClass::p;
      return h;
    }
    h.dim = i;
  }
  h.vc = VcClass::h;
  return h;
}

__attribute__((always_inline)) inline DirectHop DirectRouting::ordered_hop(int d, int a, int b, VcClass in,
                                                                         int in_port) const {
  if (algo_ == RoutingAlgorithm::dateline) return dateline_hop(d, a, b, in, in_port);
  // The common case first, without dimension_ordered's switch (a few
  // instructions fewer per routed header on a mesh).
  if (algo_ == RoutingAlgorithm::dor || algo_ == RoutingAlgorithm::ecube) return straight_hop(d, a, b);
  return dimension_ordered(d, a, b);
}

DirectHop DirectRouting::next_hop(NodeId at, NodeId dst, VcClass in, int in_port) const {
  if (at == dst) {
    DirectHop h;
    h.arrived = true;
    return h;
  }
  if (algo_ == RoutingAlgorithm::utpr) return utpr_hop(at, dst, in);
  int a = 0, b = 0;
  const int d = first_differing_dim(at, dst, a, b);
  return ordered_hop(d, a, b, in, in_port);
}

Here DirectRouting::here(NodeId at) const {
  Here h;
  h.at = at;
  h.cached = topo_.dimensions() <= Here::kDims;
  if (h.cached)
    for (int d = 0; d < topo_.dimensions(); ++d) h.sigma[static_cast<std::size_t>(d)] = topo_.sigma(at, d);
  return h;
}

DirectHop DirectRouting::next_hop(const Here& h, NodeId dst, VcClass in, int in_port) const {
  if (!h.cached || algo_ == RoutingAlgorithm::utpr) return next_hop(h.at, dst, in, in_port);
  if (h.at == dst) {
    DirectHop arrived;
    arrived.arrived = true;
    return arrived;
  }
  int a = 0, b = 0;
  const int d = first_differing_dim(h, dst, a, b);
  return ordered_hop(d, a, b, in, in_port);
}

std::vector<RouteHop> DirectRouting::route(NodeId src, NodeId dst, VcClass in) const {
  if (!topo_.valid_node(src) || !topo_.valid_node(dst))
    throw TopologyError("route " + std::to_string(src) + " -> " + std::to_string(dst) + ": node id outside 0.." +
                        std::to_string(topo_.num_nodes() - 1) + " of " + topo_.spec());
  std::vector<RouteHop> out;
  NodeId at = src;
  VcClass cls = in;
  int in_port = -1;   // a fresh decision at the start (injection or an intermediate destination)
  while (true) {
    const DirectHop h = next_hop(at, dst, cls, in_port);
    if (h.arrived) return out;
    const NodeId next = topo_.neighbour(at, h.dim, h.dir);
    // A route longer than the node count loops; both are routing bugs that
    // check_direct_routing() reports with detail.
    if (next < 0 || static_cast<int>(out.size()) >= topo_.num_nodes())
      throw std::logic_error("route " + topo_.name(src) + " -> " + topo_.name(dst) + " in " + topo_.spec() +
                             ": routing " + to_string(algo_) + " left the channel graph or looped at " +
                             topo_.name(at));
    out.push_back({at, h.dim, h.dir, h.vc, next});
    at = next;
    cls = h.vc;
    in_port = DirectTopology::port_index(h.dim, h.dir);
  }
}

std::vector<RouteHop> DirectRouting::route_path(NodeId src, const std::vector<NodeId>& dests) const {
  std::vector<RouteHop> out;
  NodeId at = src;
  VcClass cls = VcClass::local;
  for (NodeId v : dests) {
    for (const RouteHop& h : route(at, v, cls)) out.push_back(h);
    if (!out.empty()) cls = out.back().vc;
    at = v;
  }
  return out;
}

long long DirectRouting::label(NodeId u) const {
  const int n = topo_.dimensions(), k = topo_.radix(0);
  long long l = 0, weight = 1;
  for (int i = 0; i < n; ++i, weight *= k) {
    int suffix = 0;
    for (int j = i; j < n; ++j) suffix += topo_.sigma(u, j);
    l += weight * (suffix % k);   // Eq. 5.2
  }
  return l;
}

bool DirectRouting::is_boundary(NodeId u, int d) const {
  const int k = topo_.radix(0);
  int suffix = 0;
  for (int j = d; j < topo_.dimensions(); ++j) suffix += topo_.sigma(u, j);
  return suffix % k == k - 1;   // Lemma 5.7
}

const char* to_string(RoutingAlgorithm a) {
  switch (a) {
    case RoutingAlgorithm::dor: return "dor";
    case RoutingAlgorithm::ecube: return "ecube";
    case RoutingAlgorithm::utr: return "utr";
    case RoutingAlgorithm::btr: return "btr";
    case RoutingAlgorithm::utpr: return "utpr";
    case RoutingAlgorithm::broken_single_vc_ring: return "broken-single-vc-ring";
    case RoutingAlgorithm::dateline: return "dateline";
  }
  return "?";
}

const char* to_string(VcClass c) {
  switch (c) {
    case VcClass::p: return "p";
    case VcClass::l: return "l";
    case VcClass::h: return "h";
    case VcClass::single: return "single";
    case VcClass::local: return "local";
    case VcClass::dl0: return "dl0";
    case VcClass::dl1: return "dl1";
  }
  return "?";
}

RoutingAlgorithm parse_routing(const std::string& name) {
  for (RoutingAlgorithm a : {RoutingAlgorithm::dor, RoutingAlgorithm::ecube, RoutingAlgorithm::utr,
                             RoutingAlgorithm::btr, RoutingAlgorithm::utpr, RoutingAlgorithm::dateline})
    if (name == to_string(a)) return a;
  throw TopologyError("unknown routing \"" + name + "\" (expected dor, ecube, utr, btr, utpr or dateline)");
}

RoutingAlgorithm default_routing(const DirectTopology& t) {
  switch (t.kind()) {
    case DirectKind::mesh: return RoutingAlgorithm::dor;
    case DirectKind::hypercube: return RoutingAlgorithm::ecube;
    case DirectKind::torus: break;
  }
  return t.bidirectional() ? RoutingAlgorithm::btr : RoutingAlgorithm::utr;
}

}  // namespace wormcast::topo
