// Direct networks (seed001 §1.1): addressing, names, channels, spec parser.
#include <catch2/catch.hpp>

#include <set>
#include <string>

#include "topologies/direct_topology.h"

using namespace wormcast::topo;

namespace {

std::string spec_error(const std::string& spec) {
  try {
    parse_direct_spec(spec);
  } catch (const TopologyError& e) {
    return e.what();
  }
  return "(no error)";
}

}  // namespace

TEST_CASE("direct: tuple coordinates are highest dimension first", "[direct]") {
  // torus:4x8 has k_1 = 4 and k_0 = 8: (a,b) = (σ_1, σ_0) with a < 4, b < 8.
  const DirectTopology t = parse_direct_spec("torus:4x8:uni");
  CHECK(t.dimensions() == 2);
  CHECK(t.radix(1) == 4);
  CHECK(t.radix(0) == 8);
  CHECK(t.num_nodes() == 32);
  CHECK_FALSE(t.regular());
  const NodeId x = t.parse_node("(3,6)");
  CHECK(t.sigma(x, 1) == 3);
  CHECK(t.sigma(x, 0) == 6);
  CHECK(x == 3 * 8 + 6);   // σ_0 least significant
  CHECK(t.name(x) == "(3,6)");
  CHECK(t.parse_node(" ( 3 , 6 ) ") == x);
  CHECK(t.spec() == "torus:4x8:uni");
}

TEST_CASE("direct: hypercube nodes are bit strings, id = binary address", "[direct]") {
  const DirectTopology h = DirectTopology::hypercube(4);
  CHECK(h.num_nodes() == 16);
  CHECK(h.name(5) == "0101");
  CHECK(h.name(14) == "1110");
  CHECK(h.parse_node("1011") == 11);
  CHECK(h.sigma(11, 0) == 1);
  CHECK(h.sigma(11, 2) == 0);
  CHECK(h.spec() == "hypercube:4");
  CHECK_THROWS_AS(h.parse_node("101"), TopologyError);
  CHECK_THROWS_AS(h.parse_node("10a1"), TopologyError);
}

TEST_CASE("direct: id <-> digits <-> name round trips", "[direct]") {
  for (const char* spec : {"torus:3x4x5:bi", "mesh:2x7", "hypercube:5", "torus:6:uni", "torus:16x16x16:bi"}) {
    const DirectTopology t = parse_direct_spec(spec);
    INFO(spec);
    const int step = t.num_nodes() > 1000 ? 37 : 1;
    for (NodeId x = 0; x < t.num_nodes(); x += step) {
      const std::vector<int> dig = t.digits(x);
      REQUIRE(t.node_of(dig) == x);
      REQUIRE(t.parse_node(t.name(x)) == x);
      for (int d = 0; d < t.dimensions(); ++d) REQUIRE(dig[d] == t.sigma(x, d));
    }
    CHECK(parse_direct_spec(t.spec()).spec() == t.spec());
  }
  const DirectTopology t = parse_direct_spec("torus:3x4x5:bi");
  CHECK(t.name(t.node_of({4, 3, 2})) == "(2,3,4)");   // digits by dimension, name high first
  CHECK_THROWS_AS(t.node_of({5, 0, 0}), TopologyError);
  CHECK_THROWS_AS(t.node_of({0, 0}), TopologyError);
  CHECK_THROWS_AS(t.parse_node("(3,0,0)"), TopologyError);   // σ_2 < 3
  CHECK_THROWS_AS(t.parse_node("(1,2)"), TopologyError);
  CHECK_THROWS_AS(t.parse_node("1,2,3"), TopologyError);
  CHECK_THROWS_AS(t.parse_node("(1,x,3)"), TopologyError);
}

TEST_CASE("direct: channel sets of each kind", "[direct]") {
  SECTION("unidirectional torus: one + channel per dimension, wrap at k-1") {
    const DirectTopology t = parse_direct_spec("torus:4x4:uni");
    const NodeId x = t.parse_node("(3,1)");
    const std::vector<DirectChannel> c = t.channels(x);
    REQUIRE(c.size() == 2);
    CHECK(c[0].dim == 0);
    CHECK(c[0].to == t.parse_node("(3,2)"));
    CHECK_FALSE(c[0].wrap);
    CHECK(c[1].dim == 1);
    CHECK(c[1].to == t.parse_node("(0,1)"));
    CHECK(c[1].wrap);
    CHECK_FALSE(t.has_channel(x, 0, Direction::minus));
    CHECK(t.neighbour(x, 0, Direction::minus) == -1);
  }
  SECTION("bidirectional torus: 2n channels, wraps at both ends") {
    const DirectTopology t = parse_direct_spec("torus:5x3:bi");
    for (NodeId x = 0; x < t.num_nodes(); ++x) REQUIRE(t.channels(x).size() == 4);
    const NodeId x = t.parse_node("(0,2)");
    CHECK(t.neighbour(x, 1, Direction::minus) == t.parse_node("(4,2)"));
    CHECK(t.is_wrap(x, 1, Direction::minus));
    CHECK(t.neighbour(x, 0, Direction::plus) == t.parse_node("(0,0)"));
    CHECK(t.is_wrap(x, 0, Direction::plus));
    CHECK_FALSE(t.is_wrap(x, 0, Direction::minus));
  }
  SECTION("mesh: no wraps, edges have fewer channels") {
    const DirectTopology t = parse_direct_spec("mesh:3x3");
    CHECK(t.channels(t.parse_node("(0,0)")).size() == 2);
    CHECK(t.channels(t.parse_node("(1,1)")).size() == 4);
    CHECK(t.channels(t.parse_node("(2,1)")).size() == 3);
    for (NodeId x = 0; x < t.num_nodes(); ++x)
      for (const DirectChannel& c : t.channels(x)) REQUIRE_FALSE(c.wrap);
  }
  SECTION("hypercube: channel d flips bit d, n channels per node") {
    const DirectTopology h = DirectTopology::hypercube(6);
    for (NodeId x = 0; x < h.num_nodes(); ++x) {
      const std::vector<DirectChannel> c = h.channels(x);
      REQUIRE(c.size() == 6);
      for (const DirectChannel& ch : c) REQUIRE(ch.to == (x ^ (1 << ch.dim)));
    }
  }
  SECTION("width-2 bidirectional torus has the hypercube's channels (no duplicate wraps)") {
    const DirectTopology t = parse_direct_spec("torus:2x2x2:bi");
    const DirectTopology h = DirectTopology::hypercube(3);
    for (NodeId x = 0; x < 8; ++x) {
      REQUIRE(t.channels(x).size() == 3);
      for (int d = 0; d < 3; ++d)
        for (Direction dir : {Direction::plus, Direction::minus})
          REQUIRE(t.neighbour(x, d, dir) == h.neighbour(x, d, dir));
    }
  }
  SECTION("router ports: 2n per node, 2d + dir") {
    const DirectTopology t = parse_direct_spec("torus:3x4x5:bi");
    CHECK(t.num_ports() == 6);
    std::set<int> ports;
    for (int d = 0; d < 3; ++d)
      for (Direction dir : {Direction::plus, Direction::minus}) ports.insert(DirectTopology::port_index(d, dir));
    CHECK(ports == std::set<int>{0, 1, 2, 3, 4, 5});
    CHECK(DirectTopology::port_index(2, Direction::minus) == 5);
    CHECK(t.valid_node(59));
    CHECK_FALSE(t.valid_node(60));
    CHECK_FALSE(t.valid_node(-1));
  }
  SECTION("channel slots are distinct and in range") {
    const DirectTopology t = parse_direct_spec("torus:3x4:bi");
    std::set<int> slots;
    for (NodeId x = 0; x < t.num_nodes(); ++x)
      for (const DirectChannel& c : t.channels(x)) {
        const int s = t.channel_slot(x, c.dim, c.dir);
        REQUIRE(s >= 0);
        REQUIRE(s < t.num_channel_slots());
        REQUIRE(slots.insert(s).second);
      }
    CHECK(slots.size() == 12u * 4u);
  }
}

TEST_CASE("direct: spec parser accepts the documented forms", "[direct]") {
  const DirectTopology a = parse_direct_spec("torus:6x6:uni");
  CHECK(a.kind() == DirectKind::torus);
  CHECK_FALSE(a.bidirectional());
  CHECK(a.num_nodes() == 36);
  const DirectTopology b = parse_direct_spec("torus:16x16x16:bi");
  CHECK(b.bidirectional());
  CHECK(b.num_nodes() == 4096);
  CHECK(b.regular());
  const DirectTopology m = parse_direct_spec("mesh:8x8");
  CHECK(m.kind() == DirectKind::mesh);
  CHECK(m.num_nodes() == 64);
  const DirectTopology h = parse_direct_spec("hypercube:6");
  CHECK(h.kind() == DirectKind::hypercube);
  CHECK(h.num_nodes() == 64);
  CHECK(h.dimensions() == 6);
  CHECK(parse_direct_spec("torus:7:bi").num_nodes() == 7);
}

TEST_CASE("direct: spec parser errors quote the spec and say why", "[direct]") {
  auto says = [](const std::string& spec, const std::string& what) {
    const std::string e = spec_error(spec);
    INFO(spec << " -> " << e);
    CHECK(e.find("\"" + spec + "\"") != std::string::npos);
    CHECK(e.find(what) != std::string::npos);
  };
  says("torus:6x1:uni", "below 2");
  says("torus:0x6:uni", "below 2");
  says("mesh:1", "below 2");
  says("torus::uni", "missing radix");
  says("torus:6xx6:uni", "empty radix");
  says("torus:6x:uni", "empty radix");
  says("torus:6xa:uni", "not a number");
  says("torus:-6x6:uni", "not a number");
  says("mesh:8x8.5", "not a number");
  says("cube:6", "unknown kind");
  says("", "unknown kind");
  says("torus:6x6:both", "unknown direction");
  says("torus:6x6", "torus:<radices>:<uni|bi>");
  says("torus:6x6:uni:x", "torus:<radices>:<uni|bi>");
  says("mesh:8x8:uni", "no direction field");
  says("hypercube:x", "not a number");
  says("hypercube:0", "outside 1..24");
  says("hypercube:25", "outside 1..24");
  says("hypercube:4:bi", "hypercube:<dimensions>");
  says("torus:4096x4096x4:bi", "more than");
}

// digit() reads a table of the nodes' digits where it is small (radices up
// to 256, at most 4 MiB) and divides otherwise: the same digits either way.
TEST_CASE("direct: digit() gives sigma() with and without its table", "[direct]") {
  const DirectTopology small = parse_direct_spec("torus:3x4x5:bi");   // k_2 = 3, k_1 = 4, k_0 = 5
  const NodeId x = 4 + 3 * 5 + 2 * 20;                                // (2,3,4)
  CHECK(small.digit(x, 0) == 4);
  CHECK(small.digit(x, 1) == 3);
  CHECK(small.digit(x, 2) == 2);
  // a table (8x8, 16^3), a radix over 256 (a ring of 300), too many nodes for 4 MiB (2^23)
  for (const char* spec : {"mesh:8x8", "torus:16x16x16:bi", "torus:300:uni", "hypercube:23"}) {
    const DirectTopology t = parse_direct_spec(spec);
    INFO(spec);
    const int step = t.num_nodes() > 5000 ? 9973 : 1;
    for (NodeId v = 0; v < t.num_nodes(); v += step)
      for (int d = 0; d < t.dimensions(); ++d) REQUIRE(t.digit(v, d) == t.sigma(v, d));
    const NodeId last = t.num_nodes() - 1;
    for (int d = 0; d < t.dimensions(); ++d) REQUIRE(t.digit(last, d) == t.radix(d) - 1);
  }
}
