#include "algorithms/reachability.h"

#include <algorithm>
#include <deque>
#include <stdexcept>
#include <string>

#include "algorithms/multicast_set.h"

namespace wormcast::algo {

using topo::PeerKind;
using topo::PortId;
using topo::SwitchId;

ReachabilityTables compute_reachability(const topo::Topology& t, const topo::UpDownRouting& r) {
  const int S = t.num_switches(), N = t.num_nodes(), k = t.ports_per_switch;
  ReachabilityTables out;
  out.switches.resize(S);
  for (SwitchId s = 0; s < S; ++s) {
    SwitchReach& sr = out.switches[s];
    sr.total = NodeBits(N);
    sr.restricted.assign(k, NodeBits(N));
    sr.down_port.assign(k, 0);
    sr.node_port.assign(k, 0);
    for (PortId p = 0; p < k; ++p) {
      const topo::PortPeer& pp = t.peer(s, p);
      sr.node_port[p] = pp.kind == PeerKind::node;
      sr.down_port[p] = pp.kind == PeerKind::node || (pp.kind == PeerKind::switch_port && !r.is_up_port(s, p));
      if (pp.kind == PeerKind::switch_port && r.is_up_port(s, p)) sr.up_ports.push_back(p);
    }
  }
  // Step 1: deepest level first; decreasing id inside a level (see header).
  std::vector<SwitchId> order(S);
  for (SwitchId s = 0; s < S; ++s) order[s] = s;
  std::sort(order.begin(), order.end(), [&](SwitchId a, SwitchId b) {
    return r.level(a) != r.level(b) ? r.level(a) > r.level(b) : a > b;
  });
  for (SwitchId s : order) {
    SwitchReach& sr = out.switches[s];
    for (PortId p = 0; p < k; ++p) {
      const topo::PortPeer& pp = t.peer(s, p);
      if (!sr.down_port[p]) continue;
      if (pp.kind == PeerKind::node) {
        sr.restricted[p].set(pp.id);
        sr.total.set(pp.id);
      } else {
        sr.restricted[p] |= out.switches[pp.id].total;
        sr.total |= out.switches[pp.id].total;
      }
    }
  }
  // Step 2: r_ij &= ~r_ik for j < k, both down; r_ik (k > j) still unrestricted.
  for (SwitchReach& sr : out.switches)
    for (PortId j = 0; j + 1 < k; ++j)
      for (PortId q = j + 1; q < k; ++q)
        if (sr.down_port[j] && sr.down_port[q]) sr.restricted[j].minus(sr.restricted[q]);
  return out;
}

std::vector<TreeBranch> decode_tree_worm(const SwitchReach& sw, topo::Phase arrival, bool up_down,
                                         const NodeBits& dests, std::size_t up_index) {
  if (!dests.any()) throw std::invalid_argument("tree worm: empty destination string");
  if (up_down && arrival == topo::Phase::down_only)
    throw std::invalid_argument("tree worm: up-down bit is 1 on a worm that arrived over a down link");
  const bool all_below = dests.subset_of(sw.total);
  if (up_down && !all_below) {
    if (sw.up_ports.empty())
      throw std::invalid_argument("tree worm: destinations unreachable even from the root");
    return {TreeBranch{sw.up_ports[up_index % sw.up_ports.size()], true, dests, false}};
  }
  if (!all_below) throw std::invalid_argument("tree worm: going down toward destinations this switch cannot reach");
  std::vector<TreeBranch> out;
  for (PortId p = 0; p < static_cast<PortId>(sw.restricted.size()); ++p) {
    if (!sw.down_port[p]) continue;
    NodeBits m = dests & sw.restricted[p];
    if (m.any()) out.push_back(TreeBranch{p, false, std::move(m), sw.node_port[p] != 0});
  }
  return out;
}

TreeTrace run_tree_worm(const topo::Topology& t, const topo::UpDownRouting& r, const ReachabilityTables& tables,
                        topo::NodeId source, const std::vector<topo::NodeId>& dests, std::size_t up_index) {
  check_multicast(t, source, dests);
  TreeTrace tr;
  tr.source = source;
  struct Arrival { SwitchId sw; topo::Phase phase; bool up_down; NodeBits dests; int parent; };
  const topo::PortRef src = t.node_attach[source];
  std::deque<Arrival> work{{src.sw, topo::Phase::may_go_up, true, NodeBits::of(t.num_nodes(), dests), -1}};
  // A correct decode crosses each directed link at most once; the cap turns a bug into an error.
  const std::size_t cap = static_cast<std::size_t>(t.num_switches()) * t.ports_per_switch + 1;
  while (!work.empty()) {
    Arrival a = std::move(work.front());
    work.pop_front();
    for (TreeBranch& b : decode_tree_worm(tables.at(a.sw), a.phase, a.up_down, a.dests, up_index)) {
      if (tr.hops.size() >= cap) throw std::logic_error("tree worm: more hops than directed links");
      tr.hops.push_back({a.sw, b.port, a.parent, b.up_down, b.dests});
      const int me = static_cast<int>(tr.hops.size()) - 1;
      const topo::PortPeer& pp = t.peer(a.sw, b.port);
      if (b.to_node) tr.delivered.push_back(pp.id);
      else work.push_back({pp.id, r.arrival_phase(pp.id, pp.port), b.up_down, std::move(b.dests), me});
    }
  }
  return tr;
}

}  // namespace wormcast::algo
