#include "algorithms/ssr.h"

#include <stdexcept>
#include <string>

#include "algorithms/multicast_set.h"
#include "algorithms/poc.h"

namespace wormcast::algo {

std::vector<SsrWorm> ssr_worms(const topo::Topology& t, topo::NodeId source,
                               const std::vector<topo::NodeId>& dests,
                               const std::vector<topo::SwitchId>& switch_order) {
  check_multicast(t, source, dests);
  const int S = t.num_switches();
  std::vector<char> is_dest(t.num_nodes(), 0), has_dest(S, 0), listed(S, 0);
  for (topo::NodeId d : dests) {
    is_dest[d] = 1;
    has_dest[t.node_attach[d].sw] = 1;
  }
  std::vector<SsrWorm> out;
  for (topo::SwitchId s : switch_order) {
    if (s < 0 || s >= S) throw std::invalid_argument("ssr: switch " + std::to_string(s) + " in the order is not a switch");
    if (listed[s] || !has_dest[s]) continue;
    listed[s] = 1;
    SsrWorm w;
    w.sw = s;
    w.port_bits.assign(t.ports_per_switch, false);
    for (topo::NodeId n : t.nodes_at(s))
      if (is_dest[n]) {
        w.destinations.push_back(n);
        w.port_bits[t.node_attach[n].port] = true;
      }
    out.push_back(std::move(w));
  }
  for (topo::SwitchId s = 0; s < S; ++s)
    if (has_dest[s] && !listed[s])
      throw std::invalid_argument("ssr: switch " + std::to_string(s) + " holds destinations but is not in the order");
  return out;
}

std::vector<SsrWorm> ssr_worms(const topo::Topology& t, const topo::UpDownRouting& r,
                               topo::NodeId source, const std::vector<topo::NodeId>& dests,
                               const PocOptions& opt) {
  std::vector<topo::SwitchId> order;
  for (const Poc& c : find_pocs(t, r, source, dests, opt))
    order.insert(order.end(), c.switches.begin(), c.switches.end());
  return ssr_worms(t, source, dests, order);
}

}  // namespace wormcast::algo
