// Routing functions as candidates (topologies/routing_function.h): the
// west-first turn model on 2-D meshes, its refusals, and the independent
// check_routing_function, shown to find what it claims to find with
// routing functions written here to break one rule each.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "topologies/routing_function.h"

using namespace wormcast::topo;

namespace {

std::shared_ptr<const DirectRouting> dor(const char* spec, DimOrder o = DimOrder::descending) {
  return std::make_shared<const DirectRouting>(parse_direct_spec(spec), RoutingAlgorithm::dor, o);
}

// A mesh:4x4 node by its coordinates (x = σ_0 grows east, y = σ_1 north).
NodeId xy(int x, int y) { return y * 4 + x; }

// (dim, dir) of every candidate, "arrived" for an ejection.
std::vector<std::string> moves(const RoutingFunction& f, NodeId at, NodeId dst) {
  std::vector<std::string> out;
  for (const DirectHop& h : f.candidates(RouteQuery{at, dst, VcClass::local, -1}))
    out.push_back(h.arrived ? "arrived" : std::to_string(h.dim) + to_string(h.dir));
  return out;
}

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

// Every minimal hop, one class: fully adaptive minimal routing without an
// escape channel, which has cycles of dependencies on any 2-D mesh of at
// least 2x2 (the four turns of a square).
class FullyAdaptive final : public RoutingFunction {
 public:
  explicit FullyAdaptive(std::shared_ptr<const DirectRouting> b) : b_(std::move(b)) {}
  std::vector<DirectHop> candidates(const RouteQuery& q) const override {
    const DirectTopology& t = b_->topology();
    if (q.at == q.dst) return {arrived()};
    std::vector<DirectHop> out;
    for (int d = 0; d < t.dimensions(); ++d) {
      const int diff = t.sigma(q.dst, d) - t.sigma(q.at, d);
      if (diff != 0) out.push_back(hop(d, diff > 0 ? Direction::plus : Direction::minus));
    }
    return out;
  }
  bool deterministic() const override { return false; }
  std::string name() const override { return "fully_adaptive"; }
  std::shared_ptr<const DirectRouting> base() const override { return b_; }
  static DirectHop arrived() {
    DirectHop h;
    h.arrived = true;
    return h;
  }
  static DirectHop hop(int d, Direction dir) {
    DirectHop h;
    h.dim = d;
    h.dir = dir;
    return h;
  }

 private:
  std::shared_ptr<const DirectRouting> b_;
};

// Breaks one rule: `kind` 0 adds a non-minimal hop west where it exists,
// 1 offers no candidate at one node, 2 uses a class dor has not, 3 ejects
// one hop early.
class Broken final : public RoutingFunction {
 public:
  Broken(std::shared_ptr<const DirectRouting> b, int kind) : b_(std::move(b)), kind_(kind) {}
  std::vector<DirectHop> candidates(const RouteQuery& q) const override {
    std::vector<DirectHop> out = DeterministicRouting(b_).candidates(q);
    const DirectTopology& t = b_->topology();
    if (q.at == q.dst) return out;
    if (kind_ == 0 && t.sigma(q.at, 0) > 0 && t.sigma(q.dst, 0) >= t.sigma(q.at, 0))
      out.push_back(FullyAdaptive::hop(0, Direction::minus));
    if (kind_ == 1 && q.at == 5) out.clear();
    if (kind_ == 2) out.front().vc = VcClass::h;
    if (kind_ == 3 && t.neighbour(q.at, out.front().dim, out.front().dir) == q.dst) out = {FullyAdaptive::arrived()};
    return out;
  }
  bool deterministic() const override { return false; }
  std::string name() const override { return "broken"; }
  std::shared_ptr<const DirectRouting> base() const override { return b_; }

 private:
  std::shared_ptr<const DirectRouting> b_;
  int kind_;
};

}  // namespace

TEST_CASE("west_first: west hops only, then any minimal hop east, north or south", "[direct][adaptive]") {
  const WestFirstRouting wf(parse_direct_spec("mesh:4x4"), DimOrder::descending);
  using V = std::vector<std::string>;
  CHECK(moves(wf, xy(1, 1), xy(1, 1)) == V{"arrived"});
  CHECK(moves(wf, xy(2, 1), xy(0, 3)) == V{"0-"});   // destination west: west only, even though north is open
  CHECK(moves(wf, xy(2, 1), xy(0, 1)) == V{"0-"});
  CHECK(moves(wf, xy(1, 1), xy(3, 3)) == V{"1+", "0+"});   // north and east, dor's order (highest dimension first)
  CHECK(moves(wf, xy(1, 3), xy(3, 0)) == V{"1-", "0+"});   // south and east
  CHECK(moves(wf, xy(1, 1), xy(3, 1)) == V{"0+"});
  CHECK(moves(wf, xy(1, 1), xy(1, 0)) == V{"1-"});
  const WestFirstRouting asc(parse_direct_spec("mesh:4x4"), DimOrder::ascending);
  CHECK(moves(asc, xy(1, 1), xy(3, 3)) == V{"0+", "1+"});
  CHECK_FALSE(wf.deterministic());
  CHECK(wf.name() == "west_first");
  for (const DirectHop& h : wf.candidates(RouteQuery{xy(0, 0), xy(3, 3), VcClass::local, -1}))
    CHECK(h.vc == VcClass::single);
}

TEST_CASE("west_first fits 2-D meshes only, and is registered", "[direct][adaptive]") {
  const WestFirstRouting wf(parse_direct_spec("mesh:8x8"), DimOrder::ascending);
  CHECK(wf.base()->algorithm() == RoutingAlgorithm::dor);   // dor's one class and links
  CHECK(wf.base()->order() == DimOrder::ascending);
  for (const char* spec : {"torus:4x4:bi", "mesh:4x4x4", "mesh:8", "hypercube:4"}) {
    CHECK_THROWS_AS(WestFirstRouting(parse_direct_spec(spec), DimOrder::descending), TopologyError);
    CHECK_THROWS_WITH(WestFirstRouting(parse_direct_spec(spec), DimOrder::descending),
                      Catch::Contains("2-D meshes") && Catch::Contains(spec));
  }
  REQUIRE(adaptive_routings().find("west_first") != nullptr);
  CHECK(adaptive_routings().make("west_first", parse_direct_spec("mesh:3x5"), DimOrder::descending)->name() ==
        "west_first");
  CHECK(adaptive_routings().find("dor") == nullptr);
}

TEST_CASE("check_routing_function passes west_first and every deterministic function", "[direct][adaptive]") {
  for (const char* spec : {"mesh:2x2", "mesh:4x4", "mesh:3x7", "mesh:8x8", "mesh:16x16"})
    for (DimOrder o : {DimOrder::descending, DimOrder::ascending}) {
      const auto problems = check_routing_function(WestFirstRouting(parse_direct_spec(spec), o));
      INFO(spec << "\n" << joined(problems));
      CHECK(problems.empty());
    }
  // The one-candidate case through the same check (its own BFS and graph,
  // not check_direct_routing's).
  const std::pair<const char*, RoutingAlgorithm> deterministic[] = {
      {"mesh:5x5", RoutingAlgorithm::dor}, {"hypercube:5", RoutingAlgorithm::ecube},
      {"torus:6x6:uni", RoutingAlgorithm::utr}, {"torus:6x6:bi", RoutingAlgorithm::btr},
      {"torus:8x8:bi", RoutingAlgorithm::dateline}};
  for (const auto& [spec, a] : deterministic) {
    const auto problems =
        check_routing_function(DeterministicRouting(std::make_shared<const DirectRouting>(parse_direct_spec(spec), a)));
    INFO(spec << " " << to_string(a) << "\n" << joined(problems));
    CHECK(problems.empty());
  }
}

TEST_CASE("check_routing_function finds cycles, non-minimal hops, dead ends, missing classes", "[direct][adaptive]") {
  const auto fully = check_routing_function(FullyAdaptive(dor("mesh:3x3")));
  REQUIRE(fully.size() == 1);
  CHECK_THAT(fully.front(), Catch::Contains("cycle of channel dependencies") && Catch::Contains("fully_adaptive"));
  const auto ring = check_routing_function(DeterministicRouting(std::make_shared<const DirectRouting>(
      parse_direct_spec("torus:6:uni"), RoutingAlgorithm::broken_single_vc_ring)));
  REQUIRE_FALSE(ring.empty());
  CHECK_THAT(ring.front(), Catch::Contains("cycle"));
  const char* expected[] = {"is not minimal", "no candidate", "does not exist on that channel", "ejects before"};
  for (int kind = 0; kind < 4; ++kind) {
    const auto problems = check_routing_function(Broken(dor("mesh:4x4"), kind));
    INFO("kind " << kind << "\n" << joined(problems));
    REQUIRE_FALSE(problems.empty());
    CHECK_THAT(problems.front(), Catch::Contains(expected[kind]));
  }
}
