#include "algorithms/poc.h"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "algorithms/multicast_set.h"

namespace wormcast::algo {

using topo::NodeId;
using topo::SwitchId;

namespace {

// Participating switches reachable from u in T through non-participating
// switches only (Fig. 13 step 3 as a closure), ascending id.
std::vector<SwitchId> reduced_children(const DownDag& dag, const std::vector<int>& rho, SwitchId u) {
  std::vector<char> seen(dag.num_switches(), 0);
  std::vector<SwitchId> stack(dag.children[u].begin(), dag.children[u].end()), out;
  while (!stack.empty()) {
    const SwitchId v = stack.back();
    stack.pop_back();
    if (seen[v]) continue;
    seen[v] = 1;
    if (rho[v] > 0) {
      out.push_back(v);
      continue;
    }
    for (SwitchId w : dag.children[v]) stack.push_back(w);
  }
  std::sort(out.begin(), out.end());
  return out;
}

// Heaviest switch among `cands` not yet removed; ties to the lowest id.
SwitchId heaviest(const ReducedDag& g, const std::vector<SwitchId>& cands, const std::vector<char>& removed) {
  SwitchId best = -1;
  for (SwitchId s : cands) {
    if (removed[s] || !g.participating(s)) continue;
    if (best < 0 || g.weight[s] > g.weight[best] || (g.weight[s] == g.weight[best] && s < best)) best = s;
  }
  return best;
}

}  // namespace

ReducedDag reduce_down_dag(const DownDag& dag, const std::vector<int>& rho) {
  const int S = dag.num_switches();
  if (static_cast<int>(rho.size()) != S) throw std::invalid_argument("reduce_down_dag: rho size mismatch");
  ReducedDag g;
  g.rho = rho;
  g.children.assign(S, {});
  g.weight.assign(S, 0);
  for (SwitchId u = 0; u < S; ++u)
    if (rho[u] > 0) g.children[u] = reduced_children(dag, rho, u);
  g.weight = poc_weights(g, std::vector<char>(S, 0));
  return g;
}

std::vector<int> poc_weights(const ReducedDag& g, const std::vector<char>& removed) {
  const int S = static_cast<int>(g.rho.size());
  std::vector<int> weight(S, 0);
  for (SwitchId u = 0; u < S; ++u) {
    if (g.rho[u] == 0 || removed[u]) continue;
    std::vector<char> in_desc(S, 0);   // Desc(u) as a set
    std::vector<SwitchId> stack{u};
    while (!stack.empty()) {
      const SwitchId v = stack.back();
      stack.pop_back();
      if (in_desc[v] || removed[v]) continue;
      in_desc[v] = 1;
      weight[u] += g.rho[v];
      for (SwitchId w : g.children[v]) stack.push_back(w);
    }
  }
  return weight;
}

std::vector<Poc> find_pocs(const topo::Topology& t, const topo::UpDownRouting& r, NodeId source,
                           const std::vector<NodeId>& dests, const PocOptions& opt) {
  check_multicast(t, source, dests);
  const int S = t.num_switches();
  std::vector<int> rho(S, 0);
  std::vector<char> is_dest(t.num_nodes(), 0);
  for (NodeId d : dests) {
    is_dest[d] = 1;
    ++rho[t.node_attach[d].sw];
  }
  ++rho[t.node_attach[source].sw];
  const DownDag dag = build_down_dag(t, r);
  ReducedDag g = reduce_down_dag(opt.dag == PocDag::dfs_tree ? dfs_tree(dag) : dag, rho);

  std::vector<SwitchId> all(S);
  for (SwitchId s = 0; s < S; ++s) all[s] = s;
  std::vector<char> removed(S, 0);
  std::vector<Poc> out;
  for (;;) {
    if (opt.recompute_weights && !out.empty()) g.weight = poc_weights(g, removed);
    const SwitchId head = heaviest(g, all, removed);
    if (head < 0) break;
    Poc chain;
    for (SwitchId cur = head; cur >= 0; cur = heaviest(g, g.children[cur], removed)) {
      removed[cur] = 1;
      chain.switches.push_back(cur);
      for (NodeId n : t.nodes_at(cur))
        if (is_dest[n]) chain.nodes.push_back(n);
    }
    out.push_back(std::move(chain));
  }
  return out;
}

std::vector<std::vector<NodeId>> path_worm_destinations(const topo::Topology& t, const topo::UpDownRouting& r,
                                                        NodeId source, const std::vector<NodeId>& dests,
                                                        const PocOptions& opt) {
  std::vector<std::vector<NodeId>> out;
  for (Poc& c : find_pocs(t, r, source, dests, opt))
    if (!c.nodes.empty()) out.push_back(std::move(c.nodes));
  return out;
}

PathWorm route_path_worm(const topo::Topology& t, const topo::UpDownRouting& r, NodeId sender,
                         const std::vector<NodeId>& destinations) {
  const int N = t.num_nodes();
  auto bad = [N](NodeId n) { return n < 0 || n >= N; };
  if (bad(sender)) throw std::invalid_argument("path worm: sender " + std::to_string(sender) + " is not a node");
  if (destinations.empty()) throw std::invalid_argument("path worm: no destinations");
  PathWorm w;
  w.sender = sender;
  w.destinations = destinations;
  SwitchId cur = t.node_attach[sender].sw;
  topo::Phase ph = topo::Phase::may_go_up;
  w.path.push_back(cur);
  for (NodeId d : destinations) {
    if (bad(d)) throw std::invalid_argument("path worm: destination " + std::to_string(d) + " is not a node");
    const SwitchId target = t.node_attach[d].sw;
    while (cur != target) {
      const std::vector<topo::PortId>& ports = r.ports(cur, ph, d);
      if (ports.empty())
        throw std::invalid_argument("path worm: node " + std::to_string(d) + " unreachable from switch " +
                                    std::to_string(cur) + " without an up link after a down link");
      const topo::PortPeer& pp = t.peer(cur, ports.front());
      w.out_ports.push_back(ports.front());
      cur = pp.id;
      ph = r.arrival_phase(cur, pp.port);
      w.path.push_back(cur);
    }
  }
  return w;
}

}  // namespace wormcast::algo
