// Topology queries/validation and the random irregular-network generator of
// seed000 §7.6 (rounding and retry choices: §10 item 12).
#include "topologies/topology.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <random>
#include <sstream>
#include <utility>

namespace wormcast::topo {

namespace {

std::string port_name(SwitchId s, PortId p) {
  return "switch " + std::to_string(s) + " port " + std::to_string(p);
}

std::string join_ints(const std::vector<int>& v) {
  std::string out;
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (i) out += ", ";
    out += std::to_string(v[i]);
  }
  return out;
}

// Switches reachable from `start` over well-formed inter-switch peers. Out of
// range peers are skipped so this is safe on a topology not yet validated.
std::vector<char> reachable_from(const Topology& t, SwitchId start) {
  const int n = t.num_switches();
  std::vector<char> seen(n, 0);
  if (start < 0 || start >= n) return seen;
  std::vector<SwitchId> stack{start};
  seen[start] = 1;
  while (!stack.empty()) {
    const SwitchId u = stack.back();
    stack.pop_back();
    for (const PortPeer& pp : t.ports[u]) {
      if (pp.kind != PeerKind::switch_port || pp.id < 0 || pp.id >= n || seen[pp.id]) continue;
      seen[pp.id] = 1;
      stack.push_back(pp.id);
    }
  }
  return seen;
}

void check_size_limits(long long switches, long long ports_per_switch) {
  if (switches > kMaxSwitches)
    throw TopologyError("switches = " + std::to_string(switches) + " exceeds the limit of " +
                        std::to_string(kMaxSwitches));
  if (ports_per_switch > kMaxPortsPerSwitch)
    throw TopologyError("ports_per_switch = " + std::to_string(ports_per_switch) + " exceeds the limit of " +
                        std::to_string(kMaxPortsPerSwitch));
  if (switches * ports_per_switch > kMaxSwitchPorts)
    throw TopologyError("switches * ports_per_switch = " + std::to_string(switches * ports_per_switch) +
                        " exceeds the limit of " + std::to_string(kMaxSwitchPorts) + " switch ports");
}

// Shortest decimal text that reads back as the same double, so descriptions
// echo the exact parameter ("0.8", not "0.80000000000000004").
std::string format_double(double v) {
  for (int prec = 1; prec <= 17; ++prec) {
    std::ostringstream os;
    os.precision(prec);
    os << v;
    if (std::strtod(os.str().c_str(), nullptr) == v) return os.str();
  }
  std::ostringstream os;
  os.precision(17);
  os << v;
  return os.str();
}

// Uniform integer in [0, n) by rejection sampling on the raw 64-bit output.
// std::uniform_int_distribution is not used because its algorithm differs
// between standard libraries; mt19937_64's raw sequence is fixed by the
// standard, so this makes a seed produce the same topology everywhere.
std::uint64_t uniform_below(std::mt19937_64& rng, std::uint64_t n) {
  const std::uint64_t threshold = (0 - n) % n;   // 2^64 mod n
  for (;;) {
    const std::uint64_t x = rng();
    if (x >= threshold) return x % n;
  }
}

template <class T>
const T& pick(std::mt19937_64& rng, const std::vector<T>& v) {
  return v[static_cast<std::size_t>(uniform_below(rng, v.size()))];
}

// Parameter checks that do not depend on the link count (shared with
// irregular_link_count so that it never computes from nonsense).
void check_basic_params(const IrregularParams& p) {
  auto fail = [](const std::string& m) { throw TopologyError("irregular topology: " + m); };
  if (p.switches < 1) fail("switches = " + std::to_string(p.switches) + " must be at least 1");
  if (p.ports < 1) fail("ports = " + std::to_string(p.ports) + " must be at least 1");
  if (p.nodes < 1) fail("nodes = " + std::to_string(p.nodes) + " must be at least 1");
  if (p.switches > kMaxSwitches)
    fail("switches = " + std::to_string(p.switches) + " exceeds the limit of " + std::to_string(kMaxSwitches));
  if (p.ports > kMaxPortsPerSwitch)
    fail("ports = " + std::to_string(p.ports) + " exceeds the limit of " + std::to_string(kMaxPortsPerSwitch) +
         " ports per switch");
  const long long total = static_cast<long long>(p.switches) * p.ports;
  if (total > kMaxSwitchPorts)
    fail("switches * ports = " + std::to_string(total) + " exceeds the limit of " +
         std::to_string(kMaxSwitchPorts) + " switch ports");
  if (p.nodes > total)
    fail("nodes = " + std::to_string(p.nodes) + " exceeds the " + std::to_string(total) +
         " switch ports (switches * ports)");
  if (!(p.connectivity > 0.0 && p.connectivity <= 1.0))   // also rejects NaN
    fail("connectivity = " + format_double(p.connectivity) + " must be in (0, 1]");
  if (p.hosts_per_switch < 0 || (p.hosts_per_switch > 0 && (p.hosts_per_switch >= p.ports ||
                                                             static_cast<long long>(p.hosts_per_switch) * p.switches != p.nodes)))
    fail("hosts_per_switch = " + std::to_string(p.hosts_per_switch) + " must be 0 (random placement) or leave a "
         "port free on each switch and give nodes = switches * hosts_per_switch (nodes is " +
         std::to_string(p.nodes) + ")");
}

// --- index structures ---------------------------------------------------------
// Every random choice below is "the j-th candidate of a list in (switch, port)
// order", with j = uniform_below(list size). Building those lists made
// generation O(s*k) per choice (28 s for 1024 switches). The structures here
// answer "how many candidates" and "which is the j-th" without the list, in
// O(log s) plus O(k/64), so the same draws give the same topology.

// Fenwick tree of per-switch candidate counts.
class CountTree {
 public:
  explicit CountTree(const std::vector<long long>& weights)
      : n_(static_cast<int>(weights.size())), tree_(weights.size() + 1, 0), weights_(weights) {
    for (int i = 1; i <= n_; ++i) {
      tree_[i] += weights[i - 1];
      total_ += weights[i - 1];
      const int up = i + (i & -i);
      if (up <= n_) tree_[up] += tree_[i];
    }
  }

  long long total() const { return total_; }
  long long weight(int i) const { return weights_[i]; }

  void set(int i, long long w) {
    const long long delta = w - weights_[i];
    if (delta == 0) return;
    weights_[i] = w;
    total_ += delta;
    for (int x = i + 1; x <= n_; x += x & -x) tree_[x] += delta;
  }

  // Sum of the weights of switches [0, i).
  long long prefix(int i) const {
    long long sum = 0;
    for (int x = i; x > 0; x -= x & -x) sum += tree_[x];
    return sum;
  }

  // The switch holding candidate j (0 <= j < total of the trees given), over
  // the sum of one or two trees of equal size, and j's offset within it.
  struct Hit {
    int sw;
    long long offset;
  };
  static Hit find(const CountTree& a, const CountTree* b, long long j) {
    int pos = 0;
    int step = 1;
    while (step * 2 <= a.n_) step *= 2;
    for (; step > 0; step /= 2) {
      const int next = pos + step;
      if (next > a.n_) continue;
      const long long here = a.tree_[next] + (b ? b->tree_[next] : 0);
      if (here <= j) {
        j -= here;
        pos = next;
      }
    }
    return {pos, j};   // pos: 0-based switch index
  }

 private:
  int n_;
  std::vector<long long> tree_;
  std::vector<long long> weights_;
  long long total_ = 0;
};

// Which ports of each switch are taken (by a node or a link end), as bits.
class PortBits {
 public:
  PortBits(int s, int k) : k_(k), words_((k + 63) / 64), bits_(static_cast<std::size_t>(s) * words_, 0) {}

  void take(SwitchId sw, PortId p) { bits_[index(sw) + p / 64] |= std::uint64_t{1} << (p % 64); }

  // The j-th (0-based, ascending) free port of sw; j < number of free ports.
  PortId nth_free(SwitchId sw, long long j) const {
    for (int w = 0; w < words_; ++w) {
      std::uint64_t free = ~bits_[index(sw) + w];
      if (w == words_ - 1 && k_ % 64) free &= (std::uint64_t{1} << (k_ % 64)) - 1;
      const int count = __builtin_popcountll(free);
      if (j >= count) {
        j -= count;
        continue;
      }
      for (; j > 0; --j) free &= free - 1;   // drop the j lowest free ports
      return w * 64 + __builtin_ctzll(free);
    }
    throw TopologyError("irregular topology: internal error, free port index out of range");
  }

 private:
  std::size_t index(SwitchId sw) const { return static_cast<std::size_t>(sw) * words_; }
  int k_, words_;
  std::vector<std::uint64_t> bits_;
};

// One attempt's wiring, before node ids are assigned.
struct Wiring {
  std::vector<PortRef> node_ports;   // in placement order
  std::vector<std::pair<PortRef, PortRef>> links;
};

// --- step 1: node placement ------------------------------------------------
// Nodes go one by one to a uniformly chosen free port among the switches that
// can take a node without making the rest impossible. The final free-port
// counts f_i must satisfy (s > 1): f_i >= 1, and sum_i min(f_i, L) >= 2L, which
// is exactly when L links with every switch linked and no switch holding more
// than half of the link ends (the condition for a loop-free multigraph) fit.
// Whether a partial placement (r nodes still to place) can be completed is
// decided in O(1): placing a node on a switch with f_i > L costs nothing
// (E such "excess" ports), any further node lowers the sum by one. That test
// depends only on whether the chosen switch has f_i > L ("high") or not
// ("low"), so the candidates are the free ports of the switches of one or both
// classes, each class counted by its own tree.
class Placement {
 public:
  Placement(int s, int k, int links) : s_(s), L_(links), free_(s, k) {}

  bool completable(long long cap, long long sum_min, long long excess, long long r) const {
    if (s_ == 1) return cap >= r;   // L == 0 then
    return cap >= r && sum_min - std::max(0LL, r - excess) >= 2LL * L_;
  }

  // Places `p` nodes; returns the chosen (switch, port) of each.
  std::vector<PortRef> place(std::mt19937_64& rng, int p, PortBits& used) {
    long long cap = 0, sum_min = 0, excess = 0;
    std::vector<long long> low(s_, 0), high(s_, 0);
    for (int i = 0; i < s_; ++i) {
      cap += s_ == 1 ? free_[i] : free_[i] - 1;
      sum_min += std::min(free_[i], L_);
      excess += std::max(0, free_[i] - L_);
      (free_[i] > L_ ? high : low)[i] = weight(i);
    }
    if (!completable(cap, sum_min, excess, p))
      throw TopologyError("irregular topology: no placement of the nodes leaves room for the links");
    CountTree low_tree(low), high_tree(high);
    std::vector<PortRef> out;
    out.reserve(static_cast<std::size_t>(p));
    for (int left = p; left > 0; --left) {
      const bool use_low = completable(cap - 1, sum_min - 1, excess, left - 1);
      const bool use_high = completable(cap - 1, sum_min, excess - 1, left - 1);
      const CountTree* a = use_low ? &low_tree : &high_tree;
      const CountTree* b = use_low && use_high ? &high_tree : nullptr;
      const long long total = (use_low || use_high ? a->total() : 0) + (b ? b->total() : 0);
      if (total == 0) throw TopologyError("irregular topology: internal error, no port for a node");
      const long long j = static_cast<long long>(uniform_below(rng, static_cast<std::uint64_t>(total)));
      const auto [sw, offset] = CountTree::find(*a, b, j);
      const PortRef c{sw, used.nth_free(sw, offset)};
      const bool was_high = free_[sw] > L_;
      cap -= 1;
      sum_min -= was_high ? 0 : 1;
      excess -= was_high ? 1 : 0;
      --free_[sw];
      used.take(c.sw, c.port);
      const bool is_high = free_[sw] > L_;
      if (was_high != is_high) (was_high ? high_tree : low_tree).set(sw, 0);
      (is_high ? high_tree : low_tree).set(sw, weight(sw));
      out.push_back(c);
    }
    return out;
  }

  const std::vector<int>& free_ports() const { return free_; }

 private:
  // Candidate ports of switch i: all its free ports, if it can spare one
  // (a switch must keep one port for a link).
  long long weight(int i) const { return free_[i] >= (s_ == 1 ? 1 : 2) ? free_[i] : 0; }

  int s_, L_;
  std::vector<int> free_;
};

// --- step 2: choose the 2L linked ports -------------------------------------
// One at a time, uniformly among free ports of switches that may still take a
// link end: at most min(f_i, L) ends per switch, and a switch that already has
// one may take another only if enough ends remain to give every still-unlinked
// switch its first one. q - 1 - unlinked never grows, so once only unlinked
// switches qualify ("forced") that stays so; the tree is rebuilt on the switch.
std::vector<std::vector<PortId>> choose_link_ends(std::mt19937_64& rng, int s, int L,
                                                  const std::vector<int>& f, PortBits& used) {
  std::vector<int> ends(s, 0);
  std::vector<std::vector<PortId>> stubs(s);
  int unlinked = s;
  bool forced = false;
  auto weight = [&](int i) -> long long {
    if (ends[i] >= std::min(f[i], L) || (forced && ends[i] > 0)) return 0;
    return f[i] - ends[i];
  };
  auto weights = [&] {
    std::vector<long long> w(s);
    for (int i = 0; i < s; ++i) w[i] = weight(i);
    return w;
  };
  CountTree tree(weights());
  for (int q = 2 * L; q > 0; --q) {
    if ((q - 1 < unlinked) != forced) {
      forced = !forced;
      tree = CountTree(weights());
    }
    if (tree.total() == 0) throw TopologyError("irregular topology: internal error, no port for a link");
    const long long j = static_cast<long long>(uniform_below(rng, static_cast<std::uint64_t>(tree.total())));
    const auto [sw, offset] = CountTree::find(tree, nullptr, j);
    const PortId port = used.nth_free(sw, offset);
    if (ends[sw] == 0) --unlinked;
    ++ends[sw];
    used.take(sw, port);
    stubs[sw].push_back(port);
    tree.set(sw, weight(sw));
  }
  return stubs;
}

// Leftmost switch whose stub count is at least m (max segment tree), for the
// "critical" switch of step 3.
class MaxTree {
 public:
  explicit MaxTree(const std::vector<int>& v) {
    while (size_ < static_cast<int>(v.size())) size_ *= 2;
    tree_.assign(2 * static_cast<std::size_t>(size_), -1);
    for (std::size_t i = 0; i < v.size(); ++i) tree_[size_ + i] = v[i];
    for (int i = size_ - 1; i > 0; --i) tree_[i] = std::max(tree_[2 * i], tree_[2 * i + 1]);
  }
  void set(int i, int value) {
    int x = size_ + i;
    tree_[x] = value;
    for (x /= 2; x > 0; x /= 2) tree_[x] = std::max(tree_[2 * x], tree_[2 * x + 1]);
  }
  int leftmost_at_least(int m) const {
    if (tree_[1] < m) return -1;
    int x = 1;
    while (x < size_) x = tree_[2 * x] >= m ? 2 * x : 2 * x + 1;
    return x - size_;
  }
  int value(int i) const { return tree_[size_ + i]; }

 private:
  int size_ = 1;
  std::vector<int> tree_;
};

// --- step 3: pair the ends into links between different switches ------------
// A loop-free pairing of the remaining ends exists iff no switch holds more
// than half of them; when a switch holds exactly half it must take part in
// the next link (the lowest-id such switch), otherwise both ends are uniform
// (the second on another switch). Lists are in (switch, stub order) order.
std::vector<std::pair<PortRef, PortRef>> pair_link_ends(std::mt19937_64& rng, int L,
                                                        std::vector<std::vector<PortId>> stubs) {
  const int s = static_cast<int>(stubs.size());
  std::vector<long long> counts(s);
  std::vector<int> max_counts(s);
  for (int i = 0; i < s; ++i) {
    max_counts[i] = static_cast<int>(stubs[i].size());
    counts[i] = max_counts[i];
  }
  CountTree tree(counts);
  MaxTree most(max_counts);
  auto nth_stub = [&](long long j) {
    const auto [sw, offset] = CountTree::find(tree, nullptr, j);
    return PortRef{sw, stubs[sw][static_cast<std::size_t>(offset)]};
  };
  std::vector<std::pair<PortRef, PortRef>> links;
  links.reserve(static_cast<std::size_t>(L));
  for (int m = L; m > 0; --m) {
    const SwitchId critical = most.leftmost_at_least(m);
    if (critical >= 0 && most.value(critical) != m)
      throw TopologyError("irregular topology: internal error, a switch holds too many link ends");
    PortRef a;
    if (critical >= 0) {
      const auto& v = stubs[critical];
      a = {critical, v[static_cast<std::size_t>(uniform_below(rng, v.size()))]};
    } else {
      a = nth_stub(static_cast<long long>(uniform_below(rng, static_cast<std::uint64_t>(tree.total()))));
    }
    const long long a_count = tree.weight(a.sw);
    long long j = static_cast<long long>(uniform_below(rng, static_cast<std::uint64_t>(tree.total() - a_count)));
    if (j >= tree.prefix(a.sw)) j += a_count;   // skip a's switch
    const PortRef b = nth_stub(j);
    for (const PortRef& e : {a, b}) {
      auto& v = stubs[e.sw];
      v.erase(std::find(v.begin(), v.end(), e.port));
      tree.set(e.sw, static_cast<long long>(v.size()));
      most.set(e.sw, static_cast<int>(v.size()));
    }
    links.push_back({a, b});
  }
  return links;
}

// hosts_per_switch = h > 0 (seed002 §7.2: 4 hosts on each 8-port switch):
// every switch holds exactly h nodes, on its ports 0..h-1; no randomness.
std::vector<PortRef> fixed_placement(const IrregularParams& prm, PortBits& used, std::vector<int>& free) {
  std::vector<PortRef> out;
  free.assign(static_cast<std::size_t>(prm.switches), prm.ports - prm.hosts_per_switch);
  for (SwitchId sw = 0; sw < prm.switches; ++sw)
    for (PortId p = 0; p < prm.hosts_per_switch; ++p) {
      used.take(sw, p);
      out.push_back(PortRef{sw, p});
    }
  return out;
}

Wiring random_wiring(std::mt19937_64& rng, const IrregularParams& prm, int L) {
  PortBits used(prm.switches, prm.ports);
  Wiring w;
  if (prm.hosts_per_switch > 0) {
    std::vector<int> free;
    w.node_ports = fixed_placement(prm, used, free);
    w.links = pair_link_ends(rng, L, choose_link_ends(rng, prm.switches, L, free, used));
    return w;
  }
  Placement placement(prm.switches, prm.ports, L);
  w.node_ports = placement.place(rng, prm.nodes, used);
  w.links = pair_link_ends(rng, L, choose_link_ends(rng, prm.switches, L, placement.free_ports(), used));
  return w;
}

// Component label of every switch over the given links.
std::vector<int> components(int s, const std::vector<std::pair<PortRef, PortRef>>& links) {
  std::vector<int> parent(s);
  for (int i = 0; i < s; ++i) parent[i] = i;
  auto find = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (const auto& l : links) parent[find(l.first.sw)] = find(l.second.sw);
  std::vector<int> comp(s);
  for (int i = 0; i < s; ++i) comp[i] = find(i);
  return comp;
}

bool all_connected(int s, const std::vector<std::pair<PortRef, PortRef>>& links) {
  const std::vector<int> comp = components(s, links);
  return std::all_of(comp.begin(), comp.end(), [&](int c) { return c == comp[0]; });
}

// Links whose removal leaves their two switches connected (on a cycle,
// parallel links included), by one iterative Tarjan bridge search: O(s + L).
std::vector<char> on_cycle(int s, const std::vector<std::pair<PortRef, PortRef>>& links) {
  std::vector<int> begin(s + 1, 0);
  for (const auto& l : links) ++begin[l.first.sw + 1], ++begin[l.second.sw + 1];
  for (int i = 0; i < s; ++i) begin[i + 1] += begin[i];
  std::vector<std::pair<int, int>> adj(begin[s]);   // (neighbour, link index)
  std::vector<int> fill(begin.begin(), begin.end() - 1);
  for (std::size_t e = 0; e < links.size(); ++e) {
    adj[fill[links[e].first.sw]++] = {links[e].second.sw, static_cast<int>(e)};
    adj[fill[links[e].second.sw]++] = {links[e].first.sw, static_cast<int>(e)};
  }
  std::vector<char> cyclic(links.size(), 1);
  std::vector<int> order(s, -1), low(s, 0);
  struct Frame { int v, via, next; };
  int counter = 0;
  for (int root = 0; root < s; ++root) {
    if (order[root] >= 0) continue;
    std::vector<Frame> stack{{root, -1, begin[root]}};
    order[root] = low[root] = counter++;
    while (!stack.empty()) {
      Frame& f = stack.back();
      if (f.next < begin[f.v + 1]) {
        const auto [u, e] = adj[f.next++];
        if (e == f.via) continue;
        if (order[u] < 0) {
          order[u] = low[u] = counter++;
          stack.push_back({u, e, begin[u]});
        } else {
          low[f.v] = std::min(low[f.v], order[u]);
        }
        continue;
      }
      const Frame done = f;
      stack.pop_back();
      if (stack.empty()) break;
      low[stack.back().v] = std::min(low[stack.back().v], low[done.v]);
      if (low[done.v] > order[stack.back().v]) cyclic[done.via] = 0;   // a bridge
    }
  }
  return cyclic;
}

// Fallback when no attempt came out connected (only happens when the link
// budget is close to s-1). Degree-preserving endpoint swaps: take a link
// (a,b) on a cycle of one component and any link (c,d) of another component,
// and rewire to (a,c),(b,d). Removing a cycle link keeps the first component
// connected and both new links join the two components, so each swap merges
// two components, never creates a self-link, and keeps every port's role.
// Such a pair always exists while disconnected: with L >= s-1 links some
// component has at least as many links as switches (so a cycle), and every
// other component has a link because every switch has at least one.
void repair_connectivity(std::mt19937_64& rng, int s, Wiring& w) {
  for (;;) {
    const std::vector<int> comp = components(s, w.links);
    if (std::all_of(comp.begin(), comp.end(), [&](int c) { return c == comp[0]; })) return;
    const std::vector<char> cyclic = on_cycle(s, w.links);
    std::vector<std::size_t> cycle_links;
    for (std::size_t e = 0; e < w.links.size(); ++e)
      if (cyclic[e]) cycle_links.push_back(e);
    if (cycle_links.empty())
      throw TopologyError("irregular topology: internal error, cannot connect the switch graph");
    const std::size_t e1 = pick(rng, cycle_links);
    std::vector<std::size_t> others;
    for (std::size_t e = 0; e < w.links.size(); ++e)
      if (comp[w.links[e].first.sw] != comp[w.links[e1].first.sw]) others.push_back(e);
    const std::size_t e2 = pick(rng, others);
    auto [a, b] = w.links[e1];
    auto [c, d] = w.links[e2];
    if (uniform_below(rng, 2)) std::swap(c, d);
    w.links[e1] = {a, c};
    w.links[e2] = {b, d};
  }
}

}  // namespace

std::vector<SwitchLink> Topology::links() const {
  std::vector<SwitchLink> out;
  for (SwitchId s = 0; s < num_switches(); ++s)
    for (PortId p = 0; p < static_cast<int>(ports[s].size()); ++p) {
      const PortPeer& pp = ports[s][p];
      if (pp.kind != PeerKind::switch_port) continue;
      if (std::make_pair(s, p) < std::make_pair(pp.id, pp.port))
        out.push_back({{s, p}, {pp.id, pp.port}});
    }
  return out;
}

std::vector<NodeId> Topology::nodes_at(SwitchId s) const {
  std::vector<NodeId> out;
  for (const PortPeer& pp : ports.at(s))
    if (pp.kind == PeerKind::node) out.push_back(pp.id);
  return out;
}

Topology Topology::empty(int switches, int ports, std::string description) {
  Topology t;
  t.ports_per_switch = ports;
  t.ports.assign(static_cast<std::size_t>(switches), std::vector<PortPeer>(static_cast<std::size_t>(ports)));
  t.description = std::move(description);
  return t;
}

Topology& Topology::connect(SwitchId a, PortId pa, SwitchId b, PortId pb) {
  ports.at(static_cast<std::size_t>(a)).at(static_cast<std::size_t>(pa)) = {PeerKind::switch_port, b, pb};
  ports.at(static_cast<std::size_t>(b)).at(static_cast<std::size_t>(pb)) = {PeerKind::switch_port, a, pa};
  return *this;
}

Topology& Topology::attach(NodeId n, SwitchId s, PortId p) {
  ports.at(static_cast<std::size_t>(s)).at(static_cast<std::size_t>(p)) = {PeerKind::node, n, -1};
  if (static_cast<int>(node_attach.size()) <= n) node_attach.resize(static_cast<std::size_t>(n) + 1);
  node_attach[static_cast<std::size_t>(n)] = {s, p};
  return *this;
}

bool Topology::connected() const {
  if (num_switches() == 0) return false;
  const std::vector<char> seen = reachable_from(*this, 0);
  return std::all_of(seen.begin(), seen.end(), [](char c) { return c != 0; });
}

void Topology::validate() const {
  auto fail = [](const std::string& m) { throw TopologyError(m); };
  const int S = num_switches(), N = num_nodes(), k = ports_per_switch;
  if (S == 0) fail("no switches");
  if (k < 1) fail("ports_per_switch = " + std::to_string(k) + " must be at least 1");
  check_size_limits(S, k);
  if (N == 0) fail("no processing nodes (a network needs at least one node attached)");
  for (SwitchId s = 0; s < S; ++s)
    if (static_cast<int>(ports[s].size()) != k)
      fail("switch " + std::to_string(s) + " has " + std::to_string(ports[s].size()) +
           " ports, expected ports_per_switch = " + std::to_string(k));
  for (SwitchId s = 0; s < S; ++s)
    for (PortId p = 0; p < k; ++p) {
      const PortPeer& pp = ports[s][p];
      const std::string here = port_name(s, p);
      if (pp.kind == PeerKind::node) {
        if (pp.id < 0 || pp.id >= N)
          fail(here + ": node id " + std::to_string(pp.id) + " out of range 0.." +
               std::to_string(N - 1));
        if (!(node_attach[pp.id] == PortRef{s, p}))
          fail(here + ": holds node " + std::to_string(pp.id) + ", but node " +
               std::to_string(pp.id) + " is recorded at " +
               port_name(node_attach[pp.id].sw, node_attach[pp.id].port) +
               " (node attached twice?)");
      } else if (pp.kind == PeerKind::switch_port) {
        if (pp.id < 0 || pp.id >= S)
          fail(here + ": linked to switch " + std::to_string(pp.id) + ", out of range 0.." +
               std::to_string(S - 1));
        if (pp.port < 0 || pp.port >= k)
          fail(here + ": linked to port " + std::to_string(pp.port) + " of switch " +
               std::to_string(pp.id) + ", out of range 0.." + std::to_string(k - 1));
        if (pp.id == s)
          fail(here + ": linked to port " + std::to_string(pp.port) +
               " of the same switch (links between two ports of one switch are not allowed)");
        const PortPeer& back = ports[pp.id][pp.port];
        if (back.kind != PeerKind::switch_port || back.id != s || back.port != p)
          fail(here + ": linked to " + port_name(pp.id, pp.port) +
               ", but that port does not link back (asymmetric link)");
      }
    }
  for (NodeId n = 0; n < N; ++n) {
    const PortRef& a = node_attach[n];
    if (a.sw < 0 || a.sw >= S || a.port < 0 || a.port >= k)
      fail("node " + std::to_string(n) + ": attached at " + port_name(a.sw, a.port) +
           ", out of range");
    const PortPeer& pp = ports[a.sw][a.port];
    if (pp.kind != PeerKind::node || pp.id != n)
      fail("node " + std::to_string(n) + ": recorded at " + port_name(a.sw, a.port) +
           ", but that port does not hold it (node missing)");
  }
  const std::vector<char> seen = reachable_from(*this, 0);
  std::vector<int> unreachable;
  for (SwitchId s = 0; s < S; ++s)
    if (!seen[s]) unreachable.push_back(s);
  if (!unreachable.empty())
    fail("switch graph is disconnected: switch" + std::string(unreachable.size() > 1 ? "es " : " ") +
         join_ints(unreachable) + " not reachable from switch 0");
}

int irregular_link_count(const IrregularParams& p) {
  check_basic_params(p);
  const long long linkable = static_cast<long long>(p.switches) * p.ports - p.nodes;
  // Rounded to the nearest link count (halves up): the paper's 80% of 32
  // free ports is 25.6 linked ports, i.e. 12.8 links, so 13. Never more than
  // the free ports can hold (an odd count leaves one port open). The small
  // tolerance keeps e.g. 0.3 * 20 (= 5.9999999999999991 in binary) counting
  // as the 6 ports the user meant.
  const long long nearest =
      static_cast<long long>(std::floor(p.connectivity * static_cast<double>(linkable) / 2.0 + 0.5 + 1e-9));
  return static_cast<int>(std::min(nearest, linkable / 2));
}

// Procedure (deterministic per seed; one std::mt19937_64 seeded with `seed`
// drives every choice, each "uniform" pick via uniform_below):
//  1. Place the p nodes one by one on uniformly random free ports (among the
//     switches that keep the rest feasible, see Placement; in all but very
//     tight cases that is every free port).
//  2. Pick the 2L linked ports one by one, uniformly among the free ports,
//     subject to every switch getting at least one and no switch more than L.
//  3. Pair them one link at a time: a uniformly random end, joined to a
//     uniformly random end on another switch (see random_wiring).
//  4. If the switch graph is connected, done; else start over at step 1 with
//     the same generator (so the result is "random, retried until connected",
//     §10 item 12). After kMaxAttempts disconnected attempts the last one is
//     made connected by degree-preserving endpoint swaps (repair_connectivity);
//     this only happens when L is close to s-1, where random pairings are
//     almost never trees.
//  5. Node ids are assigned in ascending (switch, port) order of the chosen
//     node ports, so the nodes of switch 0 come first.
Topology generate_irregular(const IrregularParams& prm) {
  const int L = irregular_link_count(prm);   // also checks the basic parameters
  const int s = prm.switches;
  if (s == 1 && L > 0)
    throw TopologyError("irregular topology: switches = 1 cannot have the " + std::to_string(L) +
                        " inter-switch links that connectivity = " +
                        format_double(prm.connectivity) +
                        " asks for (no link may join two ports of one switch)");
  if (s > 1) {
    if (static_cast<long long>(prm.nodes) > static_cast<long long>(s) * (prm.ports - 1))
      throw TopologyError("irregular topology: nodes = " + std::to_string(prm.nodes) +
                          " leaves some switch without a port for an inter-switch link "
                          "(at most switches * (ports - 1) = " +
                          std::to_string(static_cast<long long>(s) * (prm.ports - 1)) + ")");
    if (L < s - 1)
      throw TopologyError("irregular topology: connectivity = " + format_double(prm.connectivity) +
                          " gives " + std::to_string(L) + " links, but connecting switches = " +
                          std::to_string(s) + " needs at least " + std::to_string(s - 1));
  }

  constexpr int kMaxAttempts = 100;
  std::mt19937_64 rng(prm.seed);
  Wiring w;
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    w = random_wiring(rng, prm, L);
    if (all_connected(s, w.links)) break;
    if (attempt + 1 == kMaxAttempts) repair_connectivity(rng, s, w);
  }

  Topology t = Topology::empty(s, prm.ports);
  for (const auto& [a, b] : w.links) t.connect(a.sw, a.port, b.sw, b.port);
  std::vector<PortRef>& node_ports = w.node_ports;
  std::sort(node_ports.begin(), node_ports.end(), [](const PortRef& x, const PortRef& y) {
    return std::make_pair(x.sw, x.port) < std::make_pair(y.sw, y.port);
  });
  for (NodeId n = 0; n < static_cast<int>(node_ports.size()); ++n)
    t.attach(n, node_ports[n].sw, node_ports[n].port);
  t.description = "irregular s=" + std::to_string(s) + " k=" + std::to_string(prm.ports) +
                  " p=" + std::to_string(prm.nodes) +
                  (prm.hosts_per_switch > 0 ? " hosts_per_switch=" + std::to_string(prm.hosts_per_switch) : "") +
                  " connectivity=" + format_double(prm.connectivity) +
                  " seed=" + std::to_string(prm.seed);
  return t;
}

}  // namespace wormcast::topo
