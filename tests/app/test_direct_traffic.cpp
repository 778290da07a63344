// Unicast traffic patterns (traffic.pattern) and the text/DOT views of direct
// networks (`wormcast topo show/export` with a spec). Expected destinations
// are written from the pattern definitions on coordinates (docs/direct_networks.md).
#include <catch2/catch.hpp>

#include <map>
#include <sstream>

#include "rtl_models/node/traffic.h"
#include "topologies/direct_io.h"

using namespace wormcast;
using namespace wormcast::rtl;
using topo::DirectTopology;

namespace {

TrafficParams pattern(const std::string& name) {
  TrafficParams p;
  p.pattern = name;
  p.load = 0.5;
  p.packet_size = 4;
  return p;
}

// Destinations of the first n packets of node `self`.
std::map<NodeId, int> destinations(const TrafficParams& p, NodeId self, int nodes, int n) {
  SyntheticSource src(p, self, nodes, Rng(7).fork(static_cast<std::uint64_t>(self)));
  std::map<NodeId, int> count;
  for (int i = 0; i < n && src.next_time() != UINT64_MAX; ++i) {
    Packet pk;
    src.generate(pk);
    ++count[pk.header.dest];
  }
  return count;
}

}  // namespace

TEST_CASE("transpose sends (a,b) to (b,a) on a k x k network and nothing from the diagonal") {
  const DirectTopology t = DirectTopology::mesh({4, 4});
  for (NodeId x = 0; x < t.num_nodes(); ++x) {
    const auto d = t.digits(x);   // d[0] = σ_0 = b, d[1] = σ_1 = a
    const NodeId want = t.node_of({d[1], d[0]});
    const auto got = destinations(pattern("transpose"), x, t.num_nodes(), 20);
    if (want == x) {
      CHECK(got.empty());
    } else {
      REQUIRE(got.size() == 1);
      CHECK(got.begin()->first == want);
    }
  }
  CHECK(pattern_problem(pattern("transpose"), 8).find("square number of nodes") != std::string::npos);
  CHECK(pattern_problem(pattern("transpose"), 64).empty());   // 8x8, or a 6-cube (address halves swapped)
}

TEST_CASE("bit-complement complements every coordinate") {
  const DirectTopology t = DirectTopology::torus({4, 8}, true);
  for (NodeId x = 0; x < t.num_nodes(); ++x) {
    const auto d = t.digits(x);
    const NodeId want = t.node_of({t.radix(0) - 1 - d[0], t.radix(1) - 1 - d[1]});
    const auto got = destinations(pattern("bit_complement"), x, t.num_nodes(), 5);
    REQUIRE(got.size() == 1);
    CHECK(got.begin()->first == want);
  }
  // On a hypercube it is the bitwise complement.
  CHECK(destinations(pattern("bit_complement"), 0b0101, 16, 3).begin()->first == 0b1010);
}

TEST_CASE("hotspot sends its fraction to the hot node and the rest uniformly") {
  TrafficParams p = pattern("hotspot");
  p.hotspot_node = 5;
  p.hotspot_fraction = 0.25;
  const int n = 20000;
  const auto got = destinations(p, 0, 16, n);
  // 25% + 75%/15 of the rest.
  const double expected_hot = 0.25 + 0.75 / 15.0;
  CHECK(static_cast<double>(got.at(5)) / n == Approx(expected_hot).margin(0.01));
  CHECK(got.count(0) == 0);
  CHECK(got.size() == 15);
  // The hot node itself sends uniformly.
  CHECK(destinations(p, 5, 16, 3000).count(5) == 0);
  p.hotspot_node = 16;
  CHECK(pattern_problem(p, 16).find("hotspot_node 16 is not a node") != std::string::npos);
}

TEST_CASE("topo show and export describe a direct network with its VC classes and grid layout") {
  const DirectTopology t = topo::parse_direct_spec("torus:4x4:uni");
  REQUIRE(topo::is_direct_spec("torus:4x4:uni"));
  REQUIRE_FALSE(topo::is_direct_spec("my.yaml"));
  const topo::DirectRouting r(t, topo::routing_for(t, "default"));
  std::ostringstream show, dot;
  topo::show_direct(r, show);
  topo::write_direct_dot(r, dot);
  // UTR: no h on a wrap-around channel, no p out of coordinate 0 (seed001 Eq. 4.1).
  CHECK_THAT(show.str(), Catch::Contains("(0,3) (id 3): d0+->(0,0)(wrap)[p]") &&
                             Catch::Contains("(0,0) (id 0): d0+->(0,1)[h]") && Catch::Contains("CDG acyclic"));
  // (1,2): σ_0 = 2 along x, σ_1 = 1 along y.
  CHECK_THAT(dot.str(), Catch::Contains("n6 [label=\"(1,2)\", pos=\"160,80!\"]") &&
                            Catch::Contains("n3 -> n0 [label=\"p\", style=dashed]"));
}
