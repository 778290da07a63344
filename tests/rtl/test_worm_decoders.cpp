// The multicast decoder modules on a hand-built two-switch network (the
// topology of experiments/seed000/topologies/two_switch_10.yaml): sw0 (root)
// port 0 <-> sw1 port 0; node 1 at sw0 p1, nodes 0, 3, 7 at sw1 p1, p2, p3.
// Header sizes by hand (seed000 §5.3, algorithms/headers.h): S = 2, p = 8:
//   multi-drop: 1 tag + 2 count bits (id_field_bits(3)) + pairs x (1 ID bit + 8)
//     2 pairs: 21 bits = 3 flits; 1 pair: 12 bits = 2 flits.
//   tree: 1 + N = 11 bits = 2 flits.
#include <catch2/catch.hpp>

#include "algorithms/headers.h"
#include "rtl_models/switch/decoder_registry.h"
#include "rtl_models/switch/drop_decoder.h"
#include "rtl_models/core/kernel.h"
#include "rtl_models/switch/reachability_decoder.h"
#include "rtl_models/core/worm_packet.h"

using namespace wormcast;
using namespace wormcast::rtl;

namespace {

std::shared_ptr<const topo::Topology> two_switch() {
  auto t = topo::Topology::empty(2, 8);
  t.connect(0, 0, 1, 0);
  const int at[10][2] = {{1, 1}, {0, 1}, {0, 2}, {1, 2}, {0, 3}, {0, 4}, {0, 5}, {1, 3}, {1, 4}, {1, 5}};
  for (int n = 0; n < 10; ++n) t.attach(n, at[n][0], at[n][1]);
  t.validate();
  return std::make_shared<const topo::Topology>(t);
}

struct Idle : OutputPortState {
  int free_credits(int) const override { return 640; }
  bool busy(int) const override { return false; }
};

DecoderSetup setup(int sw, const std::shared_ptr<const topo::Topology>& t) {
  DecoderSetup s;
  s.switch_id = sw;
  s.topology = t;
  s.routing = std::make_shared<const topo::UpDownRouting>(*t);
  s.shared = std::make_shared<DecoderShared>();
  return s;
}

}  // namespace

TEST_CASE("multi-drop decoder delivers the matching pair and strips it from the forwarded copy") {
  fresh_kernel();
  const auto t = two_switch();
  DropDecoder dec("drop", setup(1, t));
  const algo::HeaderGeometry g = algo::HeaderGeometry::of(*t);
  const auto pairs = algo::multidrop_pairs(*t, {3, 7, 1});
  REQUIRE(pairs.size() == 2);
  auto pkt = make_worm(WormEncoding::multidrop, algo::encode_multidrop(g, pairs), {3, 7, 1}, 40);
  REQUIRE(pkt->header_flits == 3);
  REQUIRE(pkt->length == 43);
  std::vector<Branch> out;
  dec.decode(pkt, 1, Idle{}, out);   // from node 0's port
  REQUIRE(out.size() == 3);
  CHECK(out[0].out_port == 2);
  CHECK(out[1].out_port == 3);
  CHECK(out[0].pkt == pkt);         // deliveries carry the received packet
  CHECK(out[2].out_port == 0);      // on toward sw0
  CHECK(out[2].pkt != pkt);
  CHECK(out[2].pkt->header_flits == 2);
  CHECK(out[2].pkt->length == 42);
  CHECK(out[2].pkt->header.dests == std::vector<int>{1});
  CHECK(algo::decode_multidrop(g, *out[2].pkt->header.worm_bits) == std::vector<algo::DropPair>{pairs[1]});
}

TEST_CASE("reachability decoder rewrites each branch's destination string") {
  fresh_kernel();
  const auto t = two_switch();
  const algo::HeaderGeometry g = algo::HeaderGeometry::of(*t);
  ReachabilityDecoder sw1("sw1", setup(1, t));
  ReachabilityDecoder sw0("sw0", setup(0, t));
  auto pkt = make_worm(WormEncoding::tree, algo::encode_tree(g, true, algo::NodeBits::of(10, {1, 3})), {1, 3}, 30);
  REQUIRE(pkt->header_flits == 2);
  std::vector<Branch> up;
  sw1.decode(pkt, 1, Idle{}, up);    // sw1 cannot reach node 1: up, header unchanged
  REQUIRE(up.size() == 1);
  CHECK(up[0].out_port == 0);
  CHECK(up[0].pkt == pkt);
  std::vector<Branch> down;
  sw0.decode(pkt, 0, Idle{}, down);  // sw0 reaches both: node 1 on p1, node 3 below p0
  REQUIRE(down.size() == 2);
  CHECK(down[0].out_port == 0);
  CHECK(down[1].out_port == 1);
  for (const Branch& b : down) {
    const algo::TreeHeader h = algo::decode_tree(g, *b.pkt->header.worm_bits);
    CHECK_FALSE(h.up_down);
    CHECK(h.dests.to_nodes() == (b.out_port == 0 ? std::vector<int>{3} : std::vector<int>{1}));
    CHECK(b.pkt->length == pkt->length);
    CHECK(b.pkt->origin == pkt->origin);
  }
}

TEST_CASE("multicast decoders route unicast packets and refuse foreign encodings") {
  fresh_kernel();
  const auto t = two_switch();
  MulticastDecoder dec("mc", setup(1, t));
  auto uni = std::make_shared<Packet>();
  uni->header.dest = 1;
  std::vector<Branch> out;
  dec.decode(uni, 1, Idle{}, out);
  REQUIRE(out.size() == 1);
  CHECK(out[0].out_port == 0);
  DropDecoder drop("drop", setup(1, t));
  const algo::HeaderGeometry g = algo::HeaderGeometry::of(*t);
  auto tree = make_worm(WormEncoding::tree, algo::encode_tree(g, true, algo::NodeBits::of(10, {3})), {3}, 4);
  out.clear();
  CHECK_THROWS_WITH(drop.decode(tree, 1, Idle{}, out), Catch::Contains("tree header"));
  CHECK_THROWS_AS(make_worm(WormEncoding::tree, {}, {3}, 4), std::invalid_argument);
  CHECK_THROWS_AS(make_worm(WormEncoding::tree, {true}, {}, 4), std::invalid_argument);
}
