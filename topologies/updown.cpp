// Up*/down* routing tables (seed000 §1.2, root choice §10 item 5, adaptive
// minimal ports §10 item 6) and an independent checker for them.
#include "topologies/updown.h"

#include <algorithm>
#include <deque>
#include <stdexcept>

#include "topologies/updown_check.h"

namespace wormcast::topo {

namespace {

constexpr int kPhases = 2;

int phase_index(Phase ph) { return static_cast<int>(ph); }

const std::vector<PortId>& empty_ports() {
  static const std::vector<PortId> empty;
  return empty;
}

}  // namespace

// The BFS is level-synchronous: the switches of one level are expanded in
// ascending id, each scanning its ports in ascending order. So the tree parent
// of a switch is its lowest-id neighbour one level closer to the root, and
// among parallel links to that parent the tree link is the one on the parent's
// lowest-numbered port. Levels (and hence link directions) do not depend on
// this choice; only tree_parent/is_tree_port (and DOT drawing) do.
UpDownRouting::UpDownRouting(const Topology& t, RootRule rule) {
  t.validate();   // the tables below assume symmetric links and a connected graph
  ports_ = t.ports;
  node_attach_ = t.node_attach;
  num_switches_ = t.num_switches();
  num_nodes_ = t.num_nodes();
  const int S = num_switches_, N = num_nodes_, k = t.ports_per_switch;

  root_ = 0;
  if (rule == RootRule::max_degree) {
    int best = -1;
    for (SwitchId s = 0; s < S; ++s) {
      const int deg = static_cast<int>(std::count_if(ports_[s].begin(), ports_[s].end(), [](const PortPeer& p) {
        return p.kind == PeerKind::switch_port;
      }));
      if (deg > best) best = deg, root_ = s;
    }
  }

  level_.assign(S, -1);
  parent_.assign(S, -1);
  parent_port_.assign(S, -1);
  level_[root_] = 0;
  std::vector<SwitchId> frontier{root_};
  while (!frontier.empty()) {
    std::sort(frontier.begin(), frontier.end());
    std::vector<SwitchId> next;
    for (SwitchId u : frontier)
      for (PortId p = 0; p < k; ++p) {
        const PortPeer& pp = ports_[u][p];
        if (pp.kind != PeerKind::switch_port || level_[pp.id] >= 0) continue;
        level_[pp.id] = level_[u] + 1;
        parent_[pp.id] = u;
        parent_port_[pp.id] = pp.port;
        next.push_back(pp.id);
      }
    frontier.swap(next);
  }

  up_port_.assign(S, std::vector<char>(k, 0));
  for (SwitchId s = 0; s < S; ++s)
    for (PortId p = 0; p < k; ++p) {
      const PortPeer& pp = ports_[s][p];
      if (pp.kind != PeerKind::switch_port) continue;
      const SwitchId n = pp.id;
      up_port_[s][p] = level_[n] < level_[s] || (level_[n] == level_[s] && n < s);
    }

  // Predecessors in the state graph (switch, phase): an up link keeps
  // may_go_up, a down link leads to down_only from either phase.
  std::vector<std::vector<int>> pred(S * kPhases);
  auto state = [](SwitchId s, int ph) { return s * kPhases + ph; };
  for (SwitchId u = 0; u < S; ++u)
    for (PortId p = 0; p < k; ++p) {
      const PortPeer& pp = ports_[u][p];
      if (pp.kind != PeerKind::switch_port) continue;
      if (up_port_[u][p]) {
        pred[state(pp.id, 0)].push_back(state(u, 0));
      } else {
        pred[state(pp.id, 1)].push_back(state(u, 0));
        pred[state(pp.id, 1)].push_back(state(u, 1));
      }
    }

  // Reverse BFS from "at the destination switch" (either phase: the node port
  // is a down link, legal in both).
  dist_.assign(S, std::vector<int>(S * kPhases, -1));
  std::deque<int> queue;
  for (SwitchId d = 0; d < S; ++d) {
    std::vector<int>& dist = dist_[d];
    for (int ph = 0; ph < kPhases; ++ph) {
      dist[state(d, ph)] = 0;
      queue.push_back(state(d, ph));
    }
    while (!queue.empty()) {
      const int x = queue.front();
      queue.pop_front();
      for (int y : pred[x])
        if (dist[y] < 0) {
          dist[y] = dist[x] + 1;
          queue.push_back(y);
        }
    }
  }

  table_.assign(static_cast<std::size_t>(S) * kPhases * N, {});
  for (SwitchId s = 0; s < S; ++s)
    for (int ph = 0; ph < kPhases; ++ph)
      for (NodeId dst = 0; dst < N; ++dst) {
        std::vector<PortId>& entry = table_[(static_cast<std::size_t>(s) * kPhases + ph) * N + dst];
        const PortRef at = node_attach_[dst];
        if (at.sw == s) {
          entry.push_back(at.port);
          continue;
        }
        const std::vector<int>& dist = dist_[at.sw];
        const int here = dist[state(s, ph)];
        if (here < 0) continue;
        for (PortId p = 0; p < k; ++p) {
          const PortPeer& pp = ports_[s][p];
          if (pp.kind != PeerKind::switch_port) continue;
          const bool up = up_port_[s][p];
          if (up && ph == 1) continue;   // never up after down
          const int next_ph = up ? 0 : 1;
          if (dist[state(pp.id, next_ph)] == here - 1) entry.push_back(p);
        }
      }
}

int UpDownRouting::max_level() const {
  return level_.empty() ? 0 : *std::max_element(level_.begin(), level_.end());
}

bool UpDownRouting::is_up_port(SwitchId s, PortId p) const { return up_port_.at(s).at(p) != 0; }

bool UpDownRouting::is_tree_port(SwitchId s, PortId p) const {
  const PortPeer& pp = ports_.at(s).at(p);
  if (pp.kind != PeerKind::switch_port) return false;
  return (parent_[s] == pp.id && parent_port_[s] == p) ||
         (parent_[pp.id] == s && parent_port_[pp.id] == pp.port);
}

// Nothing arrives on an open port; it is reported as may_go_up like a node
// port rather than throwing, since the answer is never used.
Phase UpDownRouting::arrival_phase(SwitchId s, PortId p) const {
  const PortPeer& pp = ports_.at(s).at(p);
  // Leaving s through p goes up exactly when arriving through p came down.
  if (pp.kind == PeerKind::switch_port && up_port_[s][p]) return Phase::down_only;
  return Phase::may_go_up;
}

const std::vector<PortId>& UpDownRouting::ports(SwitchId s, Phase ph, NodeId dst) const {
  if (s < 0 || s >= num_switches_ || dst < 0 || dst >= num_nodes_)
    throw std::out_of_range("UpDownRouting::ports: switch " + std::to_string(s) + " or node " +
                            std::to_string(dst) + " out of range");
  const std::size_t i =
      (static_cast<std::size_t>(s) * kPhases + phase_index(ph)) * num_nodes_ + dst;
  return i < table_.size() ? table_[i] : empty_ports();
}

int UpDownRouting::distance(SwitchId s, Phase ph, SwitchId dst_sw) const {
  if (s < 0 || s >= num_switches_)
    throw std::out_of_range("UpDownRouting::distance: switch " + std::to_string(s) + " out of range");
  return dist_.at(dst_sw).at(s * kPhases + phase_index(ph));
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
