#include "topologies/direct_paths.h"

#include <algorithm>
#include <set>

namespace wormcast::topo {

namespace {

void check_nodes(const DirectTopology& t, NodeId src, const std::vector<NodeId>& dests) {
  auto bad = [&](NodeId x) {
    return TopologyError("IR worm: node id " + std::to_string(x) + " is outside 0.." +
                         std::to_string(t.num_nodes() - 1) + " of " + t.spec());
  };
  if (!t.valid_node(src)) throw bad(src);
  if (dests.empty()) throw TopologyError("IR worm from " + t.name(src) + ": no destinations");
  std::set<NodeId> seen;
  for (NodeId d : dests) {
    if (!t.valid_node(d)) throw bad(d);
    if (d == src) throw TopologyError("IR worm from " + t.name(src) + ": the source is among its destinations");
    if (!seen.insert(d).second) throw TopologyError("IR worm from " + t.name(src) + ": destination " + t.name(d) +
                                                    " listed twice");
  }
}

// Hops of a minimal route u -> v under the direction constraint of the
// network, computed from the coordinates (not from the routing function).
int minimal_hops(const DirectTopology& t, NodeId u, NodeId v) {
  int h = 0;
  for (int d = 0; d < t.dimensions(); ++d) {
    const int k = t.radix(d), fwd = ((t.sigma(v, d) - t.sigma(u, d)) % k + k) % k;
    if (t.is_torus() && !t.bidirectional()) h += fwd;
    else if (t.is_torus()) h += std::min(fwd, k - fwd);
    else h += std::abs(t.sigma(v, d) - t.sigma(u, d));
  }
  return h;
}

}  // namespace

std::vector<NodeId> ir_visiting_order(const DirectRouting& r, NodeId src, const std::vector<NodeId>& dests) {
  const DirectTopology& t = r.topology();
  if (r.algorithm() != RoutingAlgorithm::utpr)
    throw TopologyError(std::string("IR worm visiting order: routing ") + to_string(r.algorithm()) +
                        " has no ℋ order (seed001 defines one only for utpr on a regular unidirectional torus, "
                        "Fig. 5.8); give the destinations in the order the worm must visit them");
  check_nodes(t, src, dests);
  std::vector<NodeId> phi = dests;
  const long long ls = r.label(src);
  // Sorting by label and rotating to the source: labels above the source's
  // first (ascending), then those below it (ascending). Labels are distinct
  // (ℓ is a bijection on a k-ary n-cube).
  std::sort(phi.begin(), phi.end(), [&](NodeId a, NodeId b) {
    const long long la = r.label(a), lb = r.label(b);
    const bool wa = la < ls, wb = lb < ls;
    return wa != wb ? !wa : la < lb;
  });
  return phi;
}

std::vector<NodeId> ir_header(const std::vector<NodeId>& ordered) {
  if (ordered.empty()) throw TopologyError("IR worm header: no destinations");
  std::vector<NodeId> h = ordered;
  h.push_back(ordered.back());
  return h;
}

std::vector<std::string> check_ir_path(const DirectRouting& r, NodeId src, const std::vector<NodeId>& ordered) {
  const DirectTopology& t = r.topology();
  std::vector<std::string> problems;
  std::set<NodeId> visited{src};
  std::set<int> channels;
  int boundaries = 0;
  NodeId at = src;
  VcClass cls = VcClass::local;
  for (NodeId v : ordered) {
    const std::vector<RouteHop> seg = r.route(at, v, cls);
    if (static_cast<int>(seg.size()) != minimal_hops(t, at, v))
      problems.push_back("segment " + t.name(at) + " -> " + t.name(v) + " takes " + std::to_string(seg.size()) +
                         " hops, minimal is " + std::to_string(minimal_hops(t, at, v)));
    for (const RouteHop& h : seg) {
      if (!visited.insert(h.next).second) problems.push_back("node " + t.name(h.next) + " visited twice");
      if (!channels.insert(t.channel_slot(h.node, h.dim, h.dir)).second)
        problems.push_back("channel out of " + t.name(h.node) + " in dimension " + std::to_string(h.dim) +
                           " used twice");
      if (r.algorithm() == RoutingAlgorithm::utpr && r.is_boundary(h.node, h.dim)) ++boundaries;
    }
    if (!seg.empty()) cls = seg.back().vc;
    at = v;
  }
  if (boundaries > 1) problems.push_back("the worm crosses " + std::to_string(boundaries) + " boundaries (at most 1)");
  return problems;
}

}  // namespace wormcast::topo
