// Up*/down* routing (seed000 §1.2): levels, directions, tables, checker.
#include <catch2/catch.hpp>

#include <string>

#include "topologies/updown.h"
#include "topologies/updown_check.h"

using namespace wormcast::topo;

namespace {

using Ports = std::vector<PortId>;
constexpr Phase U = Phase::may_go_up;
constexpr Phase D = Phase::down_only;

void link(Topology& t, SwitchId a, PortId pa, SwitchId b, PortId pb) {
  t.ports[a][pa] = {PeerKind::switch_port, b, pb};
  t.ports[b][pb] = {PeerKind::switch_port, a, pa};
}

void attach(Topology& t, NodeId n, SwitchId s, PortId p) {
  if (static_cast<int>(t.node_attach.size()) <= n) t.node_attach.resize(n + 1);
  t.node_attach[n] = {s, p};
  t.ports[s][p] = {PeerKind::node, n, -1};
}

// Ring 0-1-2-3-0 plus the chord 1-3, four ports per switch:
//   s0: p0->s1.p0  p1->s3.p1  p2=node0  p3 open
//   s1: p0->s0.p0  p1->s2.p0  p2->s3.p2 p3=node1
//   s2: p0->s1.p1  p1->s3.p0  p2=node2  p3=node4
//   s3: p0->s2.p1  p1->s0.p1  p2->s1.p2 p3=node3
Topology ring_with_chord() {
  Topology t;
  t.ports_per_switch = 4;
  t.ports.assign(4, std::vector<PortPeer>(4));
  link(t, 0, 0, 1, 0);
  link(t, 1, 1, 2, 0);
  link(t, 2, 1, 3, 0);
  link(t, 3, 1, 0, 1);
  link(t, 1, 2, 3, 2);
  attach(t, 0, 0, 2);
  attach(t, 1, 1, 3);
  attach(t, 2, 2, 2);
  attach(t, 3, 3, 3);
  attach(t, 4, 2, 3);
  t.description = "ring with chord";
  return t;
}

// Plain 4-ring: s_i.p0 -> s_{i+1}.p1 (clockwise), node i on s_i.p2.
Topology ring4() {
  Topology t;
  t.ports_per_switch = 3;
  t.ports.assign(4, std::vector<PortPeer>(3));
  for (SwitchId s = 0; s < 4; ++s) link(t, s, 0, (s + 1) % 4, 1);
  for (NodeId n = 0; n < 4; ++n) attach(t, n, n, 2);
  return t;
}

bool mentions(const std::vector<std::string>& problems, const std::string& what) {
  for (const std::string& p : problems)
    if (p.find(what) != std::string::npos) return true;
  return false;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

}  // namespace

TEST_CASE("levels, tree and directions on a ring with a chord (root 0, by hand)", "[updown]") {
  const Topology t = ring_with_chord();
  const UpDownRouting r(t);
  CHECK(r.root() == 0);
  CHECK(r.level(0) == 0);
  CHECK(r.level(1) == 1);
  CHECK(r.level(3) == 1);
  CHECK(r.level(2) == 2);
  CHECK(r.max_level() == 2);
  CHECK(r.tree_parent(0) == -1);
  CHECK(r.tree_parent(1) == 0);
  CHECK(r.tree_parent(3) == 0);
  CHECK(r.tree_parent(2) == 1);   // 1 and 3 both at level 1: lowest id wins

  // Up ends: 0 for 0-1 and 0-3 (closer to root), 1 for 1-2, 3 for 2-3,
  // and 1 for the same-level chord 1-3 (lower id).
  CHECK_FALSE(r.is_up_port(0, 0));
  CHECK_FALSE(r.is_up_port(0, 1));
  CHECK_FALSE(r.is_up_port(0, 2));   // node port
  CHECK_FALSE(r.is_up_port(0, 3));   // open port
  CHECK(r.is_up_port(1, 0));
  CHECK_FALSE(r.is_up_port(1, 1));
  CHECK_FALSE(r.is_up_port(1, 2));
  CHECK(r.is_up_port(2, 0));
  CHECK(r.is_up_port(2, 1));
  CHECK_FALSE(r.is_up_port(3, 0));
  CHECK(r.is_up_port(3, 1));
  CHECK(r.is_up_port(3, 2));

  CHECK(r.is_tree_port(0, 0));
  CHECK(r.is_tree_port(1, 0));
  CHECK(r.is_tree_port(0, 1));
  CHECK(r.is_tree_port(3, 1));
  CHECK(r.is_tree_port(1, 1));
  CHECK(r.is_tree_port(2, 0));
  CHECK_FALSE(r.is_tree_port(2, 1));
  CHECK_FALSE(r.is_tree_port(3, 0));
  CHECK_FALSE(r.is_tree_port(1, 2));
  CHECK_FALSE(r.is_tree_port(3, 2));
  CHECK_FALSE(r.is_tree_port(0, 2));

  // Arriving through a port whose outgoing direction is up means the packet
  // came down.
  CHECK(r.arrival_phase(1, 0) == D);
  CHECK(r.arrival_phase(0, 0) == U);
  CHECK(r.arrival_phase(3, 2) == D);
  CHECK(r.arrival_phase(1, 2) == U);
  CHECK(r.arrival_phase(2, 0) == D);
  CHECK(r.arrival_phase(2, 1) == D);
  CHECK(r.arrival_phase(3, 0) == U);
  CHECK(r.arrival_phase(2, 2) == U);   // from a node
}

TEST_CASE("tables on a ring with a chord match a hand calculation", "[updown]") {
  const Topology t = ring_with_chord();
  const UpDownRouting r(t);
  // Down links: 0->1, 0->3, 1->2, 3->2, 1->3.
  // Destination node 0 (s0.p2): only reachable going up.
  CHECK(r.ports(0, U, 0) == Ports{2});
  CHECK(r.ports(0, D, 0) == Ports{2});
  CHECK(r.ports(1, U, 0) == Ports{0});
  CHECK(r.ports(3, U, 0) == Ports{1});      // not via the chord (2 hops)
  CHECK(r.ports(2, U, 0) == Ports{0, 1});   // via 1 or via 3, both 2 hops
  CHECK(r.ports(1, D, 0).empty());
  CHECK(r.ports(2, D, 0).empty());
  CHECK(r.ports(3, D, 0).empty());
  CHECK(r.distance(2, U, 0) == 2);
  CHECK(r.distance(2, D, 0) == -1);
  CHECK(r.distance(0, D, 0) == 0);
  // Destination node 1 (s1.p3).
  CHECK(r.ports(1, U, 1) == Ports{3});
  CHECK(r.ports(1, D, 1) == Ports{3});
  CHECK(r.ports(0, U, 1) == Ports{0});
  CHECK(r.ports(0, D, 1) == Ports{0});
  CHECK(r.ports(2, U, 1) == Ports{0});
  CHECK(r.ports(2, D, 1).empty());   // s2 has no down links
  CHECK(r.ports(3, U, 1) == Ports{2});   // up the chord
  CHECK(r.ports(3, D, 1).empty());
  // Destinations nodes 2 and 4 (both on s2).
  CHECK(r.ports(2, U, 2) == Ports{2});
  CHECK(r.ports(2, U, 4) == Ports{3});
  CHECK(r.ports(2, D, 4) == Ports{3});
  CHECK(r.ports(1, U, 2) == Ports{1});
  CHECK(r.ports(1, D, 4) == Ports{1});
  CHECK(r.ports(3, U, 2) == Ports{0});
  CHECK(r.ports(3, D, 2) == Ports{0});
  CHECK(r.ports(0, U, 4) == Ports{0, 1});
  CHECK(r.ports(0, D, 2) == Ports{0, 1});
  CHECK(r.distance(0, D, 2) == 2);
  // Destination node 3 (s3.p3).
  CHECK(r.ports(0, U, 3) == Ports{1});
  CHECK(r.ports(0, D, 3) == Ports{1});
  CHECK(r.ports(1, U, 3) == Ports{2});   // down the chord
  CHECK(r.ports(1, D, 3) == Ports{2});
  CHECK(r.ports(2, U, 3) == Ports{1});
  CHECK(r.ports(2, D, 3).empty());
  CHECK(r.distance(2, U, 3) == 1);

  CHECK(check_updown(t, r).empty());
  CHECK_THROWS_AS(r.ports(4, U, 0), std::out_of_range);
  CHECK_THROWS_AS(r.ports(0, U, 5), std::out_of_range);
}

TEST_CASE("max-degree root rule", "[updown]") {
  const Topology t = ring_with_chord();
  const UpDownRouting r(t, RootRule::max_degree);
  // Degrees 2, 3, 2, 3: switch 1 (tie with 3 goes to the lower id).
  CHECK(r.root() == 1);
  CHECK(r.level(1) == 0);
  CHECK(r.level(0) == 1);
  CHECK(r.level(2) == 1);
  CHECK(r.level(3) == 1);
  CHECK(r.is_up_port(0, 0));
  CHECK(r.is_up_port(3, 1));         // 0-3 at equal level: 0 is the up end
  CHECK_FALSE(r.is_up_port(0, 1));
  CHECK(r.is_up_port(3, 0));         // 2-3 at equal level: 2 is the up end
  CHECK_FALSE(r.is_up_port(2, 1));
  CHECK(r.ports(0, U, 3) == Ports{1});   // one hop down the cross link
  CHECK(r.ports(3, U, 0) == Ports{1});   // direct (up); via the root is 2 hops
  CHECK(check_updown(t, r).empty());
}

TEST_CASE("checker accepts the tables of many random topologies", "[updown]") {
  const std::vector<IrregularParams> sizes = {
      {8, 8, 32, 0.8, 1}, {16, 8, 64, 0.8, 1}, {64, 8, 256, 0.8, 1}, {4, 16, 32, 1.0, 1}, {16, 4, 16, 1.0, 1},
  };
  int checked = 0;
  for (const IrregularParams& base : sizes) {
    const int seeds = base.switches >= 64 ? 20 : 60;
    for (int seed = 1; seed <= seeds; ++seed) {
      IrregularParams prm = base;
      prm.seed = seed;
      const Topology t = generate_irregular(prm);
      for (RootRule rule : {RootRule::lowest_id, RootRule::max_degree}) {
        const UpDownRouting r(t, rule);
        const std::vector<std::string> problems = check_updown(t, r);
        INFO(t.description << "\n" << joined(problems));
        CHECK(problems.empty());
        // From a node every destination is reachable.
        for (NodeId src = 0; src < t.num_nodes(); src += 7)
          for (NodeId dst = 0; dst < t.num_nodes(); dst += 5)
            CHECK_FALSE(r.ports(t.node_attach[src].sw, U, dst).empty());
        ++checked;
      }
    }
  }
  CHECK(checked >= 400);
}

TEST_CASE("checker reports illegal, non-minimal and missing entries", "[updown]") {
  const Topology t = ring_with_chord();
  const UpDownRouting r(t);
  detail::RoutingView v = detail::view_of(r);
  REQUIRE(detail::check_updown(t, v).empty());

  SECTION("up after down") {
    // s2 in down_only may not climb back to s1 toward node 0.
    static const Ports bad{0};
    v.ports = [&r](SwitchId s, Phase ph, NodeId d) -> const Ports& {
      return s == 2 && ph == D && d == 0 ? bad : r.ports(s, ph, d);
    };
    const auto problems = detail::check_updown(t, v);
    CHECK(mentions(problems, "up link after a down link"));
  }
  SECTION("non-minimal port") {
    // s2 -> node 1 via s3 and the chord is 2 hops; the direct link is 1.
    static const Ports bad{0, 1};
    v.ports = [&r](SwitchId s, Phase ph, NodeId d) -> const Ports& {
      return s == 2 && ph == U && d == 1 ? bad : r.ports(s, ph, d);
    };
    const auto problems = detail::check_updown(t, v);
    CHECK(mentions(problems, "not on a minimal legal route"));
    CHECK(mentions(problems, "route node 2 -> node 1: 1..2 hops"));
  }
  SECTION("missing minimal port") {
    static const Ports partial{0};
    v.ports = [&r](SwitchId s, Phase ph, NodeId d) -> const Ports& {
      return s == 0 && ph == U && d == 2 ? partial : r.ports(s, ph, d);
    };
    CHECK(mentions(detail::check_updown(t, v), "missing port 1"));
  }
  SECTION("unroutable pair") {
    static const Ports none;
    v.ports = [&r](SwitchId s, Phase ph, NodeId d) -> const Ports& {
      return s == 3 && d == 1 ? none : r.ports(s, ph, d);
    };
    CHECK(mentions(detail::check_updown(t, v), "no route out of switch 3"));
  }
  SECTION("wrong arrival phase") {
    v.arrival_phase = [](SwitchId, PortId) { return U; };
    CHECK(mentions(detail::check_updown(t, v), "arrival_phase says may_go_up"));
  }
  SECTION("wrong direction") {
    v.is_up_port = [&r](SwitchId s, PortId p) { return s == 1 && p == 2 ? true : r.is_up_port(s, p); };
    CHECK(mentions(detail::check_updown(t, v), "switch 1 port 2: routing says up"));
  }
}

TEST_CASE("checker finds a channel dependency cycle", "[updown]") {
  // Everything goes clockwise around a ring: the classic deadlock.
  const Topology t = ring4();
  detail::RoutingView v;
  static const Ports clockwise{0};
  static std::vector<Ports> local{{2}};
  v.root = [] { return 0; };
  v.level = [](SwitchId s) { return s == 0 ? 0 : s == 2 ? 2 : 1; };
  v.tree_parent = [](SwitchId s) { return s == 0 ? -1 : s == 2 ? 1 : 0; };
  v.is_up_port = [](SwitchId s, PortId p) {
    // Levels 0,1,2,1: up ends 0 (0-1, 3-0), 1 (1-2), 3 (2-3).
    return (s == 1 && p == 1) || (s == 3 && p == 0) || (s == 2 && p == 1) || (s == 2 && p == 0);
  };
  v.arrival_phase = [&v](SwitchId s, PortId p) { return v.is_up_port(s, p) ? D : U; };
  v.ports = [&t](SwitchId s, Phase, NodeId d) -> const Ports& {
    return t.node_attach[d].sw == s ? local[0] : clockwise;
  };
  const auto problems = detail::check_updown(t, v);
  INFO(joined(problems));
  CHECK(mentions(problems, "channel dependency cycle: s"));
  CHECK(mentions(problems, "up link after a down link"));
  // And the real routing on the same ring is fine.
  CHECK(check_updown(t, UpDownRouting(t)).empty());
}

TEST_CASE("checker rejects a routing built for another topology", "[updown]") {
  const Topology t = ring_with_chord();
  // Move the chord to join s0.p3 and s2.p3; node 4 moves to s1.p2.
  Topology other = t;
  other.ports[3][2] = {};
  attach(other, 4, 1, 2);
  link(other, 0, 3, 2, 3);
  REQUIRE_NOTHROW(other.validate());
  const UpDownRouting r_other(other);
  REQUIRE(check_updown(other, r_other).empty());
  const auto problems = check_updown(t, r_other);
  CHECK_FALSE(problems.empty());

  Topology bigger = t;
  bigger.ports.push_back(std::vector<PortPeer>(4));
  link(bigger, 0, 3, 4, 0);
  CHECK(mentions(check_updown(bigger, UpDownRouting(t)), "does not match"));
}

TEST_CASE("a single switch routes to its own nodes", "[updown]") {
  const Topology t = generate_irregular({1, 8, 8, 1.0, 1});
  const UpDownRouting r(t);
  CHECK(r.max_level() == 0);
  for (NodeId n = 0; n < 8; ++n) {
    CHECK(r.ports(0, U, n) == Ports{t.node_attach[n].port});
    CHECK(r.ports(0, D, n) == Ports{t.node_attach[n].port});
  }
  CHECK(check_updown(t, r).empty());
}

TEST_CASE("routing performance on the largest default size", "[updown]") {
  // 64 switches / 256 nodes: generation + tables is a per-run cost; keep it small.
  const Topology t = generate_irregular({64, 8, 256, 0.8, 5});
  const UpDownRouting r(t);
  CHECK(r.max_level() >= 1);
  CHECK(check_updown(t, r).empty());
}

TEST_CASE("a 512-switch generated network passes the checker", "[updown]") {
  const Topology t = generate_irregular({512, 8, 2048, 0.8, 3});
  for (RootRule rule : {RootRule::lowest_id, RootRule::max_degree}) {
    const UpDownRouting r(t, rule);
    const std::vector<std::string> problems = check_updown(t, r);
    INFO(joined(problems));
    CHECK(problems.empty());
    CHECK(r.max_level() >= 3);
  }
}

TEST_CASE("checker catches a wrong entry for one of several nodes on a switch", "[updown]") {
  // Nodes 2 and 4 share s2, so their entries are the same list; only node
  // 4's is replaced here, after node 2's was found right.
  const Topology t = ring_with_chord();
  const UpDownRouting r(t);
  detail::RoutingView v = detail::view_of(r);
  static const Ports bad{1};   // s0 -> s3 -> s2 is minimal, but s0 -> s1 -> s2 is missing
  v.ports = [&r](SwitchId s, Phase ph, NodeId d) -> const Ports& {
    return s == 0 && ph == U && d == 4 ? bad : r.ports(s, ph, d);
  };
  const auto problems = detail::check_updown(t, v);
  INFO(joined(problems));
  CHECK(mentions(problems, "switch 0 phase may_go_up dst node 4: missing port 0"));
  CHECK_FALSE(mentions(problems, "dst node 2:"));

  // A loop in down_only, unreachable from any source, is still an illegal entry.
  static const Ports loop{0};
  v.ports = [&r](SwitchId s, Phase ph, NodeId d) -> const Ports& {
    return s == 2 && ph == D && d == 4 ? loop : r.ports(s, ph, d);
  };
  CHECK(mentions(detail::check_updown(t, v), "switch 2 phase down_only dst node 4: port 0 is illegal"));
}

TEST_CASE("ports_to gives, for every switch and phase, the very list ports() returns", "[updown]") {
  for (const IrregularParams& prm : {IrregularParams{8, 8, 32, 0.8, 2}, IrregularParams{64, 8, 256, 0.8, 4}}) {
    const Topology t = generate_irregular(prm);
    const UpDownRouting r(t, RootRule::max_degree);
    std::vector<const Ports*> col;
    for (NodeId d = 0; d < t.num_nodes(); ++d) {
      r.ports_to(d, col);
      REQUIRE(col.size() == static_cast<std::size_t>(t.num_switches()) * 2);
      for (SwitchId s = 0; s < t.num_switches(); ++s) {
        REQUIRE(col[static_cast<std::size_t>(s) * 2] == &r.ports(s, U, d));
        REQUIRE(col[static_cast<std::size_t>(s) * 2 + 1] == &r.ports(s, D, d));
      }
    }
    CHECK_THROWS_AS(r.ports_to(t.num_nodes(), col), std::out_of_range);
    // The checker reads the same entries entry by entry (a view without ports_to).
    CHECK(detail::check_updown(t, detail::view_of(r)).empty());
    CHECK(check_updown(t, r).empty());
  }
}
