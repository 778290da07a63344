// Topology queries/validation and the random irregular-network generator of
// seed000 §7.6 (rounding and retry choices: §10 item 12).
#include "topologies/topology.h"

#include <algorithm>
#include <climits>
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
  const long long total = static_cast<long long>(p.switches) * p.ports;
  if (total > INT_MAX / 2)
    fail("switches * ports = " + std::to_string(total) + " is too large");
  if (p.nodes > total)
    fail("nodes = " + std::to_string(p.nodes) + " exceeds the " + std::to_string(total) +
         " switch ports (switches * ports)");
  if (!(p.connectivity > 0.0 && p.connectivity <= 1.0))   // also rejects NaN
    fail("connectivity = " + format_double(p.connectivity) + " must be in (0, 1]");
}

// One attempt's wiring, before node ids are assigned.
struct Wiring {
  std::vector<std::vector<PortPeer>> ports;   // node peers carry id -1 here
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
// (E such "excess" ports), any further node lowers the sum by one.
class Placement {
 public:
  Placement(int s, int k, int links) : s_(s), k_(k), L_(links), free_(s, k) {}

  bool completable(long long cap, long long sum_min, long long excess, long long r) const {
    if (s_ == 1) return cap >= r;   // L == 0 then
    return cap >= r && sum_min - std::max(0LL, r - excess) >= 2LL * L_;
  }

  // Places `p` nodes; returns the chosen (switch, port) of each.
  std::vector<PortRef> place(std::mt19937_64& rng, int p, std::vector<std::vector<char>>& used) {
    long long cap = 0, sum_min = 0, excess = 0;
    for (int i = 0; i < s_; ++i) {
      cap += s_ == 1 ? free_[i] : free_[i] - 1;
      sum_min += std::min(free_[i], L_);
      excess += std::max(0, free_[i] - L_);
    }
    if (!completable(cap, sum_min, excess, p))
      throw TopologyError("irregular topology: no placement of the nodes leaves room for the links");
    std::vector<PortRef> out;
    std::vector<PortRef> candidates;
    for (int left = p; left > 0; --left) {
      candidates.clear();
      for (int i = 0; i < s_; ++i) {
        const int min_free = s_ == 1 ? 1 : 2;   // a switch must keep one port for a link
        if (free_[i] < min_free) continue;
        const long long sm = sum_min - (free_[i] <= L_ ? 1 : 0);
        const long long ex = excess - (free_[i] > L_ ? 1 : 0);
        if (!completable(cap - 1, sm, ex, left - 1)) continue;
        for (int q = 0; q < k_; ++q)
          if (!used[i][q]) candidates.push_back({i, q});
      }
      const PortRef c = pick(rng, candidates);   // non-empty: the state was completable
      cap -= 1;
      sum_min -= free_[c.sw] <= L_ ? 1 : 0;
      excess -= free_[c.sw] > L_ ? 1 : 0;
      --free_[c.sw];
      used[c.sw][c.port] = 1;
      out.push_back(c);
    }
    return out;
  }

  const std::vector<int>& free_ports() const { return free_; }

 private:
  int s_, k_, L_;
  std::vector<int> free_;
};

Wiring random_wiring(std::mt19937_64& rng, const IrregularParams& prm, int L,
                     std::vector<PortRef>& node_ports) {
  const int s = prm.switches, k = prm.ports;
  Wiring w;
  w.ports.assign(s, std::vector<PortPeer>(k));
  std::vector<std::vector<char>> used(s, std::vector<char>(k, 0));

  Placement placement(s, k, L);
  node_ports = placement.place(rng, prm.nodes, used);
  for (const PortRef& r : node_ports) w.ports[r.sw][r.port] = {PeerKind::node, -1, -1};
  const std::vector<int>& f = placement.free_ports();

  // --- step 2: choose the 2L linked ports -----------------------------------
  // One at a time, uniformly among free ports of switches that may still take
  // a link end: at most min(f_i, L) ends per switch, and a switch that already
  // has one may take another only if enough ends remain to give every
  // still-unlinked switch its first one.
  std::vector<int> ends(s, 0);
  std::vector<std::vector<PortId>> stubs(s);
  int unlinked = s;
  std::vector<PortRef> candidates;
  for (int q = 2 * L; q > 0; --q) {
    candidates.clear();
    for (int i = 0; i < s; ++i) {
      if (ends[i] >= std::min(f[i], L)) continue;
      if (ends[i] > 0 && q - 1 < unlinked) continue;
      for (int pt = 0; pt < k; ++pt)
        if (!used[i][pt]) candidates.push_back({i, pt});
    }
    const PortRef c = pick(rng, candidates);
    if (ends[c.sw] == 0) --unlinked;
    ++ends[c.sw];
    used[c.sw][c.port] = 1;
    stubs[c.sw].push_back(c.port);
  }

  // --- step 3: pair the ends into links between different switches ----------
  // A loop-free pairing of the remaining ends exists iff no switch holds more
  // than half of them; when a switch holds exactly half it must take part in
  // the next link, otherwise both ends are uniform (the second on another
  // switch).
  std::vector<PortRef> all;
  for (int m = L; m > 0; --m) {
    SwitchId critical = -1;
    for (int i = 0; i < s && critical < 0; ++i)
      if (static_cast<int>(stubs[i].size()) == m) critical = i;
    all.clear();
    for (int i = 0; i < s; ++i)
      if (critical < 0 || i == critical)
        for (PortId pt : stubs[i]) all.push_back({i, pt});
    const PortRef a = pick(rng, all);
    all.clear();
    for (int i = 0; i < s; ++i)
      if (i != a.sw)
        for (PortId pt : stubs[i]) all.push_back({i, pt});
    const PortRef b = pick(rng, all);
    for (const PortRef& e : {a, b}) {
      auto& v = stubs[e.sw];
      v.erase(std::find(v.begin(), v.end(), e.port));
    }
    w.ports[a.sw][a.port] = {PeerKind::switch_port, b.sw, b.port};
    w.ports[b.sw][b.port] = {PeerKind::switch_port, a.sw, a.port};
    w.links.push_back({a, b});
  }
  return w;
}

// Component label of every switch over the given links.
std::vector<int> components(int s, const std::vector<std::pair<PortRef, PortRef>>& links,
                            std::size_t skip = SIZE_MAX) {
  std::vector<int> parent(s);
  for (int i = 0; i < s; ++i) parent[i] = i;
  auto find = [&](int x) {
    while (parent[x] != x) x = parent[x] = parent[parent[x]];
    return x;
  };
  for (std::size_t e = 0; e < links.size(); ++e)
    if (e != skip) parent[find(links[e].first.sw)] = find(links[e].second.sw);
  std::vector<int> comp(s);
  for (int i = 0; i < s; ++i) comp[i] = find(i);
  return comp;
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
    std::vector<std::size_t> cycle_links;
    for (std::size_t e = 0; e < w.links.size(); ++e) {
      const std::vector<int> without = components(s, w.links, e);
      if (without[w.links[e].first.sw] == without[w.links[e].second.sw]) cycle_links.push_back(e);
    }
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
    for (const auto& l : {w.links[e1], w.links[e2]}) {
      w.ports[l.first.sw][l.first.port] = {PeerKind::switch_port, l.second.sw, l.second.port};
      w.ports[l.second.sw][l.second.port] = {PeerKind::switch_port, l.first.sw, l.first.port};
    }
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
  // The small tolerance keeps e.g. 0.3 * 20 (= 5.9999999999999991 in binary)
  // counting as the 6 ports the user meant.
  return static_cast<int>(std::floor(p.connectivity * static_cast<double>(linkable) / 2.0 + 1e-9));
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
  std::vector<PortRef> node_ports;
  for (int attempt = 0; attempt < kMaxAttempts; ++attempt) {
    w = random_wiring(rng, prm, L, node_ports);
    const std::vector<int> comp = components(s, w.links);
    if (std::all_of(comp.begin(), comp.end(), [&](int c) { return c == comp[0]; })) break;
    if (attempt + 1 == kMaxAttempts) repair_connectivity(rng, s, w);
  }

  Topology t;
  t.ports_per_switch = prm.ports;
  t.ports = std::move(w.ports);
  std::sort(node_ports.begin(), node_ports.end(), [](const PortRef& x, const PortRef& y) {
    return std::make_pair(x.sw, x.port) < std::make_pair(y.sw, y.port);
  });
  t.node_attach = node_ports;
  for (NodeId n = 0; n < static_cast<int>(node_ports.size()); ++n)
    t.ports[node_ports[n].sw][node_ports[n].port].id = n;
  t.description = "irregular s=" + std::to_string(s) + " k=" + std::to_string(prm.ports) +
                  " p=" + std::to_string(prm.nodes) +
                  " connectivity=" + format_double(prm.connectivity) +
                  " seed=" + std::to_string(prm.seed);
  return t;
}

}  // namespace wormcast::topo
