#include "topologies/routing_function.h"

#include <algorithm>
#include <deque>

namespace wormcast::topo {

// ---------------------------------------------------------------------------
// West-first

namespace {
const DirectTopology& two_d_mesh(const DirectTopology& t) {
  if (t.kind() != DirectKind::mesh || t.dimensions() != 2)
    throw TopologyError("west_first is a routing of 2-D meshes (turns between east-west and north-south); " +
                        t.spec() + " is not one (use mesh:KxK, or a deterministic routing.function)");
  return t;
}
}  // namespace

WestFirstRouting::WestFirstRouting(const DirectTopology& t, DimOrder order)
    : base_(std::make_shared<const DirectRouting>(two_d_mesh(t), RoutingAlgorithm::dor, order)) {}

std::vector<DirectHop> WestFirstRouting::candidates(const RouteQuery& q) const {
  const DirectTopology& t = base_->topology();
  if (q.at == q.dst) {
    DirectHop h;
    h.arrived = true;
    return {h};
  }
  const auto hop = [](int d, Direction dir) {
    DirectHop h;
    h.dim = d;
    h.dir = dir;
    h.vc = VcClass::single;
    return h;
  };
  const int dx = t.sigma(q.dst, 0) - t.sigma(q.at, 0), dy = t.sigma(q.dst, 1) - t.sigma(q.at, 1);
  if (dx < 0) return {hop(0, Direction::minus)};   // west first, and only west
  std::vector<DirectHop> out;
  if (dy != 0) out.push_back(hop(1, dy > 0 ? Direction::plus : Direction::minus));
  if (dx > 0) out.push_back(hop(0, Direction::plus));
  if (base_->order() == DimOrder::ascending) std::reverse(out.begin(), out.end());
  return out;
}

// ---------------------------------------------------------------------------
// Registry

const AdaptiveRoutingRegistry& adaptive_routings() {
  static const AdaptiveRoutingRegistry r = [] {
    AdaptiveRoutingRegistry reg("adaptive routing function");
    reg.add("west_first",
            "turn-model west-first on 2-D meshes: west hops first, then any minimal hop east, north or south",
            [](const DirectTopology& t, DimOrder o) { return std::make_unique<WestFirstRouting>(t, o); });
    return reg;
  }();
  return r;
}

// ---------------------------------------------------------------------------
// The check

namespace {

constexpr std::size_t kMaxProblems = 5;

// A (channel, class) pair: slot * kVcClassCount + class.
int pair_of(const DirectTopology& t, NodeId x, int d, Direction dir, VcClass c) {
  return t.channel_slot(x, d, dir) * kVcClassCount + static_cast<int>(c);
}

class FunctionChecker {
 public:
  explicit FunctionChecker(const RoutingFunction& f)
      : f_(f), t_(f.base()->topology()), into_(static_cast<std::size_t>(t_.num_nodes())),
        deps_(static_cast<std::size_t>(t_.num_channel_slots()) * kVcClassCount) {
    for (NodeId x = 0; x < t_.num_nodes(); ++x)
      for (const DirectChannel& ch : t_.channels(x)) into_[static_cast<std::size_t>(ch.to)].push_back(x);
  }

  std::vector<std::string> run() {
    for (NodeId dst = 0; dst < t_.num_nodes() && problems_.size() < kMaxProblems; ++dst) walk_towards(dst);
    if (problems_.empty()) find_cycle();
    return problems_;
  }

 private:
  // A state a header can be in: at a node, having arrived on a (channel,
  // class) pair (-1: injected there).
  struct State {
    NodeId at;
    int arrived_pair;
    VcClass in_class;
    int in_port;
  };

  // Hop distances to dst over the existing channels (BFS on reversed channels).
  std::vector<int> distances_to(NodeId dst) const {
    std::vector<int> dist(static_cast<std::size_t>(t_.num_nodes()), -1);
    std::deque<NodeId> queue{dst};
    dist[static_cast<std::size_t>(dst)] = 0;
    while (!queue.empty()) {
      const NodeId y = queue.front();
      queue.pop_front();
      for (NodeId x : into_[static_cast<std::size_t>(y)]) {
        if (dist[static_cast<std::size_t>(x)] >= 0) continue;
        dist[static_cast<std::size_t>(x)] = dist[static_cast<std::size_t>(y)] + 1;
        queue.push_back(x);
      }
    }
    return dist;
  }

  void walk_towards(NodeId dst) {
    const std::vector<int> dist = distances_to(dst);
    std::vector<char> seen(deps_.size(), 0);   // per arrived pair
    std::deque<State> todo;
    for (NodeId s = 0; s < t_.num_nodes(); ++s)
      if (s != dst) todo.push_back(State{s, -1, VcClass::local, -1});
    while (!todo.empty() && problems_.size() < kMaxProblems) {
      const State st = todo.front();
      todo.pop_front();
      const std::vector<DirectHop> hops = f_.candidates(RouteQuery{st.at, dst, st.in_class, st.in_port});
      if (hops.empty()) problem(f_.name() + " at " + t_.name(st.at) + " towards " + t_.name(dst) + ": no candidate");
      for (const DirectHop& h : hops) {
        if (!legal(st, dst, h, dist)) continue;
        if (h.arrived) continue;
        const int next = pair_of(t_, st.at, h.dim, h.dir, h.vc);
        if (st.arrived_pair >= 0) depend(st.arrived_pair, next);
        if (seen[static_cast<std::size_t>(next)]) continue;
        seen[static_cast<std::size_t>(next)] = 1;
        todo.push_back(State{t_.neighbour(st.at, h.dim, h.dir), next, h.vc, DirectTopology::port_index(h.dim, h.dir)});
      }
    }
  }

  // A pair has at most one dependency per (port, class) of the next node.
  void depend(int from, int to) {
    auto& out = deps_[static_cast<std::size_t>(from)];
    if (std::find(out.begin(), out.end(), to) == out.end()) out.push_back(to);
  }

  bool legal(const State& st, NodeId dst, const DirectHop& h, const std::vector<int>& dist) {
    const std::string where = f_.name() + " at " + t_.name(st.at) + " towards " + t_.name(dst);
    if (h.arrived) {
      if (st.at != dst) problem(where + ": ejects before the destination");
      return st.at == dst;
    }
    const NodeId next = t_.neighbour(st.at, h.dim, h.dir);
    if (next < 0) return problem(where + ": no channel in dimension " + std::to_string(h.dim) + to_string(h.dir));
    if (dist[static_cast<std::size_t>(next)] != dist[static_cast<std::size_t>(st.at)] - 1)
      return problem(where + ": hop to " + t_.name(next) + " is not minimal");
    if (!f_.base()->vc_classes(st.at, h.dim, h.dir).contains(h.vc))
      return problem(where + ": class " + std::string(to_string(h.vc)) + " does not exist on that channel");
    return true;
  }

  bool problem(const std::string& text) {
    if (problems_.size() < kMaxProblems) problems_.push_back(text);
    return false;
  }

  std::string pair_name(int pair) const {
    const int slot = pair / kVcClassCount, cls = pair % kVcClassCount;
    const int dir = slot % 2, d = (slot / 2) % t_.dimensions();
    const NodeId x = slot / 2 / t_.dimensions();
    return t_.name(x) + " d" + std::to_string(d) + (dir == 0 ? "+" : "-") + " " +
           to_string(static_cast<VcClass>(cls));
  }

  // Iterative DFS over the dependency graph; a back edge closes a cycle.
  void find_cycle() {
    for (auto& d : deps_) std::sort(d.begin(), d.end());
    std::vector<char> colour(deps_.size(), 0);   // 0 new, 1 on the stack, 2 done
    std::vector<int> parent(deps_.size(), -1);
    for (std::size_t root = 0; root < deps_.size(); ++root) {
      if (colour[root] != 0 || deps_[root].empty()) continue;
      std::vector<std::pair<int, std::size_t>> stack{{static_cast<int>(root), 0}};
      colour[root] = 1;
      while (!stack.empty()) {
        auto& [u, next] = stack.back();
        const auto& out = deps_[static_cast<std::size_t>(u)];
        if (next == out.size()) {
          colour[static_cast<std::size_t>(u)] = 2;
          stack.pop_back();
          continue;
        }
        const int v = out[next++];
        if (colour[static_cast<std::size_t>(v)] == 1) return report_cycle(parent, u, v);
        if (colour[static_cast<std::size_t>(v)] == 0) {
          colour[static_cast<std::size_t>(v)] = 1;
          parent[static_cast<std::size_t>(v)] = u;
          stack.emplace_back(v, 0);
        }
      }
    }
  }

  void report_cycle(const std::vector<int>& parent, int last, int first) {
    std::vector<int> cycle{last};
    while (cycle.back() != first) cycle.push_back(parent[static_cast<std::size_t>(cycle.back())]);
    std::reverse(cycle.begin(), cycle.end());
    std::string s = f_.name() + " on " + t_.spec() + ": cycle of channel dependencies (deadlock possible):";
    for (int p : cycle) s += " " + pair_name(p) + " ->";
    problems_.push_back(s + " " + pair_name(first));
  }

  const RoutingFunction& f_;
  const DirectTopology& t_;
  std::vector<std::vector<NodeId>> into_;   // per node: the nodes with a channel to it
  std::vector<std::vector<int>> deps_;   // per (channel, class) pair: the pairs a header on it may take next
  std::vector<std::string> problems_;
};

}  // namespace

std::vector<std::string> check_routing_function(const RoutingFunction& f) { return FunctionChecker(f).run(); }

}  // namespace wormcast::topo
