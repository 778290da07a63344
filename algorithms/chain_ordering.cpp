#include "algorithms/chain_ordering.h"

#include <algorithm>
#include <set>
#include <stdexcept>
#include <string>

namespace wormcast::algo {
namespace {

using topo::NodeId;
using topo::SwitchId;

// `limit` < 0: no upper bound on ids (given orders need not come from a topology).
void check_members(NodeId source, const std::vector<NodeId>& destinations, int limit) {
  auto in_range = [limit](NodeId v) { return v >= 0 && (limit < 0 || v < limit); };
  const std::string range = limit < 0 ? ">= 0" : "in [0, " + std::to_string(limit) + ")";
  if (!in_range(source))
    throw std::invalid_argument("chain ordering: source node " + std::to_string(source) + " is not " + range);
  std::set<NodeId> seen;
  for (NodeId d : destinations) {
    if (!in_range(d))
      throw std::invalid_argument("chain ordering: destination node " + std::to_string(d) + " is not " + range);
    if (d == source)
      throw std::invalid_argument("chain ordering: destination node " + std::to_string(d) + " is the source");
    if (!seen.insert(d).second)
      throw std::invalid_argument("chain ordering: destination node " + std::to_string(d) + " is listed twice");
  }
}

// Down-DAG neighbours of s (one BFS level lower), ascending id, no repeats.
std::vector<SwitchId> down_children(const topo::Topology& t, const topo::UpDownRouting& r, SwitchId s) {
  std::vector<SwitchId> out;
  for (const topo::PortPeer& pp : t.ports.at(s))
    if (pp.kind == topo::PeerKind::switch_port && r.level(pp.id) == r.level(s) + 1) out.push_back(pp.id);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

}  // namespace

std::vector<SwitchId> down_dag_preorder(const topo::Topology& t, const topo::UpDownRouting& r) {
  std::vector<char> visited(t.num_switches(), 0);
  std::vector<SwitchId> order;
  std::vector<SwitchId> stack{r.root()};
  while (!stack.empty()) {
    const SwitchId s = stack.back();
    stack.pop_back();
    if (visited[s]) continue;
    visited[s] = 1;
    order.push_back(s);
    // Pushed in reverse so the lowest id is explored first.
    const std::vector<SwitchId> kids = down_children(t, r, s);
    for (auto it = kids.rbegin(); it != kids.rend(); ++it)
      if (!visited[*it]) stack.push_back(*it);
  }
  return order;
}

std::vector<NodeId> cco_approx_chain(const topo::Topology& t, const topo::UpDownRouting& r, NodeId source,
                                     const std::vector<NodeId>& destinations) {
  check_members(source, destinations, t.num_nodes());
  std::vector<char> member(t.num_nodes(), 0);
  member[source] = 1;
  for (NodeId d : destinations) member[d] = 1;

  std::vector<SwitchId> switches;
  for (SwitchId s : down_dag_preorder(t, r)) {
    const std::vector<NodeId> hosts = t.nodes_at(s);
    if (std::any_of(hosts.begin(), hosts.end(), [&](NodeId h) { return member[h]; })) switches.push_back(s);
  }
  const SwitchId home = t.node_attach.at(source).sw;
  std::rotate(switches.begin(), std::find(switches.begin(), switches.end(), home), switches.end());

  std::vector<NodeId> chain{source};
  for (SwitchId s : switches)
    for (NodeId h : t.nodes_at(s))
      if (member[h] && h != source) chain.push_back(h);
  return chain;
}

std::vector<NodeId> given_order_chain(NodeId source, const std::vector<NodeId>& destinations) {
  check_members(source, destinations, -1);
  std::vector<NodeId> chain{source};
  chain.insert(chain.end(), destinations.begin(), destinations.end());
  return chain;
}

std::vector<NodeId> dimension_ordered_chain(const topo::DirectTopology& t, NodeId source,
                                            const std::vector<NodeId>& destinations, bool highest_dimension_first) {
  if (t.kind() == topo::DirectKind::mesh)
    throw std::invalid_argument("chain ordering: dimension-ordered chains with the source first need a k-ary "
                                "n-cube (torus or hypercube), not the mesh " + t.spec());
  check_members(source, destinations, t.num_nodes());
  const int n = t.dimensions();
  const bool cube = t.kind() == topo::DirectKind::hypercube;
  // Sort key: digits (relative to the source on hypercubes: XOR), the
  // first-resolved dimension most significant.
  auto key = [&](NodeId x) {
    std::vector<int> k(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) {
      const int d = highest_dimension_first ? n - 1 - i : i;
      k[static_cast<std::size_t>(i)] = cube ? t.sigma(x, d) ^ t.sigma(source, d) : t.sigma(x, d);
    }
    return k;
  };
  std::vector<std::pair<std::vector<int>, NodeId>> keyed{{key(source), source}};
  for (NodeId d : destinations) keyed.emplace_back(key(d), d);
  std::sort(keyed.begin(), keyed.end());
  // Tori: rotate the sorted chain so the source is first (U-torus); on a
  // hypercube the source's relative address 0 is first already.
  const auto at = std::find_if(keyed.begin(), keyed.end(), [&](const auto& kd) { return kd.second == source; });
  std::rotate(keyed.begin(), at, keyed.end());
  std::vector<NodeId> chain;
  for (const auto& kd : keyed) chain.push_back(kd.second);
  return chain;
}

}  // namespace wormcast::algo
