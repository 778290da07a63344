#include "algorithms/worm_check.h"

#include <deque>

namespace wormcast::algo {

using topo::NodeId;
using topo::PeerKind;
using topo::PortId;
using topo::SwitchId;

namespace {

std::string str(int v) { return std::to_string(v); }

// Own BFS levels and the §1.2 direction rule.
class Directions {
 public:
  Directions(const topo::Topology& t, SwitchId root) : t_(t), level_(t.num_switches(), -1) {
    if (root < 0 || root >= t.num_switches()) return;
    level_[root] = 0;
    std::deque<SwitchId> q{root};
    while (!q.empty()) {
      const SwitchId u = q.front();
      q.pop_front();
      for (const topo::PortPeer& pp : t.ports[u])
        if (pp.kind == PeerKind::switch_port && level_[pp.id] < 0) {
          level_[pp.id] = level_[u] + 1;
          q.push_back(pp.id);
        }
    }
  }
  bool valid_port(SwitchId s, PortId p) const {
    return s >= 0 && s < t_.num_switches() && p >= 0 && p < t_.ports_per_switch;
  }
  // Leaving s through switch link p goes up.
  bool up(SwitchId s, PortId p) const {
    const SwitchId n = t_.peer(s, p).id;
    return level_[n] < level_[s] || (level_[n] == level_[s] && n < s);
  }

 private:
  const topo::Topology& t_;
  std::vector<int> level_;
};

bool is_node(const topo::Topology& t, NodeId n) { return n >= 0 && n < t.num_nodes(); }

}  // namespace

std::vector<std::string> check_path_worm(const topo::Topology& t, SwitchId root, const PathWorm& w) {
  std::vector<std::string> bad;
  const Directions dir(t, root);
  if (!is_node(t, w.sender)) return {"path worm: sender " + str(w.sender) + " is not a node"};
  if (w.path.empty() || w.path.front() != t.node_attach[w.sender].sw)
    return {"path worm from node " + str(w.sender) + ": path does not start at the sender's switch"};
  if (w.out_ports.size() + 1 != w.path.size()) return {"path worm: port list does not match the switch path"};
  bool went_down = false;
  for (std::size_t i = 0; i < w.out_ports.size(); ++i) {
    const SwitchId s = w.path[i];
    const PortId p = w.out_ports[i];
    if (!dir.valid_port(s, p) || t.peer(s, p).kind != PeerKind::switch_port || t.peer(s, p).id != w.path[i + 1]) {
      bad.push_back("path worm: switch " + str(s) + " port " + str(p) + " does not lead to switch " + str(w.path[i + 1]));
      return bad;
    }
    if (dir.up(s, p) && went_down)
      bad.push_back("path worm from node " + str(w.sender) + ": up link at switch " + str(s) + " port " + str(p) +
                    " after a down link");
    went_down |= !dir.up(s, p);
  }
  std::vector<char> seen(t.num_nodes(), 0);
  std::size_t at = 0;
  for (NodeId d : w.destinations) {
    if (!is_node(t, d)) { bad.push_back("path worm: destination " + str(d) + " is not a node"); continue; }
    if (seen[d]++) bad.push_back("path worm: destination " + str(d) + " listed twice");
    if (d == w.sender) bad.push_back("path worm: destination " + str(d) + " is the sender");
    while (at < w.path.size() && w.path[at] != t.node_attach[d].sw) ++at;
    if (at == w.path.size()) {
      bad.push_back("path worm from node " + str(w.sender) + ": switch " + str(t.node_attach[d].sw) +
                    " of destination " + str(d) + " not on the path in visiting order");
      return bad;
    }
  }
  if (w.destinations.empty()) bad.push_back("path worm: no destinations");
  return bad;
}

std::vector<std::string> check_tree_trace(const topo::Topology& t, SwitchId root, const TreeTrace& tr,
                                          const std::vector<NodeId>& dests) {
  std::vector<std::string> bad;
  const Directions dir(t, root);
  if (!is_node(t, tr.source)) return {"tree worm: source " + str(tr.source) + " is not a node"};
  std::vector<char> went_down(tr.hops.size(), 0);   // this hop or an ancestor went down
  std::vector<int> copies(t.num_nodes(), 0);
  for (std::size_t i = 0; i < tr.hops.size(); ++i) {
    const TreeHop& h = tr.hops[i];
    const std::string where = "tree worm hop " + str(static_cast<int>(i)) + " (switch " + str(h.sw) + " port " + str(h.port) + ")";
    SwitchId expect = t.node_attach[tr.source].sw;
    bool ancestor_down = false;
    if (h.parent >= static_cast<int>(i)) { bad.push_back(where + ": parent is not an earlier hop"); continue; }
    if (h.parent >= 0) {
      const TreeHop& p = tr.hops[h.parent];
      const topo::PortPeer& pp = t.peer(p.sw, p.port);
      if (pp.kind != PeerKind::switch_port) { bad.push_back(where + ": parent hop ended at a processor"); continue; }
      expect = pp.id;
      ancestor_down = went_down[h.parent];
    }
    if (h.sw != expect || !dir.valid_port(h.sw, h.port)) { bad.push_back(where + ": not at the switch its parent reached"); continue; }
    const topo::PortPeer& out = t.peer(h.sw, h.port);
    if (out.kind == PeerKind::none) { bad.push_back(where + ": open port"); continue; }
    const bool up = out.kind == PeerKind::switch_port && dir.up(h.sw, h.port);
    if (up && ancestor_down) bad.push_back(where + ": up link after a down link");
    went_down[i] = ancestor_down || !up;
    if (out.kind == PeerKind::node) ++copies[out.id];
  }
  std::vector<char> wanted(t.num_nodes(), 0);
  for (NodeId d : dests)
    if (is_node(t, d)) wanted[d] = 1;
  for (NodeId n = 0; n < t.num_nodes(); ++n) {
    if (wanted[n] && copies[n] != 1) bad.push_back("tree worm: destination " + str(n) + " got " + str(copies[n]) + " copies");
    if (!wanted[n] && copies[n] > 0) bad.push_back("tree worm: node " + str(n) + " is not a destination but got a copy");
  }
  return bad;
}

std::vector<std::string> check_schedule(const topo::Topology& t, SwitchId root, const Schedule& s,
                                        const std::vector<NodeId>& dests) {
  std::vector<std::string> bad;
  if (!is_node(t, s.source)) return {"schedule: source " + str(s.source) + " is not a node"};
  std::vector<int> got(t.num_nodes(), -1);   // phase a node received in
  std::vector<int> copies(t.num_nodes(), 0);
  got[s.source] = 0;
  int last_phase = 0;
  for (const ScheduledWorm& w : s.worms) {
    if (w.phase < last_phase) bad.push_back("schedule: worms not in phase order");
    last_phase = w.phase;
    if (!is_node(t, w.sender) || got[w.sender] < 0 || got[w.sender] >= w.phase)
      bad.push_back("schedule: node " + str(w.sender) + " sends in phase " + str(w.phase) + " without the message");
    for (NodeId d : w.destinations) {
      if (!is_node(t, d)) { bad.push_back("schedule: destination " + str(d) + " is not a node"); continue; }
      ++copies[d];
      if (got[d] < 0) got[d] = w.phase;
    }
    if (!w.route.path.empty()) {
      if (w.route.sender != w.sender || w.route.destinations != w.destinations)
        bad.push_back("schedule: route of a phase-" + str(w.phase) + " worm is for another worm");
      for (std::string& p : check_path_worm(t, root, w.route)) bad.push_back(std::move(p));
    }
  }
  if (s.phases != last_phase) bad.push_back("schedule: phase count " + str(s.phases) + ", last worm in phase " + str(last_phase));
  std::vector<char> wanted(t.num_nodes(), 0);
  for (NodeId d : dests)
    if (is_node(t, d)) wanted[d] = 1;
  for (NodeId n = 0; n < t.num_nodes(); ++n) {
    if (wanted[n] && copies[n] != 1) bad.push_back("schedule: destination " + str(n) + " receives " + str(copies[n]) + " times");
    if (!wanted[n] && copies[n] > 0) bad.push_back("schedule: node " + str(n) + " is not a destination but receives");
  }
  return bad;
}

}  // namespace wormcast::algo
