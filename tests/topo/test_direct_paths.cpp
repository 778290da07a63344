// Sender-side helpers for IR worms (seed001 Fig. 5.8, Fig. 5.9, §7.9):
// the ℋ order of the thesis's worked example, the header layout, the path
// checks, and the refusals.
#include <catch2/catch.hpp>

#include <algorithm>
#include <random>
#include <string>
#include <vector>

#include "topologies/direct_paths.h"

using namespace wormcast::topo;

namespace {
std::vector<NodeId> nodes(const DirectTopology& t, const std::vector<std::string>& names) {
  std::vector<NodeId> out;
  for (const auto& n : names) out.push_back(t.parse_node(n));
  return out;
}
}  // namespace

TEST_CASE("Fig. 5.7: the 6x6 example's destinations in ℋ order from source (3,2)", "[direct][paths]") {
  const DirectTopology t = parse_direct_spec("torus:6x6:uni");
  const DirectRouting r(t, RoutingAlgorithm::utpr);
  // Φ as the thesis lists it (labels as superscripts there).
  const std::vector<NodeId> phi =
      nodes(t, {"(0,5)", "(4,5)", "(3,4)", "(5,4)", "(4,3)", "(1,2)", "(2,1)", "(5,1)", "(1,0)"});
  const std::vector<long long> labels{5, 27, 19, 33, 25, 9, 15, 30, 7};
  for (std::size_t i = 0; i < phi.size(); ++i) CHECK(r.label(phi[i]) == labels[i]);
  CHECK(r.label(t.parse_node("(3,2)")) == 23);
  // Φ'' minus the source.
  CHECK(ir_visiting_order(r, t.parse_node("(3,2)"), phi) ==
        nodes(t, {"(4,3)", "(4,5)", "(5,1)", "(5,4)", "(0,5)", "(1,0)", "(1,2)", "(2,1)", "(3,4)"}));
}

TEST_CASE("Fig. 5.6: the worm (3,2) -> (4,3) -> (4,5) -> (5,1) -> (5,4) passes the §7.9 checks", "[direct][paths]") {
  const DirectTopology t = parse_direct_spec("torus:6x6:uni");
  const DirectRouting r(t, RoutingAlgorithm::utpr);
  const std::vector<NodeId> d = nodes(t, {"(4,3)", "(4,5)", "(5,1)", "(5,4)"});
  CHECK(ir_visiting_order(r, t.parse_node("(3,2)"), {d[3], d[1], d[0], d[2]}) == d);
  CHECK(check_ir_path(r, t.parse_node("(3,2)"), d).empty());
}

TEST_CASE("the IR header has one address per flit and the last one twice", "[direct][paths]") {
  CHECK(ir_header({7, 3, 12}) == std::vector<NodeId>{7, 3, 12, 12});
  CHECK(ir_header({4}) == std::vector<NodeId>{4, 4});
  CHECK(ir_header_flits(3) == 4);
  CHECK_THROWS_AS(ir_header({}), TopologyError);
}

TEST_CASE("random destination sets in ℋ order: minimal segments, one boundary at most, no channel twice",
          "[direct][paths]") {
  std::mt19937 rng(11);
  for (const char* spec : {"torus:5x5:uni", "torus:6x6:uni", "torus:4x4x4:uni", "torus:3x3x3x3:uni"}) {
    const DirectTopology t = parse_direct_spec(spec);
    const DirectRouting r(t, RoutingAlgorithm::utpr);
    for (int trial = 0; trial < 200; ++trial) {
      std::vector<NodeId> all(static_cast<std::size_t>(t.num_nodes()));
      for (NodeId i = 0; i < t.num_nodes(); ++i) all[static_cast<std::size_t>(i)] = i;
      std::shuffle(all.begin(), all.end(), rng);
      const NodeId src = all[0];
      const int m = 1 + static_cast<int>(rng() % static_cast<unsigned>(t.num_nodes() - 1));
      const std::vector<NodeId> dests(all.begin() + 1, all.begin() + 1 + m);
      const std::vector<NodeId> order = ir_visiting_order(r, src, dests);
      INFO(spec << " trial " << trial);
      REQUIRE(order.size() == dests.size());
      CHECK(check_ir_path(r, src, order).empty());
    }
  }
}

TEST_CASE("a worm against ℋ order is caught by the path check", "[direct][paths]") {
  const DirectTopology t = parse_direct_spec("torus:6x6:uni");
  const DirectRouting r(t, RoutingAlgorithm::utpr);
  // Reverse ℋ order: every segment goes 'backwards' on ℋ and crosses a boundary.
  const std::vector<NodeId> bad = nodes(t, {"(5,4)", "(5,1)", "(4,5)", "(4,3)"});
  const std::vector<std::string> problems = check_ir_path(r, t.parse_node("(3,2)"), bad);
  REQUIRE_FALSE(problems.empty());
  CHECK(std::any_of(problems.begin(), problems.end(),
                    [](const std::string& s) { return s.find("boundaries") != std::string::npos; }));
}

TEST_CASE("ℋ order refuses other routings and bad destination sets with clear errors", "[direct][paths]") {
  const DirectTopology t = parse_direct_spec("torus:4x4:uni");
  const DirectRouting utpr(t, RoutingAlgorithm::utpr);
  const DirectRouting utr(t, RoutingAlgorithm::utr);
  CHECK_THROWS_WITH(ir_visiting_order(utr, 0, {1, 2}), Catch::Contains("routing utr has no ℋ order"));
  CHECK_THROWS_WITH(ir_visiting_order(utpr, 0, {}), Catch::Contains("no destinations"));
  CHECK_THROWS_WITH(ir_visiting_order(utpr, 0, {3, 0}), Catch::Contains("source is among"));
  CHECK_THROWS_WITH(ir_visiting_order(utpr, 0, {3, 5, 3}), Catch::Contains("listed twice"));
  CHECK_THROWS_WITH(ir_visiting_order(utpr, 0, {3, 16}), Catch::Contains("outside 0..15"));
}
