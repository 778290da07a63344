// Up*/down* unicast decoder. Hand-built network (root 0):
//   sw0 (level 0) p0 - sw1 p0, sw0 p1 - sw2 p0; sw1 p1 - sw2 p1 and a second
//   parallel link sw1 p3 - sw2 p3; nodes: node0 at sw1 p2, node1 at sw2 p2,
//   node2 at sw0 p2.
// By hand: sw1 and sw2 share level 1, so the up end of both sw1-sw2 links is
// sw1 (lower id): sw1 -> sw2 is down, sw2 -> sw1 is up.
//   node0 -> node1 from sw1 (fresh): legal minimal ports {1, 3} (one down hop).
//   packet to node0 that reached sw2 over sw0 -> sw2 (down): every way back up
//   is illegal, so there is no route.
#include <catch2/catch.hpp>

#include "rtl_models/core/kernel.h"
#include "rtl_models/switch/updown_decoder.h"

using namespace wormcast;
using namespace wormcast::rtl;

namespace {
topo::Topology hand_topology() {
  auto t = topo::Topology::empty(3, 4);
  t.connect(0, 0, 1, 0).connect(0, 1, 2, 0).connect(1, 1, 2, 1).connect(1, 3, 2, 3);
  t.attach(0, 1, 2).attach(1, 2, 2).attach(2, 0, 2);
  t.validate();
  return t;
}

// A fresh kernel and the up*/down* routing of hand_topology() (the routing
// keeps its own copy of what it needs from the topology).
std::shared_ptr<const topo::UpDownRouting> hand_routing() {
  fresh_kernel();
  return std::make_shared<const topo::UpDownRouting>(hand_topology());
}

struct Ports : OutputPortState {
  std::vector<int> credits{0, 0, 0, 0};
  int free_credits(int o) const override { return credits[static_cast<std::size_t>(o)]; }
  bool busy(int) const override { return false; }
};

PacketPtr to(int dest) {
  auto p = std::make_shared<Packet>();
  p->header.dest = dest;
  p->length = 4;
  return p;
}
}  // namespace

TEST_CASE("deterministic selection takes the lowest legal port, adaptive the one with most credits") {
  auto r = hand_routing();
  UpDownDecoder det("det", 1, r, PortSelection::deterministic, Rng(1));
  UpDownDecoder ada("ada", 1, r, PortSelection::adaptive, Rng(1));
  Ports ports;
  std::vector<Branch> out;
  det.decode(to(1), 2, ports, out);   // from node0's port
  REQUIRE(out.size() == 1);
  CHECK(out[0].out_port == 1);
  out.clear();
  ports.credits = {0, 5, 0, 9};
  ada.decode(to(1), 2, ports, out);
  CHECK(out[0].out_port == 3);
  out.clear();
  ports.credits = {0, 9, 0, 5};
  ada.decode(to(1), 2, ports, out);
  CHECK(out[0].out_port == 1);
}

TEST_CASE("random selection stays within the legal ports and uses all of them") {
  auto r = hand_routing();
  UpDownDecoder rnd("rnd", 1, r, PortSelection::random, Rng(42));
  Ports ports;
  int seen1 = 0, seen3 = 0;
  for (int n = 0; n < 200; ++n) {
    std::vector<Branch> out;
    rnd.decode(to(1), 2, ports, out);
    REQUIRE((out[0].out_port == 1 || out[0].out_port == 3));
    (out[0].out_port == 1 ? seen1 : seen3)++;
  }
  CHECK(seen1 > 50);
  CHECK(seen3 > 50);
}

TEST_CASE("the local node's port is chosen at the destination switch") {
  auto r = hand_routing();
  UpDownDecoder det("det", 2, r, PortSelection::deterministic, Rng(1));
  Ports ports;
  std::vector<Branch> out;
  det.decode(to(1), 1, ports, out);   // arrived at sw2 from sw1 (down)
  CHECK(out[0].out_port == 2);
}

TEST_CASE("no legal route (up after down) and multicast headers are decoding errors") {
  auto r = hand_routing();
  UpDownDecoder det("det", 2, r, PortSelection::deterministic, Rng(1));
  Ports ports;
  std::vector<Branch> out;
  CHECK_THROWS_WITH(det.decode(to(0), 0, ports, out), Catch::Contains("no legal up*/down* route"));
  auto m = to(0);
  m->header.kind = HeaderKind::multicast;
  CHECK_THROWS_WITH(det.decode(m, 2, ports, out), Catch::Contains("multicast"));
}

// The decoder keeps each input port's arrival phase after its first decode:
// answers per port must not leak into another port's, in either order, and
// a port out of range stays an error on every decode.
TEST_CASE("the arrival phase kept per input port gives each port its own answer on every decode") {
  auto r = hand_routing();
  UpDownDecoder det("det", 2, r, PortSelection::deterministic, Rng(1));
  Ports ports;
  for (int round = 0; round < 2; ++round) {
    std::vector<Branch> out;
    det.decode(to(0), 2, ports, out);   // from node1 (may go up): up to sw1, lowest of {1, 3}
    REQUIRE(out.size() == 1);
    CHECK(out[0].out_port == 1);
    CHECK_THROWS_WITH(det.decode(to(0), 0, ports, out), Catch::Contains("no legal up*/down* route"));
    CHECK_THROWS_AS(det.decode(to(0), 7, ports, out), std::out_of_range);
  }
}
