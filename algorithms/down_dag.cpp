#include "algorithms/down_dag.h"

#include <algorithm>

namespace wormcast::algo {

DownDag build_down_dag(const topo::Topology& t, const topo::UpDownRouting& r) {
  const int S = t.num_switches();
  DownDag g;
  g.level.resize(S);
  g.children.assign(S, {});
  g.parents.assign(S, {});
  for (topo::SwitchId s = 0; s < S; ++s) g.level[s] = r.level(s);
  for (topo::SwitchId s = 0; s < S; ++s)
    for (topo::PortId p = 0; p < t.ports_per_switch; ++p) {
      const topo::PortPeer& pp = t.peer(s, p);
      if (pp.kind != topo::PeerKind::switch_port || r.is_up_port(s, p)) continue;
      if (g.level[pp.id] == g.level[s]) continue;   // same-level cross link: not a POC hop
      g.children[s].push_back(pp.id);
      g.parents[pp.id].push_back(s);
    }
  for (auto* lists : {&g.children, &g.parents})
    for (auto& v : *lists) {
      std::sort(v.begin(), v.end());
      v.erase(std::unique(v.begin(), v.end()), v.end());
    }
  return g;
}

DownDag dfs_tree(const DownDag& g) {
  const int S = g.num_switches();
  DownDag out;
  out.level = g.level;
  out.children.assign(S, {});
  out.parents.assign(S, {});
  std::vector<char> seen(S, 0);
  for (topo::SwitchId root = 0; root < S; ++root) {
    if (g.level[root] != 0) continue;
    // Iterative DFS: (switch, next child index).
    std::vector<std::pair<topo::SwitchId, std::size_t>> stack{{root, 0}};
    seen[root] = 1;
    while (!stack.empty()) {
      auto& [u, i] = stack.back();
      if (i == g.children[u].size()) { stack.pop_back(); continue; }
      const topo::SwitchId v = g.children[u][i++];
      if (seen[v]) continue;
      seen[v] = 1;
      out.children[u].push_back(v);
      out.parents[v].push_back(u);
      stack.push_back({v, 0});
    }
  }
  for (auto& v : out.children) std::sort(v.begin(), v.end());
  return out;
}

}  // namespace wormcast::algo
