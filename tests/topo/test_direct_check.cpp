// check_direct_routing(): shortest routes, existing VCs, acyclic channel
// dependencies (and the corrected λ order for UTPR, seed001 §7.6).
#include <catch2/catch.hpp>

#include <string>

#include "topologies/direct_routing.h"

using namespace wormcast::topo;

namespace {

std::string joined(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += x + "\n";
  return s;
}

void passes(const char* spec, RoutingAlgorithm a, DimOrder o = DimOrder::descending) {
  const DirectRouting r(parse_direct_spec(spec), a, o);
  const std::vector<std::string> problems = check_direct_routing(r);
  INFO(spec << " " << to_string(a) << (o == DimOrder::ascending ? " ascending" : "") << "\n" << joined(problems));
  CHECK(problems.empty());
}

}  // namespace

TEST_CASE("checker passes DOR on meshes, both orders", "[direct][check]") {
  for (const char* spec : {"mesh:8x8", "mesh:3x4x5", "mesh:2", "mesh:9", "mesh:2x3x2x3"}) {
    passes(spec, RoutingAlgorithm::dor);
    passes(spec, RoutingAlgorithm::dor, DimOrder::ascending);
  }
}

TEST_CASE("checker passes UTR on unidirectional tori, regular and not", "[direct][check]") {
  for (const char* spec : {"torus:6x6:uni", "torus:4x4:uni", "torus:4x8:uni", "torus:3x4x5:uni", "torus:2x2:uni",
                           "torus:7:uni", "torus:5x2x3:uni", "torus:8x8x8:uni"}) {
    passes(spec, RoutingAlgorithm::utr);
    passes(spec, RoutingAlgorithm::utr, DimOrder::ascending);
  }
}

TEST_CASE("checker passes BTR on bidirectional tori, odd, even and width 2", "[direct][check]") {
  for (const char* spec : {"torus:4x4:bi", "torus:6x6:bi", "torus:5x5:bi", "torus:4x6x3:bi", "torus:2x3:bi",
                           "torus:8:bi", "torus:9:bi", "torus:2x2x2:bi", "torus:7x4x5:bi"}) {
    passes(spec, RoutingAlgorithm::btr);
    passes(spec, RoutingAlgorithm::btr, DimOrder::ascending);
  }
}

TEST_CASE("checker passes UTPR (unicasts and ℋ-cycle worm continuations)", "[direct][check]") {
  for (const char* spec : {"torus:6x6:uni", "torus:5x5:uni", "torus:4x4:uni", "torus:4x4x4:uni", "torus:5x5x5:uni",
                           "torus:3x3x3x3:uni", "torus:2x2x2:uni", "torus:7:uni", "torus:8x8:uni"})
    passes(spec, RoutingAlgorithm::utpr);
}

TEST_CASE("checker passes E-cube on hypercubes up to 10 dimensions", "[direct][check]") {
  for (int n = 1; n <= 10; ++n) {
    const std::string spec = "hypercube:" + std::to_string(n);
    passes(spec.c_str(), RoutingAlgorithm::ecube);
    if (n <= 6) passes(spec.c_str(), RoutingAlgorithm::ecube, DimOrder::ascending);
  }
  passes("hypercube:4", RoutingAlgorithm::dor);
}

TEST_CASE("checker finds the cycle of a single-VC unidirectional ring (Fig. 2.4)", "[direct][check]") {
  for (const char* spec : {"torus:4:uni", "torus:5x5:uni", "torus:3x4x2:uni"}) {
    const DirectRouting r(parse_direct_spec(spec), RoutingAlgorithm::broken_single_vc_ring);
    const std::vector<std::string> problems = check_direct_routing(r);
    INFO(spec << "\n" << joined(problems));
    // Routes are still shortest and use existing VCs: the only fault is the cycle.
    REQUIRE(problems.size() == 1);
    CHECK_THAT(problems[0], Catch::StartsWith("channel dependency cycle:"));
    CHECK_THAT(problems[0], Catch::Contains(" single"));
  }
  // The 4-ring cycle is the whole ring: (0) -> (1) -> (2) -> (3) -> (0).
  const DirectRouting r(parse_direct_spec("torus:4:uni"), RoutingAlgorithm::broken_single_vc_ring);
  const std::string cycle = check_direct_routing(r).at(0);
  for (const char* n : {"(0) d0+", "(1) d0+", "(2) d0+", "(3) d0+"}) CHECK_THAT(cycle, Catch::Contains(n));
}

// The thesis's experiment networks; opt-in (./test_topo "[direct-big]"),
// about 10 s of CPU in all, as the check walks by destination (the
// 4096-node tori dominate).
TEST_CASE("checker on the Ch. 4/6 experiment networks", "[.][direct-big]") {
  for (const char* spec : {"torus:32x32:uni", "torus:8x8x8:uni", "torus:64x64:uni", "torus:16x16x16:uni"}) {
    passes(spec, RoutingAlgorithm::utr);
    passes(spec, RoutingAlgorithm::utpr);
  }
  for (const char* spec : {"torus:32x32:bi", "torus:8x8x8:bi", "torus:64x64:bi", "torus:16x16x16:bi"})
    passes(spec, RoutingAlgorithm::btr);
}
