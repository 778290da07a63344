// Properties of the switch-based multicast schemes of seed000 §5 over many
// random irregular networks (topo::generate_irregular) and destination sets:
// exact coverage, up*/down* legality (checked by worm_check, independent of
// the planners), the relay local rule reproducing the global schedule, and
// reachability strings against an independent computation.
#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <random>
#include <tuple>

#include "algorithms/headers.h"
#include "algorithms/multiphase.h"
#include "algorithms/poc.h"
#include "algorithms/reachability.h"
#include "algorithms/ssr.h"
#include "algorithms/worm_check.h"
#include "topologies/topology.h"
#include "topologies/updown.h"

using namespace wormcast::algo;
using namespace wormcast::topo;

namespace {

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

struct Case {
  Topology t;
  std::string name;
};

std::vector<Case> topologies() {
  const IrregularParams shapes[] = {
      {8, 8, 32, 0.8, 0}, {16, 8, 64, 0.8, 0}, {4, 16, 32, 1.0, 0}, {12, 6, 24, 0.6, 0},
      {2, 32, 32, 0.8, 0}, {24, 8, 96, 1.0, 0}, {1, 8, 8, 1.0, 0},
  };
  std::vector<Case> out;
  for (IrregularParams p : shapes)
    for (std::uint64_t seed = 1; seed <= 6; ++seed) {
      p.seed = seed;
      out.push_back({generate_irregular(p), std::to_string(p.switches) + "x" + std::to_string(p.ports) + "p" +
                                                std::to_string(p.nodes) + "s" + std::to_string(seed)});
    }
  return out;
}

// Source and `k` distinct destinations (k < N).
std::pair<NodeId, std::vector<NodeId>> random_multicast(std::mt19937_64& rng, int n, int k) {
  std::vector<NodeId> all(n);
  for (int i = 0; i < n; ++i) all[i] = i;
  std::shuffle(all.begin(), all.end(), rng);
  return {all[0], std::vector<NodeId>(all.begin() + 1, all.begin() + 1 + k)};
}

// Own levels and directions (BFS from the routing's root).
std::vector<int> bfs_levels(const Topology& t, SwitchId root) {
  std::vector<int> lv(t.num_switches(), -1);
  lv[root] = 0;
  std::deque<SwitchId> q{root};
  while (!q.empty()) {
    const SwitchId u = q.front();
    q.pop_front();
    for (const PortPeer& pp : t.ports[u])
      if (pp.kind == PeerKind::switch_port && lv[pp.id] < 0) lv[pp.id] = lv[u] + 1, q.push_back(pp.id);
  }
  return lv;
}

bool goes_down(const std::vector<int>& lv, SwitchId s, SwitchId n) {
  return lv[n] > lv[s] || (lv[n] == lv[s] && n > s);
}

// Nodes reachable from switch s over down links only (DFS), as a sorted list.
NodeBits down_reach(const Topology& t, const std::vector<int>& lv, SwitchId s) {
  NodeBits out(t.num_nodes());
  std::vector<char> seen(t.num_switches(), 0);
  std::vector<SwitchId> stack{s};
  while (!stack.empty()) {
    const SwitchId u = stack.back();
    stack.pop_back();
    if (seen[u]++) continue;
    for (const PortPeer& pp : t.ports[u]) {
      if (pp.kind == PeerKind::node) out.set(pp.id);
      if (pp.kind == PeerKind::switch_port && goes_down(lv, u, pp.id)) stack.push_back(pp.id);
    }
  }
  return out;
}

using Sent = std::tuple<int, NodeId, std::vector<NodeId>>;   // phase, sender, destinations

// Runs the relay local rule from the source: each node only looks at the
// payload of the worm it received.
std::vector<Sent> replay(const Schedule& s) {
  std::vector<Sent> out;
  struct Item { NodeId node; int got; std::vector<RelayWorm> sends; };
  std::deque<Item> q{{s.source, 0, relay_plan(s).worms}};
  while (!q.empty()) {
    Item it = std::move(q.front());
    q.pop_front();
    for (std::size_t i = 0; i < it.sends.size(); ++i) {
      const int phase = it.got + 1 + static_cast<int>(i);
      out.emplace_back(phase, it.node, it.sends[i].destinations);
      for (NodeId d : it.sends[i].destinations) q.push_back({d, phase, relay_sends(it.sends[i], d)});
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::vector<Sent> global(const Schedule& s) {
  std::vector<Sent> out;
  for (const ScheduledWorm& w : s.worms) out.emplace_back(w.phase, w.sender, w.destinations);
  std::sort(out.begin(), out.end());
  return out;
}

void check_multiphase(const Topology& t, const UpDownRouting& r, const Schedule& s, const std::vector<NodeId>& dests,
                      bool less_greedy) {
  const std::vector<std::string> problems = check_schedule(t, r.root(), s, dests);
  INFO(joined(problems));
  CHECK(problems.empty());
  CHECK(replay(s) == global(s));
  if (less_greedy) {   // at most one worm starts from any switch per phase
    std::vector<std::pair<int, SwitchId>> starts;
    for (const ScheduledWorm& w : s.worms) starts.emplace_back(w.phase, t.node_attach[w.sender].sw);
    std::sort(starts.begin(), starts.end());
    CHECK(std::adjacent_find(starts.begin(), starts.end()) == starts.end());
  }
  // The multi-drop header, consumed pair by pair along the route, drops
  // exactly the worm's destinations.
  const HeaderGeometry g = HeaderGeometry::of(t);
  for (const ScheduledWorm& w : s.worms) {
    Bits h = encode_multidrop(g, multidrop_pairs(t, w.destinations));
    std::vector<NodeId> dropped;
    for (SwitchId sw : w.route.path) {
      while (!h.empty()) {
        const ConsumedPair c = consume_pair(g, h);
        if (c.pair.id != sw) break;
        for (PortId p = 0; p < t.ports_per_switch; ++p)
          if (c.pair.port_bits[p]) dropped.push_back(t.peer(sw, p).id);
        h = c.rest;
      }
    }
    CHECK(h.empty());
    std::vector<NodeId> want = w.destinations;
    std::sort(want.begin(), want.end());
    std::sort(dropped.begin(), dropped.end());
    CHECK(dropped == want);
  }
}

}  // namespace

TEST_CASE("switchmc: random networks: POC chains lie on down paths and cover the set once", "[switchmc][props]") {
  std::mt19937_64 rng(7);
  for (const Case& c : topologies()) {
    INFO(c.name);
    const UpDownRouting r(c.t);
    const std::vector<int> lv = bfs_levels(c.t, r.root());
    const int N = c.t.num_nodes();
    for (int trial = 0; trial < 6; ++trial) {
      const int k = 1 + static_cast<int>(rng() % (N - 1));
      auto [src, dests] = random_multicast(rng, N, k);
      INFO("source " << src << ", " << k << " destinations");
      const std::vector<Poc> chains = find_pocs(c.t, r, src, dests);
      std::vector<int> seen_node(N, 0), seen_sw(c.t.num_switches(), 0);
      for (const Poc& p : chains) {
        for (std::size_t i = 0; i + 1 < p.switches.size(); ++i) {
          const SwitchId a = p.switches[i], b = p.switches[i + 1];
          CHECK(lv[b] > lv[a]);   // Theorem 4: strictly deeper, joined by down links
          std::vector<char> seen(c.t.num_switches(), 0);
          std::vector<SwitchId> st{a};
          while (!st.empty()) {
            const SwitchId u = st.back();
            st.pop_back();
            if (seen[u]++) continue;
            for (const PortPeer& pp : c.t.ports[u])
              if (pp.kind == PeerKind::switch_port && lv[pp.id] == lv[u] + 1) st.push_back(pp.id);
          }
          CHECK(seen[b]);
        }
        for (SwitchId s : p.switches) ++seen_sw[s];
        for (NodeId n : p.nodes) ++seen_node[n];
      }
      for (NodeId d : dests) CHECK(seen_node[d] == 1);
      CHECK(std::count(seen_node.begin(), seen_node.end(), 1) == static_cast<long>(dests.size()));
      for (SwitchId s = 0; s < c.t.num_switches(); ++s) {
        bool participating = c.t.node_attach[src].sw == s;
        for (NodeId d : dests) participating |= c.t.node_attach[d].sw == s;
        CHECK(seen_sw[s] == (participating ? 1 : 0));
      }
    }
  }
}

TEST_CASE("switchmc: random networks: path-based and SSR Greedy/LG schedules are legal and exact", "[switchmc][props]") {
  std::mt19937_64 rng(11);
  for (const Case& c : topologies()) {
    INFO(c.name);
    const UpDownRouting r(c.t);
    const int N = c.t.num_nodes();
    for (int trial = 0; trial < 5; ++trial) {
      const int k = trial == 0 ? N - 1 : 1 + static_cast<int>(rng() % (N - 1));
      auto [src, dests] = random_multicast(rng, N, k);
      INFO("source " << src << ", " << k << " destinations");
      const Schedule pg = plan_path_based(c.t, r, src, dests, Scheduler::greedy);
      const Schedule pl = plan_path_based(c.t, r, src, dests, Scheduler::less_greedy);
      const Schedule sg = plan_ssr(c.t, r, src, dests, Scheduler::greedy);
      const Schedule sl = plan_ssr(c.t, r, src, dests, Scheduler::less_greedy);
      check_multiphase(c.t, r, pg, dests, false);
      check_multiphase(c.t, r, pl, dests, true);
      check_multiphase(c.t, r, sg, dests, false);
      check_multiphase(c.t, r, sl, dests, true);
      for (PocDag dag : {PocDag::full_down_dag, PocDag::dfs_tree})
        for (bool recompute : {false, true}) {
          INFO("dfs tree " << (dag == PocDag::dfs_tree) << " recompute " << recompute);
          const Schedule o = plan_path_based(c.t, r, src, dests, Scheduler::less_greedy, PocOptions{dag, recompute});
          check_multiphase(c.t, r, o, dests, true);
        }
      CHECK(pg.phases <= pl.phases);
      CHECK(sg.phases <= sl.phases);
      CHECK(pl.worms.size() <= sl.worms.size());   // §5.8: path-based needs no more worms than SSR
      for (const ScheduledWorm& w : sl.worms)
        for (NodeId d : w.destinations) CHECK(c.t.node_attach[d].sw == c.t.node_attach[w.destinations[0]].sw);
    }
  }
}

TEST_CASE("switchmc: random networks: reachability strings match an independent computation", "[switchmc][props]") {
  for (const Case& c : topologies()) {
    INFO(c.name);
    const UpDownRouting r(c.t);
    const std::vector<int> lv = bfs_levels(c.t, r.root());
    const ReachabilityTables rt = compute_reachability(c.t, r);
    for (SwitchId s = 0; s < c.t.num_switches(); ++s) {
      // Per down port: what lies below it; then the highest port keeps it.
      const int k = c.t.ports_per_switch;
      std::vector<NodeBits> below(k, NodeBits(c.t.num_nodes()));
      NodeBits total(c.t.num_nodes());
      for (PortId p = 0; p < k; ++p) {
        const PortPeer& pp = c.t.peer(s, p);
        if (pp.kind == PeerKind::node) below[p].set(pp.id);
        if (pp.kind == PeerKind::switch_port && goes_down(lv, s, pp.id)) below[p] = down_reach(c.t, lv, pp.id);
        total |= below[p];
      }
      CHECK(rt.at(s).total == total);
      NodeBits claimed(c.t.num_nodes());
      for (PortId p = k - 1; p >= 0; --p) {
        NodeBits want = below[p];
        want.minus(claimed);
        claimed |= below[p];
        CHECK(rt.at(s).restricted[p] == want);
      }
    }
    CHECK(rt.at(r.root()).total.count() == c.t.num_nodes());
  }
}

TEST_CASE("switchmc: random networks: the tree worm delivers exactly once, legally", "[switchmc][props]") {
  std::mt19937_64 rng(13);
  for (const Case& c : topologies()) {
    INFO(c.name);
    const UpDownRouting r(c.t);
    const ReachabilityTables rt = compute_reachability(c.t, r);
    const int N = c.t.num_nodes();
    for (int trial = 0; trial < 6; ++trial) {
      const int k = trial == 0 ? N - 1 : 1 + static_cast<int>(rng() % (N - 1));
      auto [src, dests] = random_multicast(rng, N, k);
      for (std::size_t up = 0; up < 3; ++up) {
        INFO("source " << src << ", " << k << " destinations, up index " << up);
        const TreeTrace tr = run_tree_worm(c.t, r, rt, src, dests, up);
        const std::vector<std::string> problems = check_tree_trace(c.t, r.root(), tr, dests);
        INFO(joined(problems));
        CHECK(problems.empty());
      }
    }
  }
}
