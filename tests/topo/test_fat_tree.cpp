// IBFT(m, n) of seed003 §2 (topologies/fat_tree.h): the node and switch
// counts, the wiring checked port by port against the spec's raw edge rules
// (switch-switch and switch-node), the derived adjacency facts (down ports
// 1..h, up ports h+1..m, the parent/child formulas), labels and their
// names, and the errors.
#include <catch2/catch.hpp>

#include <map>
#include <set>
#include <sstream>
#include <string>
#include <utility>
#include <vector>

#include "topologies/fat_tree.h"
#include "topologies/fat_tree_io.h"

using namespace wormcast;
using Catch::Contains;
using topo::FatTree;
using topo::NodeId;

namespace {

const std::vector<std::pair<int, int>> kTrees = {{4, 2}, {4, 3}, {8, 2}, {8, 3}, {4, 4}, {6, 3}, {12, 2}};

// w' with digit l removed (spec §2).
std::vector<int> without_digit(std::vector<int> w, int l) {
  w.erase(w.begin() + l);
  return w;
}

// The spec's switch-switch edge rule, read literally: SW<w,l>_k -- SW<w',l'>_k'.
bool spec_switch_edge(const FatTree& t, int a, int k, int b, int kp) {
  const FatTree::SwitchLabel s = t.switch_label(a), c = t.switch_label(b);
  if (c.level != s.level + 1) return false;
  const std::vector<int> head(s.w.begin(), s.w.end() - 1);   // w_0..w_{n-3}
  return head == without_digit(c.w, s.level) && k == c.w[s.level] + 1 && kp == s.w.back() + t.h() + 1;
}

// The spec's switch-node edge rule: SW<w,n-1>_k -- P(p).
bool spec_node_edge(const FatTree& t, int sw, int k, NodeId x) {
  const FatTree::SwitchLabel s = t.switch_label(sw);
  const std::vector<int> p = t.node_digits(x);
  return s.level == t.n() - 1 && std::vector<int>(p.begin(), p.end() - 1) == s.w && k == p.back() + 1;
}

}  // namespace

TEST_CASE("fat tree: IBFT node and switch counts per level", "[fat_tree]") {
  struct Want { int m, n, nodes, switches; std::vector<int> per_level; };
  for (const Want& c : std::vector<Want>{{4, 2, 8, 6, {2, 4}},
                                         {4, 3, 16, 20, {4, 8, 8}},
                                         {8, 2, 32, 12, {4, 8}},
                                         {8, 3, 128, 80, {16, 32, 32}}}) {
    const FatTree t(c.m, c.n);
    CAPTURE(t.spec());
    CHECK(t.h() == c.m / 2);
    CHECK(t.num_nodes() == c.nodes);
    CHECK(t.num_switches() == c.switches);
    std::vector<int> per_level(static_cast<std::size_t>(c.n), 0);
    for (int sw = 0; sw < t.num_switches(); ++sw) ++per_level[t.switch_level(sw)];
    CHECK(per_level == c.per_level);
    for (int l = 0; l < c.n; ++l) CHECK(t.switches_at_level(l) == c.per_level[l]);
  }
  CHECK(FatTree(8, 3).spec() == "ibft:8,3");
}

TEST_CASE("fat tree: every port is wired and peer() is symmetric", "[fat_tree]") {
  for (const auto& [m, n] : kTrees) {
    const FatTree t(m, n);
    CAPTURE(t.spec());
    std::map<NodeId, std::pair<int, int>> node_at;
    for (int sw = 0; sw < t.num_switches(); ++sw)
      for (int k = 1; k <= m; ++k) {
        const FatTree::PortPeer pp = t.peer(sw, k);
        if (pp.is_node) {
          REQUIRE(t.valid_node(pp.id));
          CHECK(pp.port == 0);
          CHECK(node_at.emplace(pp.id, std::make_pair(sw, k)).second);   // each node on one port only
          continue;
        }
        REQUIRE(t.valid_switch(pp.id));
        REQUIRE(pp.port >= 1);
        REQUIRE(pp.port <= m);
        const FatTree::PortPeer back = t.peer(pp.id, pp.port);
        CHECK_FALSE(back.is_node);
        CHECK(back.id == sw);
        CHECK(back.port == k);
      }
    REQUIRE(static_cast<int>(node_at.size()) == t.num_nodes());
    for (const auto& [x, at] : node_at) {
      CHECK(t.leaf_switch(x) == at.first);
      CHECK(t.leaf_port(x) == at.second);
    }
  }
}

TEST_CASE("fat tree: peer() is exactly the spec's switch-switch and switch-node edge rules", "[fat_tree]") {
  for (const auto& [m, n] : kTrees) {
    const FatTree t(m, n);
    CAPTURE(t.spec());
    int switch_edges = 0;
    for (int a = 0; a < t.num_switches(); ++a)
      for (int k = 1; k <= m; ++k) {
        const FatTree::PortPeer pp = t.peer(a, k);
        for (int b = 0; b < t.num_switches(); ++b)
          for (int kp = 1; kp <= m; ++kp) {
            const bool rule = spec_switch_edge(t, a, k, b, kp) || spec_switch_edge(t, b, kp, a, k);
            const bool wired = !pp.is_node && pp.id == b && pp.port == kp;
            if (rule != wired) FAIL(t.switch_name(a) << "_" << k << " -- " << t.switch_name(b) << "_" << kp);
            switch_edges += spec_switch_edge(t, a, k, b, kp);
          }
        for (NodeId x = 0; x < t.num_nodes(); ++x)
          if (spec_node_edge(t, a, k, x) != (pp.is_node && pp.id == x))
            FAIL(t.switch_name(a) << "_" << k << " -- " << t.node_name(x));
      }
    // (n-1) levels of links, h up ports on each of 2h^(n-1) switches per level below the roots
    CHECK(switch_edges == (n - 1) * 2 * t.pow_h(n - 1) * t.h());
  }
}

TEST_CASE("fat tree: down and up ports and the parent and child formulas of §2", "[fat_tree]") {
  for (const auto& [m, n] : kTrees) {
    const FatTree t(m, n);
    const int h = t.h();
    CAPTURE(t.spec());
    for (int sw = 0; sw < t.num_switches(); ++sw) {
      const FatTree::SwitchLabel s = t.switch_label(sw);
      const int l = s.level;
      for (int k = 1; k <= m; ++k) {
        const FatTree::PortPeer pp = t.peer(sw, k);
        CHECK(t.is_up_port(sw, k) == (l >= 1 && k > h));
        if (l == 0) {   // roots: all ports down, port k to the level-1 switch with w'_0 = k-1
          CHECK(t.switch_label(pp.id).level == 1);
          CHECK(t.switch_label(pp.id).w[0] == k - 1);
        }
        if (t.is_up_port(sw, k)) {   // parent SW<(w' without digit l-1) · (k-h-1), l-1>, on down port w'_{l-1}+1
          std::vector<int> w = without_digit(s.w, l - 1);
          w.push_back(k - h - 1);
          CHECK(pp.id == t.switch_id({w, l - 1}));
          CHECK(pp.port == s.w[l - 1] + 1);
        } else if (l == n - 1) {
          CHECK(pp.is_node);
        } else {   // child SW<(w_0..w_{l-1}, k-1, w_l..w_{n-3}), l+1>, on up port w_{n-2}+h+1
          std::vector<int> w(s.w.begin(), s.w.begin() + l);
          w.push_back(k - 1);
          w.insert(w.end(), s.w.begin() + l, s.w.end() - 1);
          CHECK(pp.id == t.switch_id({w, l + 1}));
          CHECK(pp.port == s.w.back() + h + 1);
          CHECK(t.is_up_port(pp.id, pp.port));
        }
      }
    }
  }
}

TEST_CASE("fat tree: PIDs, labels and names round-trip", "[fat_tree]") {
  const FatTree t(4, 3);
  CHECK(t.node_digits(8) == std::vector<int>{2, 0, 0});
  CHECK(t.node_name(8) == "P(200)");
  CHECK(t.node_name(11) == "P(211)");
  CHECK(t.parse_node("P(211)") == 11);
  CHECK(t.parse_node(" 201 ") == 9);
  CHECK(t.parse_node("P( 2, 0, 1 )") == 9);
  CHECK(t.parse_node("p(300)") == 12);
  CHECK(t.node_of({3, 1, 1}) == 15);
  CHECK(t.switch_name(t.switch_id({{2, 0}, 1})) == "SW<20,1>");
  CHECK(t.parse_switch("SW<20,1>") == t.switch_id({{2, 0}, 1}));
  CHECK(t.parse_switch(" SW< 2, 0 , 1 > ") == t.switch_id({{2, 0}, 1}));
  CHECK(t.switch_name(0) == "SW<00,0>");
  CHECK(t.leaf_switch(t.parse_node("P(201)")) == t.parse_switch("SW<20,2>"));
  CHECK(t.leaf_port(t.parse_node("P(201)")) == 2);

  const FatTree wide(12, 3);   // digits up to 11: commas
  CHECK(wide.node_name(wide.node_of({11, 0, 3})) == "P(11,0,3)");
  CHECK(wide.parse_node("P(11, 0, 3)") == wide.node_of({11, 0, 3}));
  CHECK(wide.switch_name(wide.switch_id({{11, 2}, 2})) == "SW<11,2,2>");
  CHECK(FatTree(12, 2).parse_switch("SW<11,1>") == FatTree(12, 2).switch_id({{11}, 1}));

  for (const auto& [m, n] : kTrees) {
    const FatTree f(m, n);
    CAPTURE(f.spec());
    for (NodeId x = 0; x < f.num_nodes(); ++x) {
      CHECK(f.node_of(f.node_digits(x)) == x);
      CHECK(f.parse_node(f.node_name(x)) == x);
    }
    int prev_level = 0;
    for (int sw = 0; sw < f.num_switches(); ++sw) {
      CHECK(f.switch_id(f.switch_label(sw)) == sw);
      CHECK(f.parse_switch(f.switch_name(sw)) == sw);
      CHECK(f.switch_level(sw) >= prev_level);   // ordered by level first
      prev_level = f.switch_level(sw);
    }
  }
}

TEST_CASE("fat tree: bad m and n, ids, ports and names throw naming the value", "[fat_tree]") {
  CHECK_THROWS_WITH(FatTree(5, 3), Contains("m = 5"));
  CHECK_THROWS_WITH(FatTree(2, 3), Contains("m = 2"));
  CHECK_THROWS_WITH(FatTree(8, 1), Contains("n = 1"));
  CHECK_THROWS_WITH(FatTree(64, 5), Contains("n = 5"));   // 2·32^5 nodes
  CHECK_THROWS_AS(FatTree(4, 100000), std::invalid_argument);
  CHECK_NOTHROW(FatTree(4, 19));   // 2^20 nodes, the limit

  const FatTree t(4, 3);
  CHECK_THROWS_WITH(t.node_digits(16), Contains("16"));
  CHECK_THROWS_WITH(t.node_of({4, 0, 0}), Contains("(4)"));
  CHECK_THROWS_WITH(t.node_of({1, 2, 0}), Contains("(2)"));
  CHECK_THROWS_WITH(t.node_of({1, 0}), Contains("2 digits"));
  CHECK_THROWS_WITH(t.switch_label(20), Contains("20"));
  CHECK_THROWS_WITH(t.switch_id({{2, 0}, 0}), Contains("(2)"));   // level-0 digits are 0..h-1
  CHECK_THROWS_WITH(t.switch_id({{0, 0}, 3}), Contains("level 3"));
  CHECK_THROWS_WITH(t.peer(0, 5), Contains("port 5"));
  CHECK_THROWS_WITH(t.peer(0, 0), Contains("port 0"));
  CHECK_THROWS_WITH(t.is_up_port(25, 1), Contains("25"));
  CHECK_THROWS_WITH(t.leaf_switch(-1), Contains("-1"));
  CHECK_THROWS_WITH(t.leaf_port(16), Contains("16"));
  for (const std::string bad : {"P(2010)", "P(20)", "P(401)", "P(221)", "Q(201)", "P(2,0,x)", "", "P201)"})
    CHECK_THROWS_WITH(t.parse_node(bad), Contains("\"" + bad + "\""));
  for (const std::string bad : {"SW<20,3>", "SW<20>", "SW<2,1>", "SW<40,1>", "SW<20,0>", "SW<20,1", "XX<20,1>", "SW<,1>"})
    CHECK_THROWS_WITH(t.parse_switch(bad), Contains("\"" + bad + "\""));
}

TEST_CASE("fat tree show and DOT export: every link once, every name present", "[fat_tree]") {
  const topo::FatTree t = topo::parse_fat_tree_spec("ibft:4,2");
  std::ostringstream dot;
  topo::write_fat_tree_dot(t, dot);
  const std::string s = dot.str();
  // IBFT(4,2): 2 level-0 switches x 4 down ports + 4 level-1 switches x 2 down ports = 16 links.
  std::size_t links = 0;
  for (std::size_t at = s.find(" -- "); at != std::string::npos; at = s.find(" -- ", at + 1)) ++links;
  CHECK(links == 16);
  CHECK_THAT(s, Catch::Contains("\"SW<0,0>\" -- \"SW<0,1>\" [taillabel=1, headlabel=3]"));
  for (topo::NodeId x = 0; x < t.num_nodes(); ++x) CHECK_THAT(s, Catch::Contains("\"" + t.node_name(x) + "\""));
  std::ostringstream text;
  topo::show_fat_tree(t, text);
  CHECK_THAT(text.str(), Catch::Contains("8 nodes, 6 switches in 2 levels") &&
                             Catch::Contains("down P(00) P(01), up"));
  CHECK_THROWS_WITH(topo::parse_fat_tree_spec("ibft:8"), Catch::Contains("expected ibft:M,N"));
  CHECK_THROWS_WITH(topo::parse_fat_tree_spec("ibft:6,1"), Catch::Contains("ibft:6,1"));
  CHECK(topo::is_fat_tree_spec("ibft:8,3"));
  CHECK_FALSE(topo::is_fat_tree_spec("torus:4x4:uni"));
}

TEST_CASE("fat tree as a switch topology: wiring kept, recognised back, a rewired copy refused", "[fat_tree]") {
  for (const auto& [m, n] : std::vector<std::pair<int, int>>{{4, 2}, {4, 3}, {8, 3}, {6, 2}}) {
    INFO("IBFT(" << m << "," << n << ")");
    const topo::FatTree t(m, n);
    const topo::Topology topo = topo::fat_tree_topology(t);
    REQUIRE_NOTHROW(topo.validate());
    CHECK(topo.num_switches() == t.num_switches());
    CHECK(topo.num_nodes() == t.num_nodes());
    // Every IB port k is switch port k - 1, with the same peer.
    for (int sw = 0; sw < t.num_switches(); ++sw)
      for (int k = 1; k <= m; ++k) {
        const auto want = t.peer(sw, k);
        const auto& got = topo.peer(sw, k - 1);
        CHECK(got.kind == (want.is_node ? topo::PeerKind::node : topo::PeerKind::switch_port));
        CHECK(got.id == want.id);
        if (!want.is_node) CHECK(got.port == want.port - 1);
      }
    const auto back = topo::recognise_fat_tree(topo);
    REQUIRE(back.has_value());
    CHECK(back->m() == m);
    CHECK(back->n() == n);
  }
  // Two nodes swapped: same counts, not the IBFT wiring.
  topo::Topology swapped = topo::fat_tree_topology(topo::FatTree(4, 3));
  const auto a = swapped.node_attach[0], b = swapped.node_attach[5];
  swapped.attach(0, b.sw, b.port).attach(5, a.sw, a.port);
  CHECK_FALSE(topo::recognise_fat_tree(swapped).has_value());
  CHECK_FALSE(topo::recognise_fat_tree(topo::Topology::empty(3, 5)).has_value());
}
