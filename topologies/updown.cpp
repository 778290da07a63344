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
      auto [it, fresh] = by_mask_.try_emplace(mask, 0);
      if (fresh) it->second = add(ports);
      return it->second;
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

// For each destination switch d: a reverse BFS over the states (switch,
// phase) gives the hops of a minimal legal route to d (either phase at d: the
// node port is a down link, legal in both); then the entry of (s, phase) is
// every legal link port whose next state is one hop closer. O(S * links).
void UpDownRouting::build_tables() {
  const int S = num_switches_;
  auto state = [](SwitchId s, int ph) { return s * kPhases + ph; };
  // Predecessors in the state graph: an up link keeps may_go_up, a down link
  // leads to down_only from either phase.
  std::vector<int> pred_begin(static_cast<std::size_t>(S) * kPhases + 1, 0), pred;
  {
    std::vector<std::vector<int>> lists(static_cast<std::size_t>(S) * kPhases);
    for (SwitchId u = 0; u < S; ++u)
      for (int i = link_begin_[u]; i < link_begin_[u + 1]; ++i) {
        const LinkEnd& e = links_[i];
        if (e.up) {
          lists[state(e.peer, 0)].push_back(state(u, 0));
        } else {
          lists[state(e.peer, 1)].push_back(state(u, 0));
          lists[state(e.peer, 1)].push_back(state(u, 1));
        }
      }
    for (std::size_t x = 0; x < lists.size(); ++x) {
      pred.insert(pred.end(), lists[x].begin(), lists[x].end());
      pred_begin[x + 1] = static_cast<int>(pred.size());
    }
  }

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
        entry_[(static_cast<std::size_t>(s) * kPhases + ph) * S + d] = interners[s].intern(mask, scratch);
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
  const std::size_t i = (static_cast<std::size_t>(s) * kPhases + phase) * num_switches_ + dst_sw;
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
// come from its own FIFO BFS, distances from forward BFS out of every state,
// and routes are followed through the routing's own arrival_phase, as a
// decoder would.

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
      compute_distances();
      for (NodeId d = 0; d < N_; ++d) {
        check_entries(d);
        check_routes(d);
      }
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

  // Per-entry problems are capped (a routing for the wrong topology would
  // list thousands); a dependency cycle is always reported.
  void report(std::string m, bool always = false) {
    if (always || problems_.size() < kMaxProblems) problems_.push_back(std::move(m));
    else ++dropped_;
  }

  bool is_link(SwitchId s, PortId p) const { return t_.peer(s, p).kind == PeerKind::switch_port; }

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
    for (SwitchId s = 0; s < S_; ++s) {
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
        const bool expect = is_link(s, p) && up(s, p);
        if (r_.is_up_port(s, p) != expect)
          report(port_text(s, p) + ": routing says " + (expect ? "down" : "up") + ", expected " +
                 (expect ? "up" : "down"));
      }
    }
  }

  // far_[(u*2+ph)*S + v]: fewest links on a legal up*/down* path from switch u
  // in phase ph to switch v (-1 if none), by forward BFS from every state.
  void compute_distances() {
    far_.assign(static_cast<std::size_t>(S_) * 2 * S_, -1);
    std::vector<int> seen(S_ * 2);
    for (SwitchId u = 0; u < S_; ++u)
      for (int ph = 0; ph < 2; ++ph) {
        int* row = &far_[(static_cast<std::size_t>(u) * 2 + ph) * S_];
        std::fill(seen.begin(), seen.end(), -1);
        std::deque<int> q{u * 2 + ph};
        seen[u * 2 + ph] = 0;
        while (!q.empty()) {
          const int x = q.front();
          q.pop_front();
          const SwitchId s = x / 2;
          const int xph = x % 2;
          if (row[s] < 0) row[s] = seen[x];
          for (PortId p = 0; p < k_; ++p) {
            if (!is_link(s, p)) continue;
            const bool goes_up = up(s, p);
            if (goes_up && xph == 1) continue;
            const int y = t_.peer(s, p).id * 2 + (goes_up ? 0 : 1);
            if (seen[y] < 0) {
              seen[y] = seen[x] + 1;
              q.push_back(y);
            }
          }
        }
      }
  }

  int shortest(SwitchId u, int ph, SwitchId v) const {
    return far_[(static_cast<std::size_t>(u) * 2 + ph) * S_ + v];
  }

  // Every entry is exactly the set of legal first hops of minimal legal routes.
  void check_entries(NodeId d) {
    const PortRef at = t_.node_attach[d];
    for (SwitchId u = 0; u < S_; ++u)
      for (int ph = 0; ph < 2; ++ph) {
        const std::vector<PortId>& got = r_.ports(u, static_cast<Phase>(ph), d);
        const std::string where = "switch " + std::to_string(u) + " phase " + phase_name(ph) +
                                  " dst node " + std::to_string(d) + ": ";
        std::vector<PortId> want;
        const int here = shortest(u, ph, at.sw);
        if (u == at.sw) {
          want.push_back(at.port);
        } else if (here >= 0) {
          for (PortId p = 0; p < k_; ++p) {
            if (!is_link(u, p) || (ph == 1 && up(u, p))) continue;
            if (shortest(t_.peer(u, p).id, up(u, p) ? ph : 1, at.sw) == here - 1) want.push_back(p);
          }
        }
        for (PortId p : got) {
          if (std::find(want.begin(), want.end(), p) != want.end()) continue;
          std::string why;
          if (p < 0 || p >= k_) why = "not a port";
          else if (u == at.sw) why = "the destination is attached here on port " + std::to_string(at.port);
          else if (!is_link(u, p)) why = "not an inter-switch link";
          else if (ph == 1 && up(u, p)) why = "takes an up link after a down link";
          else if (here < 0) why = "the destination is unreachable in this phase";
          else why = "not on a minimal legal route (" + std::to_string(here) + " hops needed)";
          report(where + "port " + std::to_string(p) + " is illegal: " + why);
        }
        for (PortId p : want)
          if (std::find(got.begin(), got.end(), p) == got.end())
            report(where + "missing port " + std::to_string(p) + " of a minimal legal route");
        if (!std::is_sorted(got.begin(), got.end()) ||
            std::adjacent_find(got.begin(), got.end()) != got.end())
          report(where + "ports not in strictly ascending order");
      }
  }

  // Follows every table choice from every source as a decoder would (phase
  // taken from arrival_phase), tracking the true phase alongside. Memoised
  // over (switch, true phase): route length range, or invalid.
  struct Range { int lo = 0, hi = 0; bool ok = true; };

  Range walk(NodeId d, SwitchId u, int ph, int table_ph, std::vector<int>& state_mark,
             std::vector<Range>& memo) {
    const int x = u * 2 + ph;
    if (state_mark[x] == 2) return memo[x];
    if (state_mark[x] == 1) {
      report("dst node " + std::to_string(d) + ": routing loop through switch " + std::to_string(u));
      return {0, 0, false};
    }
    state_mark[x] = 1;
    Range res{0, 0, true};
    const PortRef at = t_.node_attach[d];
    const std::vector<PortId>& choices = r_.ports(u, static_cast<Phase>(table_ph), d);
    if (u == at.sw) {
      res.ok = std::find(choices.begin(), choices.end(), at.port) != choices.end();
    } else if (choices.empty()) {
      report("dst node " + std::to_string(d) + ": no route out of switch " + std::to_string(u) +
             " in phase " + phase_name(table_ph));
      res.ok = false;
    } else {
      bool first = true;
      for (PortId p : choices) {
        if (p < 0 || p >= k_ || !is_link(u, p)) { res.ok = false; continue; }
        if (ph == 1 && up(u, p)) {
          report("dst node " + std::to_string(d) + ": route takes up link " + port_text(u, p) +
                 " after a down link");
          res.ok = false;
          continue;
        }
        const PortPeer& pp = t_.peer(u, p);
        const int next_ph = (ph == 1 || !up(u, p)) ? 1 : 0;
        const int next_table_ph = static_cast<int>(r_.arrival_phase(pp.id, pp.port));
        if (next_table_ph != next_ph)
          report(port_text(pp.id, pp.port) + ": arrival_phase says " + phase_name(next_table_ph) +
                 ", a packet arriving there is " + phase_name(next_ph));
        const Range sub = walk(d, pp.id, next_ph, next_table_ph, state_mark, memo);
        if (!sub.ok) { res.ok = false; continue; }
        res.lo = first ? sub.lo + 1 : std::min(res.lo, sub.lo + 1);
        res.hi = first ? sub.hi + 1 : std::max(res.hi, sub.hi + 1);
        first = false;
      }
      if (first) res.ok = false;
    }
    state_mark[x] = 2;
    memo[x] = res;
    return res;
  }

  void check_routes(NodeId d) {
    const PortRef at = t_.node_attach[d];
    std::vector<int> state_mark(S_ * 2, 0);
    std::vector<Range> memo(S_ * 2);
    for (NodeId src = 0; src < N_; ++src) {
      const PortRef from = t_.node_attach[src];
      const int table_ph = static_cast<int>(r_.arrival_phase(from.sw, from.port));
      if (table_ph != 0)
        report(port_text(from.sw, from.port) + " (node " + std::to_string(src) +
               "): arrival_phase must be may_go_up");
      const Range got = walk(d, from.sw, 0, table_ph, state_mark, memo);
      const int want = shortest(from.sw, 0, at.sw);
      if (!got.ok)
        report("route node " + std::to_string(src) + " -> node " + std::to_string(d) +
               ": some table choice does not reach the destination legally");
      else if (got.lo != want || got.hi != want)
        report("route node " + std::to_string(src) + " -> node " + std::to_string(d) + ": " +
               std::to_string(got.lo) + ".." + std::to_string(got.hi) +
               " hops, shortest legal route has " + std::to_string(want));
    }
  }

  // Channels are directed link traversals, named by (switch, output port).
  // c_in -> c_out when a packet arriving over c_in may, for some destination,
  // be sent on c_out. Up*/down* makes this graph acyclic (Dally & Seitz).
  void check_dependencies() {
    const int C = S_ * k_;
    std::vector<std::vector<int>> next(C);
    std::vector<char> mark(C);
    for (SwitchId n = 0; n < S_; ++n)
      for (PortId q = 0; q < k_; ++q) {
        if (!is_link(n, q)) continue;
        const int c_in = n * k_ + q;
        const PortPeer& pp = t_.peer(n, q);
        const Phase ph = r_.arrival_phase(pp.id, pp.port);
        std::fill(mark.begin(), mark.end(), 0);
        for (NodeId d = 0; d < N_; ++d)
          for (PortId p : r_.ports(pp.id, ph, d)) {
            if (p < 0 || p >= k_ || !is_link(pp.id, p)) continue;
            const int c_out = pp.id * k_ + p;
            if (!mark[c_out]) {
              mark[c_out] = 1;
              next[c_in].push_back(c_out);
            }
          }
      }
    // Iterative DFS; a grey successor closes a cycle.
    std::vector<char> colour(C, 0);
    std::vector<int> from(C, -1);
    for (int start = 0; start < C; ++start) {
      if (colour[start] || next[start].empty()) continue;
      std::vector<std::pair<int, std::size_t>> stack{{start, 0}};
      colour[start] = 1;
      while (!stack.empty()) {
        auto& [c, i] = stack.back();
        if (i == next[c].size()) {
          colour[c] = 2;
          stack.pop_back();
          continue;
        }
        const int n = next[c][i++];
        if (colour[n] == 0) {
          colour[n] = 1;
          from[n] = c;
          stack.push_back({n, 0});
        } else if (colour[n] == 1) {
          std::vector<int> cycle{n};
          for (int x = c; x != n; x = from[x]) cycle.push_back(x);
          cycle.push_back(n);
          std::reverse(cycle.begin(), cycle.end());
          std::string text = "channel dependency cycle:";
          for (std::size_t j = 0; j < cycle.size(); ++j)
            text += (j ? " -> " : " ") + std::string("s") + std::to_string(cycle[j] / k_) + ".p" +
                    std::to_string(cycle[j] % k_);
          report(text, true);
          return;
        }
      }
    }
  }

  const Topology& t_;
  const RoutingView& r_;
  int S_, N_, k_;
  std::vector<int> level_;
  std::vector<int> far_;
  std::vector<std::string> problems_;
  std::size_t dropped_ = 0;
};

}  // namespace

std::vector<std::string> check_updown(const Topology& t, const RoutingView& r) {
  return Checker(t, r).run();
}

}  // namespace detail

std::vector<std::string> check_updown(const Topology& t, const UpDownRouting& r) {
  return detail::check_updown(t, detail::view_of(r));
}

}  // namespace wormcast::topo
