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

}  // namespace wormcast::algo
