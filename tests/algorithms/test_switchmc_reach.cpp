// seed000 §5.9: reachability strings (Fig. 18) on hand-checked networks, the
// tree-worm decode, and the Fig. 17(b) duplicate case.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>

#include "algorithms/reachability.h"
#include "algorithms/worm_check.h"
#include "switchmc_fixtures.h"

using namespace wormcast::algo;
using namespace switchmc_test;

namespace {

// S0 root; S1, S2 on level 1 with the same-level link S1 -> S2 (down toward
// the higher id); S3 on level 2 below both.
//   S0: p0->S1 p1->S2 p2=n0          S1: p0->S0 p1->S2 p2->S3 p3=n1
//   S2: p0->S0 p1->S1 p2->S3 p3=n2   S3: p0->S1 p1->S2 p2=n3 p3=n4
Topology diamond() {
  Topology t = Topology::empty(4, 4, "diamond with a same-level link");
  t.connect(0, 0, 1, 0).connect(0, 1, 2, 0).connect(1, 1, 2, 1).connect(1, 2, 3, 0).connect(2, 2, 3, 1);
  t.attach(0, 0, 2).attach(1, 1, 3).attach(2, 2, 3).attach(3, 3, 2).attach(4, 3, 3);
  t.validate();
  return t;
}

std::string s5(std::initializer_list<int> nodes) { return NodeBits::of(5, nodes).to_string(); }

}  // namespace

TEST_CASE("switchmc: reachability strings of a small network, by hand", "[switchmc][reach]") {
  const Topology t = diamond();
  const UpDownRouting r(t);
  const ReachabilityTables rt = compute_reachability(t, r);
  // Down links: S0->S1, S0->S2, S1->S2 (same level), S1->S3, S2->S3.
  // Totals: r3 = {3,4}; r2 = {2} + r3; r1 = {1} + r2 + r3; r0 = everything.
  CHECK(rt.at(3).total.to_string() == s5({3, 4}));
  CHECK(rt.at(2).total.to_string() == s5({2, 3, 4}));
  CHECK(rt.at(1).total.to_string() == s5({1, 2, 3, 4}));   // needs r2 first: same level
  CHECK(rt.at(0).total.to_string() == s5({0, 1, 2, 3, 4}));
  // Restricted: each node goes to the highest-numbered down port reaching it.
  CHECK(rt.at(3).restricted[2].to_string() == s5({3}));
  CHECK(rt.at(3).restricted[3].to_string() == s5({4}));
  CHECK(rt.at(2).restricted[0].to_string() == s5({}));      // up port
  CHECK(rt.at(2).restricted[1].to_string() == s5({}));      // up port (S1 < S2, same level)
  CHECK(rt.at(2).restricted[2].to_string() == s5({3, 4}));
  CHECK(rt.at(2).restricted[3].to_string() == s5({2}));
  CHECK(rt.at(1).restricted[1].to_string() == s5({2}));     // S2 reaches 2,3,4; p2 claims 3,4
  CHECK(rt.at(1).restricted[2].to_string() == s5({3, 4}));
  CHECK(rt.at(1).restricted[3].to_string() == s5({1}));
  CHECK(rt.at(0).restricted[0].to_string() == s5({1}));     // S1 reaches 1..4; p1 claims 2,3,4
  CHECK(rt.at(0).restricted[1].to_string() == s5({2, 3, 4}));
  CHECK(rt.at(0).restricted[2].to_string() == s5({0}));
  CHECK(rt.at(2).up_ports == std::vector<PortId>{0, 1});
  CHECK(rt.at(0).up_ports.empty());
}

TEST_CASE("switchmc: tree decode at a switch", "[switchmc][reach]") {
  const Topology t = diamond();
  const UpDownRouting r(t);
  const ReachabilityTables rt = compute_reachability(t, r);
  // At S2 from node 2 for {0, 3}: 0 is not below S2, so up, header unchanged.
  const NodeBits h = NodeBits::of(5, {0, 3});
  auto b = decode_tree_worm(rt.at(2), Phase::may_go_up, true, h);
  REQUIRE(b.size() == 1);
  CHECK(b[0].port == 0);   // lowest up port
  CHECK(b[0].up_down);
  CHECK(b[0].dests == h);
  b = decode_tree_worm(rt.at(2), Phase::may_go_up, true, h, 1);   // round-robin index 1
  CHECK(b[0].port == 1);
  // At S0 for {0, 3}: all below -> up-down bit cleared, one copy per port.
  b = decode_tree_worm(rt.at(0), Phase::may_go_up, true, h);
  REQUIRE(b.size() == 2);
  CHECK(b[0].port == 1);
  CHECK(b[0].dests == NodeBits::of(5, {3}));
  CHECK_FALSE(b[0].up_down);
  CHECK(b[1].port == 2);
  CHECK(b[1].to_node);
  // Down-going worms never go up; inconsistent headers are rejected.
  CHECK_THROWS_AS(decode_tree_worm(rt.at(2), Phase::down_only, false, h), std::invalid_argument);
  CHECK_THROWS_AS(decode_tree_worm(rt.at(2), Phase::down_only, true, NodeBits::of(5, {3})), std::invalid_argument);
  CHECK_THROWS_AS(decode_tree_worm(rt.at(2), Phase::may_go_up, true, NodeBits(5)), std::invalid_argument);
}

TEST_CASE("switchmc: Fig. 17(b): header modification avoids the duplicate through switches 1 and 4", "[switchmc][reach]") {
  const Topology t = fig14(/*link_4_7=*/true);
  const UpDownRouting r = fig14_routing(t);
  REQUIRE(r.root() == sw(6));
  REQUIRE(r.level(sw(7)) == r.level(sw(4)) + 1);   // 4 -> 7 is a down link
  const ReachabilityTables rt = compute_reachability(t, r);
  const std::vector<NodeId> dests{proc(4, 1), proc(4, 2), proc(7, 1), proc(7, 2)};
  const NodeBits h = NodeBits::of(t.num_nodes(), dests);

  // The duplicate exists: with restricted strings but the header left
  // unchanged, switch 6 sends everything toward 1 (its highest down port
  // reaching 4 and 7), 1 sends copies to 4 and 7, and 4 forwards to 7 again.
  std::map<NodeId, int> naive;
  std::vector<std::pair<SwitchId, bool>> work{{sw(10), true}};
  while (!work.empty()) {
    auto [s, up] = work.back();
    work.pop_back();
    const SwitchReach& sr = rt.at(s);
    if (up && !h.subset_of(sr.total)) { work.push_back({t.peer(s, sr.up_ports[0]).id, true}); continue; }
    for (PortId p = 0; p < t.ports_per_switch; ++p) {
      if (!sr.down_port[p] || !(h & sr.restricted[p]).any()) continue;
      if (sr.node_port[p]) ++naive[t.peer(s, p).id];
      else work.push_back({t.peer(s, p).id, false});
    }
  }
  CHECK(naive[proc(7, 1)] == 2);

  // The real decode delivers each destination once and legally.
  const TreeTrace tr = run_tree_worm(t, r, rt, fig14_source(), dests);
  CHECK(check_tree_trace(t, r.root(), tr, dests).empty());
  std::vector<NodeId> got = tr.delivered;
  std::sort(got.begin(), got.end());
  CHECK(got == dests);
}

TEST_CASE("switchmc: tree worm of Fig. 17(a): the Fig. 14 multicast in one worm", "[switchmc][reach]") {
  const Topology t = fig14();
  const UpDownRouting r = fig14_routing(t);
  const ReachabilityTables rt = compute_reachability(t, r);
  const TreeTrace tr = run_tree_worm(t, r, rt, fig14_source(), fig14_dests());
  CHECK(check_tree_trace(t, r.root(), tr, fig14_dests()).empty());
  // By hand from the port order of the fixture: at the root 6 the highest
  // down port reaching each switch claims it; port 5 (to 1) reaches 1, 4
  // (1 -> 4 same-level), 7, 8, 9; port 4 (to 10) only 10; port 3 (to 5)
  // keeps 5, 3, 2. At 1, port 4 (to 7) claims 7, 9 and port 3 (to 4) keeps
  // 4, 8. So the worm climbs 10 -> 6 and then takes exactly these links.
  std::vector<std::pair<int, int>> links;
  for (const TreeHop& h : tr.hops)
    if (t.peer(h.sw, h.port).kind == PeerKind::switch_port)
      links.emplace_back(paper_sw(h.sw), paper_sw(t.peer(h.sw, h.port).id));
  std::sort(links.begin(), links.end());
  CHECK(links == std::vector<std::pair<int, int>>{{1, 4}, {1, 7}, {4, 8}, {5, 2}, {5, 3}, {6, 1}, {6, 5}, {7, 9}, {10, 6}});
  CHECK(tr.hops.size() == links.size() + 16u);   // plus one hop per destination processor
  CHECK(tr.hops[0].sw == sw(10));
  CHECK(tr.hops[0].up_down);
}
