// Direct-network routing (seed001 §1.3, §1.5, §5.3): worked examples from the
// thesis text and hand calculations, VC existence, mismatches.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <set>
#include <string>
#include <vector>

#include "topologies/direct_routing.h"

using namespace wormcast::topo;

namespace {

std::vector<std::string> node_path(const DirectTopology& t, NodeId src, const std::vector<RouteHop>& hops) {
  std::vector<std::string> out{t.name(src)};
  for (const RouteHop& h : hops) out.push_back(t.name(h.next));
  return out;
}

// "d1h" style: dimension, class (direction left out where it is implied).
std::vector<std::string> channel_path(const std::vector<RouteHop>& hops, bool with_dir = false) {
  std::vector<std::string> out;
  for (const RouteHop& h : hops)
    out.push_back(std::to_string(h.dim) + to_string(h.vc) + (with_dir ? to_string(h.dir) : ""));
  return out;
}

using Strings = std::vector<std::string>;

}  // namespace

TEST_CASE("Fig. 4.1: (0,2)->(3,1) takes 2 links bidirectional, 6 unidirectional", "[direct][routing]") {
  const DirectTopology uni = parse_direct_spec("torus:4x4:uni");
  const DirectTopology bi = parse_direct_spec("torus:4x4:bi");
  const DirectRouting utr(uni, RoutingAlgorithm::utr);
  const DirectRouting btr(bi, RoutingAlgorithm::btr);
  CHECK(utr.route(uni.parse_node("(0,2)"), uni.parse_node("(3,1)")).size() == 6);
  CHECK(btr.route(bi.parse_node("(0,2)"), bi.parse_node("(3,1)")).size() == 2);
}

TEST_CASE("UTR: the thesis path P((0,0),(2,1)) = c1h(0,0), c1h(1,0), c0h(2,0)", "[direct][routing]") {
  const DirectTopology t = parse_direct_spec("torus:4x4:uni");
  const DirectRouting r(t, RoutingAlgorithm::utr);
  const std::vector<RouteHop> p = r.route(t.parse_node("(0,0)"), t.parse_node("(2,1)"));
  CHECK(node_path(t, t.parse_node("(0,0)"), p) == Strings{"(0,0)", "(1,0)", "(2,0)", "(2,1)"});
  CHECK(channel_path(p) == Strings{"1h", "1h", "0h"});
}

TEST_CASE("UTR (Eq. 4.1): p before the wrap, h after it and without one", "[direct][routing]") {
  const DirectTopology t = parse_direct_spec("torus:4x4:uni");
  const DirectRouting r(t, RoutingAlgorithm::utr);
  // (0,2)->(3,1): dimension 1 has Δ = 3 > 0 (h, h, h); dimension 0 has
  // Δ = 1 - 2 < 0, so p from 2 and from 3 (the wrap), then h from 0 to 1.
  const std::vector<RouteHop> p = r.route(t.parse_node("(0,2)"), t.parse_node("(3,1)"));
  CHECK(channel_path(p) == Strings{"1h", "1h", "1h", "0p", "0p", "0h"});
  CHECK(node_path(t, t.parse_node("(0,2)"), p) ==
        Strings{"(0,2)", "(1,2)", "(2,2)", "(3,2)", "(3,3)", "(3,0)", "(3,1)"});
  CHECK(r.num_vcs() == 2);
  // Existence: no h on the wrap out of 3, no p out of coordinate 0.
  const NodeId n30 = t.parse_node("(3,0)"), n33 = t.parse_node("(3,3)");
  CHECK_FALSE(r.vc_classes(n33, 0, Direction::plus).contains(VcClass::h));
  CHECK(r.vc_classes(n33, 0, Direction::plus).contains(VcClass::p));
  CHECK_FALSE(r.vc_classes(n30, 0, Direction::plus).contains(VcClass::p));
  CHECK(r.vc_classes(n30, 0, Direction::plus).contains(VcClass::h));
  CHECK(r.vc_classes(n30, 0, Direction::minus).empty());
}

TEST_CASE("BTR (Eq. 4.2): class and direction choices", "[direct][routing]") {
  auto hops = [](const char* spec, const char* from, const char* to) {
    const DirectTopology t = parse_direct_spec(spec);
    const DirectRouting r(t, RoutingAlgorithm::btr);
    return channel_path(r.route(t.parse_node(from), t.parse_node(to)), true);
  };
  // k = 5 (k/2 = 2.5): Δ = 3 wraps downward on p, then l; Δ = -3 wraps up on
  // p, then h; Δ = 2 goes up on h.
  CHECK(hops("torus:5:bi", "(0)", "(3)") == Strings{"0p-", "0l-"});
  CHECK(hops("torus:5:bi", "(4)", "(1)") == Strings{"0p+", "0h+"});
  CHECK(hops("torus:5:bi", "(1)", "(3)") == Strings{"0h+", "0h+"});
  CHECK(hops("torus:5:bi", "(3)", "(2)") == Strings{"0l-"});
  // k = 4: |Δ| = k/2 is a tie and does not wrap (§7.3).
  CHECK(hops("torus:4:bi", "(0)", "(2)") == Strings{"0h+", "0h+"});
  CHECK(hops("torus:4:bi", "(3)", "(1)") == Strings{"0l-", "0l-"});
  CHECK(hops("torus:4:bi", "(3)", "(0)") == Strings{"0p+"});
  CHECK(hops("torus:4:bi", "(0)", "(3)") == Strings{"0p-"});
  // k = 6: 4 -> 0 is 2 hops up through the wrap (p, p), not 4 down.
  CHECK(hops("torus:6:bi", "(4)", "(0)") == Strings{"0p+", "0p+"});
  CHECK(hops("torus:6:bi", "(1)", "(4)") == Strings{"0h+", "0h+", "0h+"});
  // Highest dimension first in 2-D.
  CHECK(hops("torus:6x6:bi", "(5,1)", "(1,4)") == Strings{"1p+", "1h+", "0h+", "0h+", "0h+"});
}

TEST_CASE("BTR VC existence (§1.5 rules, Fig. 4.3)", "[direct][routing]") {
  const DirectTopology t = parse_direct_spec("torus:8:bi");
  const DirectRouting r(t, RoutingAlgorithm::btr);
  CHECK(r.num_vcs() == 3);
  auto on = [&](int s, Direction dir) { return r.vc_classes(t.node_of({s}), 0, dir); };
  // Fig. 4.3: between 0 and 1 one link carries c_h0, the other c_p1 and c_l1.
  VcSet h0, pl1;
  h0.add(VcClass::h);
  pl1.add(VcClass::p);
  pl1.add(VcClass::l);
  CHECK(on(0, Direction::plus) == h0);
  CHECK(on(1, Direction::minus) == pl1);
  // Rule 3: p upward for ⌈7/2⌉ + 1 = 5 <= σ <= 7; rule 4: p downward for
  // 0 <= σ <= ⌊7/2⌋ - 1 = 2. Wraps carry only p; the centre has no p.
  for (int s = 0; s < 8; ++s) {
    INFO("sigma " << s);
    CHECK(on(s, Direction::plus).contains(VcClass::p) == (s >= 5));
    CHECK(on(s, Direction::minus).contains(VcClass::p) == (s <= 2));
    CHECK(on(s, Direction::plus).contains(VcClass::h) == (s <= 6));
    CHECK(on(s, Direction::minus).contains(VcClass::l) == (s >= 1));
  }
  VcSet p_only;
  p_only.add(VcClass::p);
  CHECK(on(7, Direction::plus) == p_only);
  CHECK(on(0, Direction::minus) == p_only);
}

TEST_CASE("E-cube (Definition 3.1): P(0101,1110) = (0101, 1101, 1111, 1110)", "[direct][routing]") {
  const DirectTopology h = DirectTopology::hypercube(4);
  const DirectRouting r(h, RoutingAlgorithm::ecube);
  const std::vector<RouteHop> p = r.route(h.parse_node("0101"), h.parse_node("1110"));
  CHECK(node_path(h, h.parse_node("0101"), p) == Strings{"0101", "1101", "1111", "1110"});
  CHECK(r.num_vcs() == 1);
  // nCUBE-2 order (low to high): bits 0, 1, 3.
  const DirectRouting asc(h, RoutingAlgorithm::ecube, DimOrder::ascending);
  CHECK(node_path(h, 5, asc.route(5, 14)) == Strings{"0101", "0100", "0110", "1110"});
}

TEST_CASE("DOR on a mesh: descending (thesis) and ascending (SCI X first)", "[direct][routing]") {
  const DirectTopology m = parse_direct_spec("mesh:4x5");
  const DirectRouting dsc(m, RoutingAlgorithm::dor);
  const DirectRouting asc(m, RoutingAlgorithm::dor, DimOrder::ascending);
  const NodeId a = m.parse_node("(3,0)"), b = m.parse_node("(1,2)");
  CHECK(node_path(m, a, dsc.route(a, b)) == Strings{"(3,0)", "(2,0)", "(1,0)", "(1,1)", "(1,2)"});
  CHECK(node_path(m, a, asc.route(a, b)) == Strings{"(3,0)", "(3,1)", "(3,2)", "(2,2)", "(1,2)"});
  CHECK(dsc.route(a, a).empty());
  CHECK_THROWS_WITH(dsc.route(a, 20), Catch::Contains("outside 0..19"));
  CHECK_THROWS_AS(dsc.route(-1, a), TopologyError);
  CHECK(dsc.next_hop(a, a).arrived);
}

TEST_CASE("UTPR labels and boundaries (Eq. 5.2, Lemma 5.7, Fig. 5.4)", "[direct][routing]") {
  const DirectTopology t = parse_direct_spec("torus:6x6:uni");
  const DirectRouting r(t, RoutingAlgorithm::utpr);
  auto l = [&](const char* n) { return r.label(t.parse_node(n)); };
  CHECK(l("(0,0)") == 0);
  CHECK(l("(0,1)") == 1);
  CHECK(l("(1,0)") == 7);
  // Labels printed as superscripts in the Sec. 5.4 example.
  CHECK(l("(3,2)") == 23);
  CHECK(l("(0,5)") == 5);
  CHECK(l("(4,5)") == 27);
  CHECK(l("(3,4)") == 19);
  CHECK(l("(5,4)") == 33);
  CHECK(l("(4,3)") == 25);
  CHECK(l("(1,2)") == 9);
  CHECK(l("(2,1)") == 15);
  CHECK(l("(5,1)") == 30);
  CHECK(l("(1,0)") == 7);
  // Definition 5.1 by hand: (u, u^d) is a boundary iff ℓ(u) > ℓ(u^d).
  for (NodeId u = 0; u < t.num_nodes(); ++u)
    for (int d = 0; d < 2; ++d) {
      const NodeId v = t.neighbour(u, d, Direction::plus);
      REQUIRE(r.is_boundary(u, d) == (r.label(u) > r.label(v)));
      REQUIRE(r.vc_classes(u, d, Direction::plus).contains(VcClass::p) == !r.is_boundary(u, d));
      REQUIRE(r.vc_classes(u, d, Direction::plus).contains(VcClass::h));
    }
  // 3-D (Fig. 5.5): every channel from plane 3 to plane 0 is a boundary.
  const DirectTopology c = parse_direct_spec("torus:4x4x4:uni");
  const DirectRouting rc(c, RoutingAlgorithm::utpr);
  for (int b = 0; b < 4; ++b)
    for (int a = 0; a < 4; ++a) REQUIRE(rc.is_boundary(c.node_of({a, b, 3}), 2));
}

TEST_CASE("UTPR Fig. 5.6: restrictive worm (3,2) -> (4,3), (4,5), (5,1), (5,4)", "[direct][routing]") {
  const DirectTopology t = parse_direct_spec("torus:6x6:uni");
  const DirectRouting r(t, RoutingAlgorithm::utpr);
  std::vector<NodeId> dests;
  for (const char* n : {"(4,3)", "(4,5)", "(5,1)", "(5,4)"}) dests.push_back(t.parse_node(n));
  const std::vector<RouteHop> p = r.route_path(t.parse_node("(3,2)"), dests);
  // By hand: at (3,2) dimension 0 is a boundary ((3+2) mod 6 = 5), so the
  // lowest non-boundary useful dimension is 1; afterwards dimension 0 is
  // free until (4,1), where only dimension 1 is useful. The worm follows
  // labels 23..33 and never crosses a boundary, so it stays on p.
  CHECK(node_path(t, t.parse_node("(3,2)"), p) ==
        Strings{"(3,2)", "(4,2)", "(4,3)", "(4,4)", "(4,5)", "(4,0)", "(4,1)", "(5,1)", "(5,2)", "(5,3)", "(5,4)"});
  CHECK(channel_path(p) == Strings{"1p", "0p", "0p", "0p", "0p", "0p", "1p", "0p", "0p", "0p"});
  for (std::size_t i = 0; i < p.size(); ++i) CHECK(r.label(p[i].next) == 24 + static_cast<long long>(i));
}

TEST_CASE("UTPR Fig. 5.7: the ℋ-cycle worm crosses one boundary, then stays on h", "[direct][routing]") {
  const DirectTopology t = parse_direct_spec("torus:6x6:uni");
  const DirectRouting r(t, RoutingAlgorithm::utpr);
  std::vector<NodeId> dests;
  for (const char* n : {"(4,3)", "(4,5)", "(5,1)", "(5,4)", "(0,5)", "(1,0)", "(1,2)", "(2,1)", "(3,4)"})
    dests.push_back(t.parse_node(n));
  const std::vector<RouteHop> p = r.route_path(t.parse_node("(3,2)"), dests);
  // (5,4) -> (0,5): dimension 0 first to (5,5); there only dimension 1 is
  // useful and (5,5)->(0,5) is a boundary (σ_1 = 5): taken on h. Then
  // (0,5) -> (1,0): dimension 0 is a boundary at (0,5), dimension 1 is not.
  std::size_t cross = p.size();
  for (std::size_t i = 0; i < p.size(); ++i)
    if (r.is_boundary(p[i].node, p[i].dim)) {
      CHECK(cross == p.size());   // only one boundary
      cross = i;
    }
  REQUIRE(cross < p.size());
  CHECK(t.name(p[cross].node) == "(5,5)");
  CHECK(t.name(p[cross].next) == "(0,5)");
  CHECK(p[cross].dim == 1);
  CHECK(t.name(p[cross + 1].next) == "(1,5)");
  CHECK(t.name(p[cross + 2].next) == "(1,0)");
  for (std::size_t i = 0; i < p.size(); ++i) CHECK(p[i].vc == (i < cross ? VcClass::p : VcClass::h));
  // Theorem 5.1 (3): all distinct physical channels; (1): minimal segments.
  std::set<std::pair<NodeId, int>> used;
  for (const RouteHop& h : p) CHECK(used.insert({h.node, h.dim}).second);
  int want = 0;
  NodeId from = t.parse_node("(3,2)");
  for (NodeId v : dests) {
    for (int d = 0; d < 2; ++d) want += ((t.sigma(v, d) - t.sigma(from, d)) % 6 + 6) % 6;
    from = v;
  }
  CHECK(static_cast<int>(p.size()) == want);
}

TEST_CASE("UTPR: random ℋ-cycle worms satisfy §7.9", "[direct][routing]") {
  std::mt19937 rng(20261122);
  for (const char* spec : {"torus:5x5:uni", "torus:4x4x4:uni", "torus:3x3x3x3:uni", "torus:7:uni"}) {
    const DirectTopology t = parse_direct_spec(spec);
    const DirectRouting r(t, RoutingAlgorithm::utpr);
    INFO(spec);
    for (int trial = 0; trial < 200; ++trial) {
      // Random destination set, sorted by label (ℋ-chain), rotated to the source.
      std::vector<NodeId> all(t.num_nodes());
      for (NodeId x = 0; x < t.num_nodes(); ++x) all[x] = x;
      std::shuffle(all.begin(), all.end(), rng);
      const int m = 2 + static_cast<int>(rng() % (t.num_nodes() - 1));
      std::vector<NodeId> chain(all.begin(), all.begin() + m);
      const NodeId src = chain[0];
      std::sort(chain.begin(), chain.end(), [&](NodeId a, NodeId b) { return r.label(a) < r.label(b); });
      std::rotate(chain.begin(), std::find(chain.begin(), chain.end(), src), chain.end());
      const std::vector<NodeId> dests(chain.begin() + 1, chain.end());
      const std::vector<RouteHop> p = r.route_path(src, dests);
      int boundaries = 0, want = 0;
      std::set<std::pair<NodeId, int>> used;
      for (const RouteHop& h : p) {
        boundaries += r.is_boundary(h.node, h.dim);
        REQUIRE(used.insert({h.node, h.dim}).second);
        REQUIRE(r.vc_classes(h.node, h.dim, h.dir).contains(h.vc));
      }
      REQUIRE(boundaries <= 1);
      NodeId from = src;
      for (NodeId v : dests) {
        for (int d = 0; d < t.dimensions(); ++d) want += ((t.sigma(v, d) - t.sigma(from, d)) % t.radix(d) + t.radix(d)) % t.radix(d);
        from = v;
      }
      REQUIRE(static_cast<int>(p.size()) == want);
    }
  }
}

TEST_CASE("routing/topology mismatches are clear errors", "[direct][routing]") {
  auto error = [](const char* spec, RoutingAlgorithm a, DimOrder o = DimOrder::descending) -> std::string {
    try {
      DirectRouting(parse_direct_spec(spec), a, o);
    } catch (const TopologyError& e) {
      return e.what();
    }
    return "(no error)";
  };
  using A = RoutingAlgorithm;
  CHECK_THAT(error("mesh:4x4", A::utpr), Catch::Contains("needs a unidirectional torus"));
  CHECK_THAT(error("torus:4x4:bi", A::utpr), Catch::Contains("needs a unidirectional torus"));
  CHECK_THAT(error("torus:4x6:uni", A::utpr), Catch::Contains("k-ary n-cube"));
  CHECK_THAT(error("torus:4x4:uni", A::utpr, DimOrder::ascending), Catch::Contains("no dimension order"));
  CHECK_THAT(error("mesh:4x4", A::ecube), Catch::Contains("hypercubes"));
  CHECK_THAT(error("torus:2x2:bi", A::ecube), Catch::Contains("hypercubes"));
  CHECK_THAT(error("torus:4x4:bi", A::utr), Catch::Contains("needs a unidirectional torus"));
  CHECK_THAT(error("mesh:4x4", A::utr), Catch::Contains("needs a unidirectional torus"));
  CHECK_THAT(error("torus:4x4:uni", A::btr), Catch::Contains("needs a bidirectional torus"));
  CHECK_THAT(error("hypercube:3", A::btr), Catch::Contains("needs a bidirectional torus"));
  CHECK_THAT(error("torus:4x4:uni", A::dor), Catch::Contains("deadlocks on a torus"));
  CHECK_THAT(error("torus:4x4:bi", A::dor), Catch::Contains("use utr"));
  CHECK_THAT(error("torus:4x4:bi", A::broken_single_vc_ring), Catch::Contains("unidirectional"));
  CHECK_THAT(error("mesh:4x4", A::utpr), Catch::Contains("routing utpr does not fit mesh:4x4"));
  CHECK(error("hypercube:3", A::dor) == "(no error)");
  CHECK(error("torus:4x6:uni", A::utr) == "(no error)");
}

TEST_CASE("routing names and defaults", "[direct][routing]") {
  for (RoutingAlgorithm a : {RoutingAlgorithm::dor, RoutingAlgorithm::ecube, RoutingAlgorithm::utr,
                             RoutingAlgorithm::btr, RoutingAlgorithm::utpr})
    CHECK(parse_routing(to_string(a)) == a);
  CHECK_THROWS_WITH(parse_routing("xy"), Catch::Contains("expected dor, ecube, utr, btr, utpr or dateline"));
  CHECK_THROWS_AS(parse_routing("broken-single-vc-ring"), TopologyError);
  CHECK(default_routing(parse_direct_spec("mesh:8x8")) == RoutingAlgorithm::dor);
  CHECK(default_routing(parse_direct_spec("hypercube:6")) == RoutingAlgorithm::ecube);
  CHECK(default_routing(parse_direct_spec("torus:6x6:uni")) == RoutingAlgorithm::utr);
  CHECK(default_routing(parse_direct_spec("torus:16x16x16:bi")) == RoutingAlgorithm::btr);
}

TEST_CASE("VC indices cover exactly num_vcs() classes", "[direct][routing]") {
  const DirectRouting btr(parse_direct_spec("torus:4:bi"), RoutingAlgorithm::btr);
  CHECK(btr.vc_index(VcClass::p) == 0);
  CHECK(btr.vc_index(VcClass::l) == 1);
  CHECK(btr.vc_index(VcClass::h) == 2);
  CHECK(btr.vc_index(VcClass::single) == -1);
  const DirectRouting utr(parse_direct_spec("torus:4:uni"), RoutingAlgorithm::utr);
  CHECK(utr.vc_index(VcClass::p) == 0);
  CHECK(utr.vc_index(VcClass::h) == 1);
  CHECK(utr.vc_index(VcClass::l) == -1);
  const DirectRouting dor(parse_direct_spec("mesh:4"), RoutingAlgorithm::dor);
  CHECK(dor.vc_index(VcClass::single) == 0);
  CHECK(dor.num_vcs() == 1);
}

// The dimension next_hop() picks (it reads both coordinates of that dimension
// once, in first_differing_dim) against the first differing digit computed
// by plain per-dimension div/mod, on non-regular networks.
TEST_CASE("next_hop's dimension matches plain div/mod on non-regular networks", "[direct][routing]") {
  for (const char* spec : {"mesh:3x5", "mesh:4x3x2", "hypercube:4", "torus:3x5:bi", "torus:300:uni"}) {
    const DirectTopology t = parse_direct_spec(spec);
    const int n = t.dimensions();
    auto digit = [&](NodeId x, int d) {
      int div = 1;
      for (int e = 0; e < d; ++e) div *= t.radix(e);
      return x / div % t.radix(d);
    };
    const RoutingAlgorithm a = default_routing(t);
    for (DimOrder order : {DimOrder::descending, DimOrder::ascending}) {
      if (a == RoutingAlgorithm::utpr && order == DimOrder::ascending) continue;
      const DirectRouting r(t, a, order);
      for (NodeId at = 0; at < t.num_nodes(); at += (t.num_nodes() > 64 ? 7 : 1))
        for (NodeId dst = 0; dst < t.num_nodes(); ++dst) {
          int want = -1;
          for (int i = 0; i < n && want < 0; ++i) {
            const int d = order == DimOrder::descending ? n - 1 - i : i;
            if (digit(at, d) != digit(dst, d)) want = d;
          }
          const DirectHop h = r.next_hop(at, dst);
          INFO(spec << " " << at << " -> " << dst);
          REQUIRE(h.arrived == (want < 0));
          if (want >= 0) REQUIRE(h.dim == want);
          // The router's form (its own coordinates cached) against the same digits.
          const DirectHop c = r.next_hop(r.here(at), dst);
          REQUIRE(c.arrived == (want < 0));
          if (want >= 0) REQUIRE(c.dim == want);
        }
    }
  }
}

// next_hop(here(at), ...) is the decision next_hop(at, ...) makes (checked
// above against plain digits and by check_direct_routing), for every
// arriving class and input port, on every routing, with the coordinates
// cached (up to Here::kDims dimensions) and without (hypercube:5).
TEST_CASE("next_hop from a router's cached coordinates is next_hop", "[direct][routing]") {
  const std::pair<const char*, RoutingAlgorithm> cases[] = {
      {"mesh:3x5", RoutingAlgorithm::dor},       {"mesh:4x3x2", RoutingAlgorithm::dor},
      {"hypercube:4", RoutingAlgorithm::ecube},  {"hypercube:5", RoutingAlgorithm::ecube},
      {"torus:4x5:uni", RoutingAlgorithm::utr},  {"torus:5x4:bi", RoutingAlgorithm::btr},
      {"torus:4x4:uni", RoutingAlgorithm::utpr}, {"torus:6x5:bi", RoutingAlgorithm::dateline},
      {"mesh:2x2x2x3", RoutingAlgorithm::dor}};
  for (const auto& [spec, a] : cases) {
    const DirectTopology t = parse_direct_spec(spec);
    for (DimOrder order : {DimOrder::descending, DimOrder::ascending}) {
      if (a == RoutingAlgorithm::utpr && order == DimOrder::ascending) continue;
      const DirectRouting r(t, a, order);
      for (NodeId at = 0; at < t.num_nodes(); ++at) {
        const Here h = r.here(at);
        REQUIRE(h.cached == (t.dimensions() <= Here::kDims));
        for (NodeId dst = 0; dst < t.num_nodes(); ++dst)
          for (VcClass in : {VcClass::local, VcClass::p, VcClass::l, VcClass::h, VcClass::single, VcClass::dl0,
                             VcClass::dl1})
            for (int port = -1; port < 2 * t.dimensions(); ++port) {
              const DirectHop want = r.next_hop(at, dst, in, port), got = r.next_hop(h, dst, in, port);
              INFO(spec << " " << at << " -> " << dst << " in " << to_string(in) << " port " << port);
              REQUIRE(got.arrived == want.arrived);
              REQUIRE(got.dim == want.dim);
              REQUIRE(got.dir == want.dir);
              REQUIRE(got.vc == want.vc);
            }
      }
    }
  }
}
