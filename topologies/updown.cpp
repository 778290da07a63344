// Up*/down* routing tables (seed000 §1.2, root choice §10 item 5, adaptive
// minimal ports §10 item 6) and an independent checker for them.
#include "topologies/updown.h"

#include <algorithm>
#include <deque>
#include <map>
#include <stdexcept>
#include <unordered_map>

#include "topologies/updown_check.h"

namespace wormcast::topo {

namespace {

constexpr int kPhases = 2;

int phase_index(Phase ph) { return static_cast<int>(ph); }

// Entries are 16-bit set indices; see UpDownRouting::entry_.
static_assert(2 * kMaxSwitches + 1 <= 0xFFFF, "per-switch set index must fit 16 bits");

// Distinct port sets of one switch, each interned once. Sets are keyed by a
// bit mask over the switch's link ends when it has at most 64 of them (the
// usual case), else by the port list itself.
class SetInterner {
 public:
  SetInterner() { sets_.emplace_back(); }   // index 0: the empty set

  std::uint16_t intern(std::uint64_t mask, const std::vector<PortId>& ports) {
    if (ports.empty()) return 0;
    if (mask != 0) {
      // Consecutive destinations often give a switch the same set.
      if (mask == last_mask_) return last_id_;
      auto [it, fresh] = by_mask_.try_emplace(mask, 0);
      if (fresh) it->second = add(ports);
      last_mask_ = mask;
      return last_id_ = it->second;
    }
    auto [it, fresh] = by_list_.try_emplace(ports, 0);
    if (fresh) it->second = add(ports);
    return it->second;
  }

  std::vector<std::vector<PortId>>& sets() { return sets_; }

 private:
  std::uint16_t add(const std::vector<PortId>& ports) {
    sets_.push_back(ports);
    return static_cast<std::uint16_t>(sets_.size() - 1);
  }

  std::uint64_t last_mask_ = 0;
  std::uint16_t last_id_ = 0;
  std::unordered_map<std::uint64_t, std::uint16_t> by_mask_;
  std::map<std::vector<PortId>, std::uint16_t> by_list_;
  std::vector<std::vector<PortId>> sets_;
};

}  // namespace

UpDownRouting::UpDownRouting(const Topology& t, RootRule rule) {
  t.validate();   // the tables below assume symmetric links and a connected graph
  num_switches_ = t.num_switches();
  num_nodes_ = t.num_nodes();
  ports_per_switch_ = t.ports_per_switch;
  node_attach_ = t.node_attach;
  copy_links(t);
  choose_root(rule);
  build_tree();
  build_tables();
}

void UpDownRouting::copy_links(const Topology& t) {
  link_begin_.assign(static_cast<std::size_t>(num_switches_) + 1, 0);
  for (SwitchId s = 0; s < num_switches_; ++s) {
    for (PortId p = 0; p < ports_per_switch_; ++p) {
      const PortPeer& pp = t.ports[s][p];
      if (pp.kind == PeerKind::switch_port) links_.push_back({p, pp.id, pp.port, false});
    }
    link_begin_[s + 1] = static_cast<int>(links_.size());
  }
}

void UpDownRouting::choose_root(RootRule rule) {
  root_ = 0;
  if (rule != RootRule::max_degree) return;
  int best = -1;
  for (SwitchId s = 0; s < num_switches_; ++s) {
    const int deg = link_begin_[s + 1] - link_begin_[s];
    if (deg > best) best = deg, root_ = s;
  }
}

// The BFS is level-synchronous: the switches of one level are expanded in
// ascending id, each scanning its ports in ascending order. So the tree parent
// of a switch is its lowest-id neighbour one level closer to the root, and
// among parallel links to that parent the tree link is the one on the parent's
// lowest-numbered port. Levels (and hence link directions) do not depend on
// this choice; only tree_parent/is_tree_port (and DOT drawing) do.
void UpDownRouting::build_tree() {
  const int S = num_switches_;
  level_.assign(S, -1);
  parent_.assign(S, -1);
  parent_port_.assign(S, -1);
  level_[root_] = 0;
  std::vector<SwitchId> frontier{root_};
  while (!frontier.empty()) {
    std::sort(frontier.begin(), frontier.end());
    std::vector<SwitchId> next;
    for (SwitchId u : frontier)
      for (int i = link_begin_[u]; i < link_begin_[u + 1]; ++i) {
        const LinkEnd& e = links_[i];
        if (level_[e.peer] >= 0) continue;
        level_[e.peer] = level_[u] + 1;
        parent_[e.peer] = u;
        parent_port_[e.peer] = e.peer_port;
        next.push_back(e.peer);
      }
    frontier.swap(next);
  }
  for (SwitchId s = 0; s < S; ++s)
    for (int i = link_begin_[s]; i < link_begin_[s + 1]; ++i) {
      const SwitchId n = links_[i].peer;
      links_[i].up = level_[n] < level_[s] || (level_[n] == level_[s] && n < s);
    }
}

// Predecessors in the state graph (switch, phase), as CSR: an up link keeps
// may_go_up, a down link leads to down_only from either phase.
void UpDownRouting::state_predecessors(std::vector<int>& begin, std::vector<int>& pred) const {
  auto state = [](SwitchId s, int ph) { return s * kPhases + ph; };
  std::vector<std::vector<int>> lists(static_cast<std::size_t>(num_switches_) * kPhases);
  for (SwitchId u = 0; u < num_switches_; ++u)
    for (int i = link_begin_[u]; i < link_begin_[u + 1]; ++i) {
      const LinkEnd& e = links_[i];
      if (e.up) {
        lists[state(e.peer, 0)].push_back(state(u, 0));
      } else {
        lists[state(e.peer, 1)].push_back(state(u, 0));
        lists[state(e.peer, 1)].push_back(state(u, 1));
      }
    }
  begin.assign(lists.size() + 1, 0);
  pred.clear();
  for (std::size_t x = 0; x < lists.size(); ++x) {
    pred.insert(pred.end(), lists[x].begin(), lists[x].end());
    begin[x + 1] = static_cast<int>(pred.size());
  }
}

// For each destination switch d: a reverse BFS over the states (switch,
// phase) gives the hops of a minimal legal route to d (either phase at d: the
// node port is a down link, legal in both); then the entry of (s, phase) is
// every legal link port whose next state is one hop closer. O(S * links).
void UpDownRouting::build_tables() {
  const int S = num_switches_;
  auto state = [](SwitchId s, int ph) { return s * kPhases + ph; };
  std::vector<int> pred_begin, pred;
  state_predecessors(pred_begin, pred);

  std::vector<SetInterner> interners(S);
  entry_.assign(static_cast<std::size_t>(S) * kPhases * S, 0);
  std::vector<int> dist(static_cast<std::size_t>(S) * kPhases), queue;
  std::vector<PortId> scratch;
  for (SwitchId d = 0; d < S; ++d) {
    std::fill(dist.begin(), dist.end(), -1);
    queue.assign({state(d, 0), state(d, 1)});
    dist[state(d, 0)] = dist[state(d, 1)] = 0;
    for (std::size_t head = 0; head < queue.size(); ++head) {
      const int x = queue[head];
      for (int j = pred_begin[x]; j < pred_begin[x + 1]; ++j)
        if (dist[pred[j]] < 0) {
          dist[pred[j]] = dist[x] + 1;
          queue.push_back(pred[j]);
        }
    }
    for (SwitchId s = 0; s < S; ++s) {
      if (s == d) continue;   // answered by the node's port, see ports()
      for (int ph = 0; ph < kPhases; ++ph) {
        const int here = dist[state(s, ph)];
        if (here < 0) continue;
        const int first = link_begin_[s], deg = link_begin_[s + 1] - first;
        std::uint64_t mask = 0;
        scratch.clear();
        for (int i = 0; i < deg; ++i) {
          const LinkEnd& e = links_[first + i];
          if (e.up && ph == 1) continue;   // never up after down
          if (dist[state(e.peer, e.up ? 0 : 1)] != here - 1) continue;
          scratch.push_back(e.port);
          if (deg <= 64) mask |= std::uint64_t{1} << i;
        }
        entry_[(static_cast<std::size_t>(d) * S + s) * kPhases + ph] = interners[s].intern(mask, scratch);
      }
    }
  }

  // Flatten the per-switch lists; node ports become shared singleton sets.
  set_base_.assign(S, 0);
  sets_.clear();
  for (SwitchId s = 0; s < S; ++s) {
    set_base_[s] = static_cast<std::uint32_t>(sets_.size());
    for (auto& v : interners[s].sets()) sets_.push_back(std::move(v));
    interners[s] = SetInterner();
  }
  std::map<PortId, std::uint32_t> singleton;
  node_set_.assign(num_nodes_, 0);
  for (NodeId n = 0; n < num_nodes_; ++n) {
    const PortId p = node_attach_[n].port;
    auto [it, fresh] = singleton.try_emplace(p, static_cast<std::uint32_t>(sets_.size()));
    if (fresh) sets_.push_back({p});
    node_set_[n] = it->second;
  }
}

int UpDownRouting::max_level() const {
  return level_.empty() ? 0 : *std::max_element(level_.begin(), level_.end());
}

const UpDownRouting::LinkEnd* UpDownRouting::link_end(SwitchId s, PortId p) const {
  if (s < 0 || s >= num_switches_ || p < 0 || p >= ports_per_switch_)
    throw std::out_of_range("UpDownRouting: switch " + std::to_string(s) + " port " + std::to_string(p) +
                            " out of range");
  const auto first = links_.begin() + link_begin_[s], last = links_.begin() + link_begin_[s + 1];
  const auto it = std::lower_bound(first, last, p, [](const LinkEnd& e, PortId q) { return e.port < q; });
  return it != last && it->port == p ? &*it : nullptr;
}

const std::vector<PortId>& UpDownRouting::entry(SwitchId s, int phase, SwitchId dst_sw) const {
  const std::size_t i = (static_cast<std::size_t>(dst_sw) * num_switches_ + s) * kPhases + phase;
  return sets_[set_base_[s] + entry_[i]];
}

bool UpDownRouting::is_up_port(SwitchId s, PortId p) const {
  const LinkEnd* e = link_end(s, p);
  return e && e->up;
}

bool UpDownRouting::is_tree_port(SwitchId s, PortId p) const {
  const LinkEnd* e = link_end(s, p);
  if (!e) return false;
  return (parent_[s] == e->peer && parent_port_[s] == p) ||
         (parent_[e->peer] == s && parent_port_[e->peer] == e->peer_port);
}

// Nothing arrives on an open port; it is reported as may_go_up like a node
// port rather than throwing, since the answer is never used.
Phase UpDownRouting::arrival_phase(SwitchId s, PortId p) const {
  // Leaving s through p goes up exactly when arriving through p came down.
  const LinkEnd* e = link_end(s, p);
  return e && e->up ? Phase::down_only : Phase::may_go_up;
}

const std::vector<PortId>& UpDownRouting::ports(SwitchId s, Phase ph, NodeId dst) const {
  if (s < 0 || s >= num_switches_ || dst < 0 || dst >= num_nodes_)
    throw std::out_of_range("UpDownRouting::ports: switch " + std::to_string(s) + " or node " +
                            std::to_string(dst) + " out of range");
  const PortRef at = node_attach_[dst];
  if (at.sw == s) return sets_[node_set_[dst]];
  return entry(s, phase_index(ph), at.sw);
}

void UpDownRouting::ports_to(NodeId dst, std::vector<const std::vector<PortId>*>& out) const {
  if (dst < 0 || dst >= num_nodes_)
    throw std::out_of_range("UpDownRouting::ports_to: node " + std::to_string(dst) + " out of range");
  const PortRef at = node_attach_[dst];
  out.resize(static_cast<std::size_t>(num_switches_) * kPhases);
  for (SwitchId s = 0; s < num_switches_; ++s)
    for (int ph = 0; ph < kPhases; ++ph)
      out[static_cast<std::size_t>(s) * kPhases + ph] = s == at.sw ? &sets_[node_set_[dst]] : &entry(s, ph, at.sw);
}

// No distance matrix is kept: the tables hold exactly the first hops of
// minimal routes, so following any of them counts the hops.
int UpDownRouting::distance(SwitchId s, Phase ph, SwitchId dst_sw) const {
  if (s < 0 || s >= num_switches_)
    throw std::out_of_range("UpDownRouting::distance: switch " + std::to_string(s) + " out of range");
  if (dst_sw < 0 || dst_sw >= num_switches_)
    throw std::out_of_range("UpDownRouting::distance: switch " + std::to_string(dst_sw) + " out of range");
  int hops = 0, phase = phase_index(ph);
  for (SwitchId at = s; at != dst_sw; ++hops) {
    const std::vector<PortId>& next = entry(at, phase, dst_sw);
    if (next.empty()) return -1;
    const LinkEnd* e = link_end(at, next.front());
    if (!e->up) phase = 1;
    at = e->peer;
  }
  return hops;
}

// ---------------------------------------------------------------------------
// Checker. Deliberately shares nothing with the construction above: levels
// come from its own FIFO BFS, "up" from its own rule, distances from its own
// BFS over the inverse of its own step() (not the builder's predecessor
// lists), and routes are followed through the routing's own arrival_phase, as
// a decoder would.

namespace detail {

RoutingView view_of(const UpDownRouting& r) {
  RoutingView v;
  v.root = [&r] { return r.root(); };
  v.level = [&r](SwitchId s) { return r.level(s); };
  v.tree_parent = [&r](SwitchId s) { return r.tree_parent(s); };
  v.is_up_port = [&r](SwitchId s, PortId p) { return r.is_up_port(s, p); };
  v.arrival_phase = [&r](SwitchId s, PortId p) { return r.arrival_phase(s, p); };
  v.ports = [&r](SwitchId s, Phase ph, NodeId d) -> const std::vector<PortId>& {
    return r.ports(s, ph, d);
  };
  return v;
}

namespace {

const char* phase_name(int ph) { return ph == 0 ? "may_go_up" : "down_only"; }

std::string port_text(SwitchId s, PortId p) {
  return "switch " + std::to_string(s) + " port " + std::to_string(p);
}

// The checker reads the topology's port map and the routing's answers only.
// It is exact: every entry of every (switch, phase, destination node) is
// compared with the set of legal first hops of minimal legal routes, every
// route from every source is followed as a decoder would, and the channel
// dependency graph is searched for a cycle. It is near-linear in the size of
// the tables: distances come from one reverse BFS per destination *switch*
// (O(S * links) in all), the expected entries are computed once per
// destination switch and compared with each of its nodes' entries, routes are
// followed once per (destination, source switch), and the dependency graph is
// built from the union of the entries per (switch, phase).
class Checker {
 public:
  Checker(const Topology& t, const RoutingView& r)
      : t_(t), r_(r), S_(t.num_switches()), N_(t.num_nodes()), k_(t.ports_per_switch) {}

  std::vector<std::string> run() {
    try {
      t_.validate();
    } catch (const TopologyError& e) {
      return {std::string("topology is invalid: ") + e.what()};
    }
    try {
      check_structure();
      index_links();
      check_tables();
      check_dependencies();
    } catch (const std::exception& e) {
      // A routing built for another topology indexes out of range.
      report(std::string("routing does not match the topology: ") + e.what());
    }
    if (dropped_ > 0) problems_.push_back("... and " + std::to_string(dropped_) + " more problems");
    return problems_;
  }

 private:
  static constexpr std::size_t kMaxProblems = 50;

  // An inter-switch link end: leaving `sw` through `port` reaches `peer`.
  struct End {
    SwitchId sw;
    PortId port;
    SwitchId peer;
    bool up;                // own direction, from check_structure's levels
    int arrival_table_ph;   // the routing's arrival_phase at the far end
  };

  // Per-entry problems are capped (a routing for the wrong topology would
  // list thousands); a dependency cycle is always reported.
  void report(std::string m, bool always = false) {
    if (always || problems_.size() < kMaxProblems) problems_.push_back(std::move(m));
    else ++dropped_;
  }

  // Own definition of the "up" direction (seed000 §1.2).
  bool up(SwitchId s, PortId p) const {
    const SwitchId n = t_.peer(s, p).id;
    return level_[n] < level_[s] || (level_[n] == level_[s] && n < s);
  }

  void check_structure() {
    const SwitchId root = r_.root();
    if (root < 0 || root >= S_) {
      report("root " + std::to_string(root) + " is not a switch");
      throw std::out_of_range("root");
    }
    level_.assign(S_, -1);
    level_[root] = 0;
    std::deque<SwitchId> q{root};
    while (!q.empty()) {
      const SwitchId u = q.front();
      q.pop_front();
      for (const PortPeer& pp : t_.ports[u])
        if (pp.kind == PeerKind::switch_port && level_[pp.id] < 0) {
          level_[pp.id] = level_[u] + 1;
          q.push_back(pp.id);
        }
    }
    for (SwitchId s = 0; s < S_; ++s) check_switch(s, root);
  }

  void check_switch(SwitchId s, SwitchId root) {
    if (r_.level(s) != level_[s])
      report("switch " + std::to_string(s) + ": level " + std::to_string(r_.level(s)) +
             ", BFS from root " + std::to_string(root) + " gives " + std::to_string(level_[s]));
    const SwitchId par = r_.tree_parent(s);
    if (s == root) {
      if (par != -1) report("root switch " + std::to_string(s) + " has tree parent " + std::to_string(par));
    } else {
      bool adjacent = false;
      for (const PortPeer& pp : t_.ports[s]) adjacent |= pp.kind == PeerKind::switch_port && pp.id == par;
      if (!adjacent || level_[par] != level_[s] - 1)
        report("switch " + std::to_string(s) + ": tree parent " + std::to_string(par) +
               " is not a neighbour one level closer to the root");
    }
    for (PortId p = 0; p < k_; ++p) {
      const bool expect = t_.peer(s, p).kind == PeerKind::switch_port && up(s, p);
      if (r_.is_up_port(s, p) != expect)
        report(port_text(s, p) + ": routing says " + (expect ? "down" : "up") + ", expected " +
               (expect ? "up" : "down"));
    }
  }

  // Link ends of switch s: ends_[begin_[s] .. begin_[s+1]), ascending port.
  void index_links() {
    begin_.assign(S_ + 1, 0);
    for (SwitchId s = 0; s < S_; ++s) {
      for (PortId p = 0; p < k_; ++p) {
        const PortPeer& pp = t_.peer(s, p);
        if (pp.kind != PeerKind::switch_port) continue;
        ends_.push_back({s, p, pp.id, up(s, p), static_cast<int>(r_.arrival_phase(pp.id, pp.port))});
        const End& e = ends_.back();
        arrivals_ok_ &= e.arrival_table_ph == (e.up ? 0 : 1);
      }
      begin_[s + 1] = static_cast<int>(ends_.size());
    }
    back_.resize(ends_.size());
    for (std::size_t i = 0; i < ends_.size(); ++i) {
      const PortPeer& far = t_.peer(ends_[i].sw, ends_[i].port);
      back_[i] = end_of(far.id, far.port);
    }
  }

  // Index of the link end of s on port p, or -1 (not a port, not a link).
  int end_of(SwitchId s, PortId p) const {
    const auto first = ends_.begin() + begin_[s], last = ends_.begin() + begin_[s + 1];
    const auto it = std::lower_bound(first, last, p, [](const End& e, PortId q) { return e.port < q; });
    return it != last && it->port == p ? static_cast<int>(it - ends_.begin()) : -1;
  }

  // State reached by leaving (s, ph) through link end e; -1 if that would
  // take an up link after a down link.
  int step(int ph, const End& e) const {
    if (e.up && ph == 1) return -1;
    return e.peer * 2 + (e.up ? 0 : 1);
  }

  void check_tables() {
    group_sources();
    // Destination switches in order of their lowest node id, so reports come
    // in destination-node order for generated topologies.
    std::vector<std::vector<NodeId>> nodes_of(S_);
    std::vector<SwitchId> order;
    for (NodeId d = 0; d < N_; ++d) {
      const SwitchId sw = t_.node_attach[d].sw;
      if (nodes_of[sw].empty()) order.push_back(sw);
      nodes_of[sw].push_back(d);
    }
    got_.assign(static_cast<std::size_t>(S_) * 2, nullptr);
    union_.assign(static_cast<std::size_t>(S_) * 2, {});
    in_union_.assign(ends_.size() * 2, 0);
    for (SwitchId v : order) {
      distances_to(v);
      expected_entries(v);
      matched_.assign(static_cast<std::size_t>(S_) * 2, nullptr);
      for (NodeId d : nodes_of[v]) check_routes(d, check_entries(d));
      for (int x = 0; x < S_ * 2; ++x)
        if (matched_[x])
          for (int j = want_begin_[x]; j < want_begin_[x + 1]; ++j) add_dependency(x, want_[j]);
    }
  }

  // dist_[u*2+ph]: fewest links on a legal up*/down* path from switch u in
  // phase ph to switch v (-1 if none). Reverse BFS: a state precedes y when
  // one legal step (see step()) leads from it to y.
  void distances_to(SwitchId v) {
    dist_.assign(static_cast<std::size_t>(S_) * 2, -1);
    queue_.assign({v * 2, v * 2 + 1});
    dist_[v * 2] = dist_[v * 2 + 1] = 0;
    for (std::size_t head = 0; head < queue_.size(); ++head) {
      const int y = queue_[head];
      const SwitchId w = y / 2;
      for (int i = begin_[w]; i < begin_[w + 1]; ++i) {
        const End& e = ends_[back_[i]];   // the far end, leaving switch e.sw toward w
        for (int ph = 0; ph < 2; ++ph) {
          const int x = e.sw * 2 + ph;
          if (step(ph, e) == y && dist_[x] < 0) {
            dist_[x] = dist_[y] + 1;
            queue_.push_back(x);
          }
        }
      }
    }
  }

  // want_[want_begin_[x] ..): the link ends (ascending port) of the legal first
  // hops of minimal legal routes from state x to switch v; empty at v.
  void expected_entries(SwitchId v) {
    want_begin_.assign(static_cast<std::size_t>(S_) * 2 + 1, 0);
    want_.clear();
    for (int x = 0; x < S_ * 2; ++x) {
      const SwitchId u = x / 2;
      const int here = dist_[x];
      if (u != v && here > 0)
        for (int i = begin_[u]; i < begin_[u + 1]; ++i) {
          const int y = step(x % 2, ends_[i]);
          if (y >= 0 && dist_[y] == here - 1) want_.push_back(i);
        }
      want_begin_[x + 1] = static_cast<int>(want_.size());
    }
  }

  // got_[x] = &ports(x / 2, x % 2, d) for every state x: all at once when
  // the routing offers ports_to (the same list objects), else entry by entry.
  void read_entries(NodeId d) {
    if (r_.ports_to) {
      r_.ports_to(d, got_);
      if (got_.size() != static_cast<std::size_t>(S_) * 2)
        throw std::out_of_range("ports_to gave " + std::to_string(got_.size()) + " entries for " +
                                std::to_string(S_) + " switches");
      return;
    }
    for (int x = 0; x < S_ * 2; ++x) got_[x] = &r_.ports(x / 2, static_cast<Phase>(x % 2), d);
  }

  // Every entry is exactly the set of legal first hops of minimal legal routes.
  // Returns true if every entry for d is as expected.
  bool check_entries(NodeId d) {
    const PortRef at = t_.node_attach[d];
    read_entries(d);
    bool all_ok = true;
    for (int x = 0; x < S_ * 2; ++x) {
      const std::vector<PortId>& got = *got_[x];
      const SwitchId u = x / 2;
      if (u == at.sw) {
        if (got.size() == 1 && got[0] == at.port) continue;
      } else {
        // The same list object as an entry already found right is right.
        if (&got == matched_[x]) continue;
        const int n = want_begin_[x + 1] - want_begin_[x];
        bool same = static_cast<int>(got.size()) == n;
        for (int j = 0; same && j < n; ++j) same = got[j] == ends_[want_[want_begin_[x] + j]].port;
        if (same) {
          matched_[x] = &got;
          continue;
        }
      }
      all_ok = false;
      entry_differs(d, x, got);
    }
    return all_ok;
  }

  void entry_differs(NodeId d, int x, const std::vector<PortId>& got) {
    const PortRef at = t_.node_attach[d];
    const SwitchId u = x / 2;
    std::vector<PortId> want;
    if (u == at.sw) want.push_back(at.port);
    else
      for (int j = want_begin_[x]; j < want_begin_[x + 1]; ++j) want.push_back(ends_[want_[j]].port);
    report_entry(d, u, x % 2, got, want);
    for (PortId p : got) {
      const int e = p >= 0 && p < k_ ? end_of(u, p) : -1;
      if (e >= 0) add_dependency(x, e);
    }
  }

  void report_entry(NodeId d, SwitchId u, int ph, const std::vector<PortId>& got,
                    const std::vector<PortId>& want) {
    const PortRef at = t_.node_attach[d];
    const std::string where = "switch " + std::to_string(u) + " phase " + phase_name(ph) + " dst node " +
                              std::to_string(d) + ": ";
    const int here = dist_[u * 2 + ph];
    for (PortId p : got) {
      if (std::find(want.begin(), want.end(), p) != want.end()) continue;
      std::string why;
      const bool link = p >= 0 && p < k_ && t_.peer(u, p).kind == PeerKind::switch_port;
      if (p < 0 || p >= k_) why = "not a port";
      else if (u == at.sw) why = "the destination is attached here on port " + std::to_string(at.port);
      else if (!link) why = "not an inter-switch link";
      else if (ph == 1 && up(u, p)) why = "takes an up link after a down link";
      else if (here < 0) why = "the destination is unreachable in this phase";
      else why = "not on a minimal legal route (" + std::to_string(here) + " hops needed)";
      report(where + "port " + std::to_string(p) + " is illegal: " + why);
    }
    for (PortId p : want)
      if (std::find(got.begin(), got.end(), p) == got.end())
        report(where + "missing port " + std::to_string(p) + " of a minimal legal route");
    if (!std::is_sorted(got.begin(), got.end()) || std::adjacent_find(got.begin(), got.end()) != got.end())
      report(where + "ports not in strictly ascending order");
  }

  // Channel dependency: a packet in state x (at its switch, in that table
  // phase) may leave through link end e for some destination.
  void add_dependency(int x, int e) {
    char& seen = in_union_[static_cast<std::size_t>(e) * 2 + x % 2];
    if (seen) return;
    seen = 1;
    union_[x].push_back(e);
  }

  // Sources with the same switch and arrival phase take the same routes, so
  // routes are followed once per group.
  struct SourceGroup {
    SwitchId sw;
    int table_ph;
    std::vector<NodeId> nodes;
  };

  void group_sources() {
    std::vector<int> group_of(static_cast<std::size_t>(S_) * 2, -1);
    for (NodeId src = 0; src < N_; ++src) {
      const PortRef from = t_.node_attach[src];
      const int table_ph = static_cast<int>(r_.arrival_phase(from.sw, from.port));
      if (table_ph != 0) {
        arrivals_ok_ = false;
        report(port_text(from.sw, from.port) + " (node " + std::to_string(src) +
               "): arrival_phase must be may_go_up");
      }
      int& g = group_of[from.sw * 2 + table_ph];
      if (g < 0) {
        g = static_cast<int>(groups_.size());
        groups_.push_back({from.sw, table_ph, {}});
      }
      groups_[g].nodes.push_back(src);
    }
  }

  // Follows every table choice from (u, true phase ph) as a decoder would
  // (table phase from arrival_phase), tracking the true phase alongside.
  // Memoised over (switch, true phase) per destination: route length range,
  // or invalid.
  struct Range { int lo = 0, hi = 0; bool ok = true; };

  Range walk(NodeId d, SwitchId u, int ph, int table_ph) {
    const int x = u * 2 + ph;
    if (mark_[x] == 2) return memo_[x];
    if (mark_[x] == 1) {
      report("dst node " + std::to_string(d) + ": routing loop through switch " + std::to_string(u));
      return {0, 0, false};
    }
    mark_[x] = 1;
    Range res{0, 0, true};
    const PortRef at = t_.node_attach[d];
    const std::vector<PortId>& choices = *got_[u * 2 + table_ph];
    if (u == at.sw) {
      res.ok = std::find(choices.begin(), choices.end(), at.port) != choices.end();
    } else if (choices.empty()) {
      report("dst node " + std::to_string(d) + ": no route out of switch " + std::to_string(u) +
             " in phase " + phase_name(table_ph));
      res.ok = false;
    } else {
      res = walk_choices(d, u, ph, choices);
    }
    mark_[x] = 2;
    memo_[x] = res;
    return res;
  }

  Range walk_choices(NodeId d, SwitchId u, int ph, const std::vector<PortId>& choices) {
    Range res{0, 0, true};
    bool first = true;
    for (PortId p : choices) {
      const int i = p >= 0 && p < k_ ? end_of(u, p) : -1;
      if (i < 0) { res.ok = false; continue; }
      const End& e = ends_[i];
      if (ph == 1 && e.up) {
        report("dst node " + std::to_string(d) + ": route takes up link " + port_text(u, p) +
               " after a down link");
        res.ok = false;
        continue;
      }
      const PortPeer& pp = t_.peer(u, p);
      const int next_ph = (ph == 1 || !e.up) ? 1 : 0;
      if (e.arrival_table_ph != next_ph)
        report(port_text(pp.id, pp.port) + ": arrival_phase says " + phase_name(e.arrival_table_ph) +
               ", a packet arriving there is " + phase_name(next_ph));
      const Range sub = walk(d, pp.id, next_ph, e.arrival_table_ph);
      if (!sub.ok) { res.ok = false; continue; }
      res.lo = first ? sub.lo + 1 : std::min(res.lo, sub.lo + 1);
      res.hi = first ? sub.hi + 1 : std::max(res.hi, sub.hi + 1);
      first = false;
    }
    if (first) res.ok = false;
    return res;
  }

  // When every entry for d equals the expected set and every arrival phase is
  // right, each hop of a followed route lowers the distance by exactly one,
  // so every route from a source that can reach d is minimal and legal:
  // following them could find nothing. They are followed for every other
  // destination (and for sources that cannot reach d).
  void check_routes(NodeId d, bool entries_ok) {
    if (entries_ok && arrivals_ok_ &&
        std::all_of(groups_.begin(), groups_.end(), [&](const SourceGroup& g) { return dist_[g.sw * 2] >= 0; }))
      return;
    mark_.assign(static_cast<std::size_t>(S_) * 2, 0);
    memo_.assign(static_cast<std::size_t>(S_) * 2, Range{});
    for (const SourceGroup& g : groups_) {
      const Range got = walk(d, g.sw, 0, g.table_ph);
      const int want = dist_[g.sw * 2];
      if (got.ok && got.lo == want && got.hi == want) continue;
      for (NodeId src : g.nodes) {
        if (!got.ok)
          report("route node " + std::to_string(src) + " -> node " + std::to_string(d) +
                 ": some table choice does not reach the destination legally");
        else
          report("route node " + std::to_string(src) + " -> node " + std::to_string(d) + ": " +
                 std::to_string(got.lo) + ".." + std::to_string(got.hi) +
                 " hops, shortest legal route has " + std::to_string(want));
      }
    }
  }

  // Channels are directed link traversals (link ends). c_in -> c_out when a
  // packet arriving over c_in may, for some destination, be sent on c_out.
  // Up*/down* makes this graph acyclic (Dally & Seitz).
  void check_dependencies() {
    const int C = static_cast<int>(ends_.size());
    auto next = [&](int c) -> const std::vector<int>& {
      return union_[ends_[c].peer * 2 + ends_[c].arrival_table_ph];
    };
    // Iterative DFS; a grey successor closes a cycle.
    std::vector<char> colour(C, 0);
    std::vector<int> from(C, -1);
    for (int start = 0; start < C; ++start) {
      if (colour[start] || next(start).empty()) continue;
      std::vector<std::pair<int, std::size_t>> stack{{start, 0}};
      colour[start] = 1;
      while (!stack.empty()) {
        auto& [c, i] = stack.back();
        if (i == next(c).size()) {
          colour[c] = 2;
          stack.pop_back();
          continue;
        }
        const int n = next(c)[i++];
        if (colour[n] == 0) {
          colour[n] = 1;
          from[n] = c;
          stack.push_back({n, 0});
        } else if (colour[n] == 1) {
          report_cycle(n, c, from);
          return;
        }
      }
    }
  }

  void report_cycle(int n, int c, const std::vector<int>& from) {
    std::vector<int> cycle{n};
    for (int x = c; x != n; x = from[x]) cycle.push_back(x);
    cycle.push_back(n);
    std::reverse(cycle.begin(), cycle.end());
    std::string text = "channel dependency cycle:";
    for (std::size_t j = 0; j < cycle.size(); ++j)
      text += (j ? " -> " : " ") + std::string("s") + std::to_string(ends_[cycle[j]].sw) + ".p" +
              std::to_string(ends_[cycle[j]].port);
    report(text, true);
  }

  const Topology& t_;
  const RoutingView& r_;
  int S_, N_, k_;
  std::vector<int> level_;
  std::vector<int> begin_;
  std::vector<End> ends_;
  std::vector<int> back_;   // [end]: the other end of its link
  std::vector<SourceGroup> groups_;
  bool arrivals_ok_ = true;   // every arrival_phase answer is the true phase
  std::vector<int> dist_, queue_;
  std::vector<int> want_begin_, want_;        // expected entries toward one switch
  std::vector<const std::vector<PortId>*> matched_;   // [state]: an entry found equal to want
  std::vector<const std::vector<PortId>*> got_;   // [state]: entries for one node
  std::vector<std::vector<int>> union_;       // [state]: link ends used by some entry
  std::vector<char> in_union_;                // [end * 2 + phase]
  std::vector<int> mark_;
  std::vector<Range> memo_;
  std::vector<std::string> problems_;
  std::size_t dropped_ = 0;
};

}  // namespace

std::vector<std::string> check_updown(const Topology& t, const RoutingView& r) {
  return Checker(t, r).run();
}

}  // namespace detail

std::vector<std::string> check_updown(const Topology& t, const UpDownRouting& r) {
  detail::RoutingView v = detail::view_of(r);
  v.ports_to = [&r](NodeId d, std::vector<const std::vector<PortId>*>& out) { r.ports_to(d, out); };
  return detail::check_updown(t, v);
}

}  // namespace wormcast::topo
