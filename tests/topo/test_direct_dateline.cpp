// The 2-class dateline dimension-order routing on bidirectional tori
// (BookSim2's deterministic dim_order_torus) and several VCs per class:
// routes and classes derived by hand from the rule (shortest way round each
// ring, a tie of k/2 without the wrap, dl1 for the whole dimension if it
// crosses the wrap, dl0 otherwise), the channels each class exists on, the
// independent checker, and refusals.
#include <catch2/catch.hpp>

#include <sstream>
#include <string>
#include <vector>

#include "topologies/direct_io.h"
#include "topologies/direct_routing.h"

using namespace wormcast::topo;

namespace {

using Strings = std::vector<std::string>;

// "(a,b) d0+ dl1" per hop.
Strings hops_text(const DirectTopology& t, NodeId src, NodeId dst, const DirectRouting& r) {
  Strings out;
  for (const RouteHop& h : r.route(src, dst))
    out.push_back(t.name(h.node) + " d" + std::to_string(h.dim) + to_string(h.dir) + " " + to_string(h.vc));
  (void)src;
  return out;
}

Strings route(const char* spec, const char* from, const char* to, DimOrder o = DimOrder::descending) {
  const DirectTopology t = parse_direct_spec(spec);
  const DirectRouting r(t, RoutingAlgorithm::dateline, o);
  return hops_text(t, t.parse_node(from), t.parse_node(to), r);
}

}  // namespace

TEST_CASE("dateline on a 4x4 torus: shortest way round, dl1 only when the ring's route wraps", "[direct][dateline]") {
  // σ0 3 -> 0: one hop forward over the wrap.
  CHECK(route("torus:4x4:bi", "(0,3)", "(0,0)") == Strings{"(0,3) d0+ dl1"});
  // A tie of k/2 = 2 takes the way without the wrap, in both directions.
  CHECK(route("torus:4x4:bi", "(0,0)", "(0,2)") == Strings{"(0,0) d0+ dl0", "(0,1) d0+ dl0"});
  CHECK(route("torus:4x4:bi", "(0,2)", "(0,0)") == Strings{"(0,2) d0- dl0", "(0,1) d0- dl0"});
  // Dimension 1 first (descending): 3 -> 0 wraps (dl1); dimension 0 is
  // entered afresh: 1 -> 2 does not wrap (dl0).
  CHECK(route("torus:4x4:bi", "(3,1)", "(0,2)") == Strings{"(3,1) d1+ dl1", "(0,1) d0+ dl0"});
  // σ0 0 -> 3 is one hop backwards over the wrap: dl1 on the - wrap.
  CHECK(route("torus:4x4:bi", "(0,0)", "(1,3)") == Strings{"(0,0) d1+ dl0", "(1,0) d0- dl1"});
}

TEST_CASE("dateline on an 8x8 torus keeps dl1 after the wrap until the worm leaves the dimension",
          "[direct][dateline]") {
  // 6 -> 1 forward (3 hops, shorter than 5 back): dl1 on all three hops,
  // including 0 -> 1 after the wrap (a rule on the remaining route alone
  // would switch to dl0 there; BookSim2 does not).
  CHECK(route("torus:8x8:bi", "(0,6)", "(0,1)") == Strings{"(0,6) d0+ dl1", "(0,7) d0+ dl1", "(0,0) d0+ dl1"});
  CHECK(route("torus:8x8:bi", "(0,1)", "(0,6)") == Strings{"(0,1) d0- dl1", "(0,0) d0- dl1", "(0,7) d0- dl1"});
  // Ties of 4: the way without the wrap (BookSim2 draws at random).
  CHECK(route("torus:8x8:bi", "(2,2)", "(6,2)") ==
        Strings{"(2,2) d1+ dl0", "(3,2) d1+ dl0", "(4,2) d1+ dl0", "(5,2) d1+ dl0"});
  CHECK(route("torus:8x8:bi", "(6,2)", "(2,2)") ==
        Strings{"(6,2) d1- dl0", "(5,2) d1- dl0", "(4,2) d1- dl0", "(3,2) d1- dl0"});
  // 7 -> 1 in dimension 1 wraps forward (dl1), then dimension 0 7 -> 5
  // backwards without a wrap (dl0): the class is chosen again on entry.
  CHECK(route("torus:8x8:bi", "(7,7)", "(1,5)") ==
        Strings{"(7,7) d1+ dl1", "(0,7) d1+ dl1", "(1,7) d0- dl0", "(1,6) d0- dl0"});
  // Ascending order: dimension 0 first.
  CHECK(route("torus:8x8:bi", "(7,7)", "(1,5)", DimOrder::ascending) ==
        Strings{"(7,7) d0- dl0", "(7,6) d0- dl0", "(7,5) d1+ dl1", "(0,5) d1+ dl1"});
}

TEST_CASE("dateline classes exist where some route uses them", "[direct][dateline]") {
  const DirectTopology t = parse_direct_spec("torus:8x8:bi");
  const DirectRouting r(t, RoutingAlgorithm::dateline);
  CHECK(r.num_vcs() == 2);
  CHECK(r.vc_index(VcClass::dl0) == 0);
  CHECK(r.vc_index(VcClass::dl1) == 1);
  CHECK(r.class_at(1) == VcClass::dl1);
  // k = 8: a wrapping route is at most 3 hops, so going + dl1 is on the
  // channels leaving σ = 5, 6, 7 (the wrap: dl1 only), 0 and 1; going - on
  // those leaving 2, 1, 0 (the wrap), 7 and 6. dl0 on every non-wrap channel.
  const std::string plus[8] = {"dl0,dl1", "dl0,dl1", "dl0", "dl0", "dl0", "dl0,dl1", "dl0,dl1", "dl1"};
  const std::string minus[8] = {"dl1", "dl0,dl1", "dl0,dl1", "dl0", "dl0", "dl0", "dl0,dl1", "dl0,dl1"};
  for (int s = 0; s < 8; ++s) {
    auto text = [](VcSet v) {
      std::string o;
      for (VcClass c : {VcClass::dl0, VcClass::dl1})
        if (v.contains(c)) o += (o.empty() ? "" : ",") + std::string(to_string(c));
      return o;
    };
    INFO("sigma_0 = " << s);
    CHECK(text(r.vc_classes(t.with_sigma(0, 0, s), 0, Direction::plus)) == plus[s]);
    CHECK(text(r.vc_classes(t.with_sigma(0, 0, s), 0, Direction::minus)) == minus[s]);
  }
}

TEST_CASE("the independent checker passes dateline on regular and non-regular bidirectional tori",
          "[direct][dateline]") {
  for (const char* spec : {"torus:4x4:bi", "torus:8x8:bi", "torus:3x5:bi", "torus:4x4x4:bi", "torus:2x6:bi",
                           "torus:7:bi"}) {
    const DirectTopology t = parse_direct_spec(spec);
    for (DimOrder o : {DimOrder::descending, DimOrder::ascending}) {
      INFO(spec);
      CHECK(check_direct_routing(DirectRouting(t, RoutingAlgorithm::dateline, o)).empty());
    }
  }
}

TEST_CASE("several VCs per class: the checker accepts multiples of the class count and names others",
          "[direct][vcs]") {
  const DirectTopology mesh = parse_direct_spec("mesh:4x4");
  const DirectTopology bi = parse_direct_spec("torus:4x4:bi");
  CHECK(check_direct_routing(DirectRouting(mesh, RoutingAlgorithm::dor), 2).empty());
  CHECK(check_direct_routing(DirectRouting(bi, RoutingAlgorithm::dateline), 4).empty());
  CHECK(check_direct_routing(DirectRouting(bi, RoutingAlgorithm::btr), 6).empty());
  const auto bad = check_direct_routing(DirectRouting(bi, RoutingAlgorithm::btr), 4);
  REQUIRE_FALSE(bad.empty());
  CHECK_THAT(bad.front(), Catch::Contains("4 VCs") && Catch::Contains("multiple of 3"));
}

TEST_CASE("topo show lists each class's VCs with several VCs per class", "[direct][vcs]") {
  const DirectTopology t = parse_direct_spec("torus:4x4:bi");
  const DirectRouting r(t, RoutingAlgorithm::dateline);
  std::ostringstream show, dot;
  show_direct(r, show, 4);
  write_direct_dot(r, dot, 4);
  CHECK_THAT(show.str(), Catch::Contains("routing dateline with 4 VCs per channel (2 per class") &&
                             Catch::Contains("(0,3) (id 3): d0+->(0,0)(wrap)[dl1:vc2-3]") &&
                             Catch::Contains("CDG acyclic"));
  CHECK_THAT(dot.str(), Catch::Contains("n3 -> n0 [label=\"dl1:vc2-3\", style=dashed]"));
  std::ostringstream one;
  show_direct(r, one);
  CHECK_THAT(one.str(), Catch::Contains("with 2 VCs per channel\n") && Catch::Contains("[dl1]"));
  std::ostringstream sink;
  CHECK_THROWS_WITH(show_direct(r, sink, 3), Catch::Contains("--vcs 3") && Catch::Contains("multiple"));
}

TEST_CASE("dateline is refused where it does not fit", "[direct][dateline]") {
  CHECK_THROWS_WITH(DirectRouting(parse_direct_spec("mesh:4x4"), RoutingAlgorithm::dateline),
                    Catch::Contains("mesh has none"));
  CHECK_THROWS_WITH(DirectRouting(parse_direct_spec("hypercube:3"), RoutingAlgorithm::dateline),
                    Catch::Contains("hypercube has none"));
  CHECK_THROWS_WITH(DirectRouting(parse_direct_spec("torus:4x4:uni"), RoutingAlgorithm::dateline),
                    Catch::Contains("unidirectional") && Catch::Contains("use utr"));
  CHECK(parse_routing("dateline") == RoutingAlgorithm::dateline);
  CHECK_THROWS_WITH(parse_routing("dim_order_torus"), Catch::Contains("dateline"));
}
