// seed000 §5.3 / §5.9 header encodings: exact bit lengths, bit layout,
// encode/decode round trips and pair-by-pair consumption of multi-drop headers.
#include <catch2/catch.hpp>

#include "algorithms/headers.h"
#include "algorithms/multiphase.h"
#include "switchmc_fixtures.h"

using namespace wormcast::algo;
using namespace switchmc_test;

namespace {

Bits bits_of(const char* s) {
  Bits b;
  for (; *s; ++s) b.push_back(*s == '1');
  return b;
}

}  // namespace

TEST_CASE("switchmc: field widths and flit rounding", "[switchmc][headers]") {
  CHECK(id_field_bits(1) == 1);
  CHECK(id_field_bits(2) == 1);
  CHECK(id_field_bits(8) == 3);
  CHECK(id_field_bits(9) == 4);
  CHECK(id_field_bits(256) == 8);
  CHECK(header_flits(0) == 0);
  CHECK(header_flits(1) == 1);
  CHECK(header_flits(8) == 1);
  CHECK(header_flits(9) == 2);
  CHECK(header_flits(257) == 33);
  CHECK(header_flits(257, 16) == 17);
  CHECK_THROWS_AS(header_flits(-1), std::invalid_argument);
  CHECK_THROWS_AS(header_flits(8, 0), std::invalid_argument);
}

TEST_CASE("switchmc: header bit lengths per encoding", "[switchmc][headers]") {
  // Paper default: eight 8-port switches, 32 nodes.
  const HeaderGeometry paper{8, 32, 8};
  CHECK(ssr_header_bits(paper) == 1 + 3 + 8);
  CHECK(ssr_header_bits(paper, SsrId::node_id) == 1 + 5 + 8);
  // Fig. 12(d): pairs on s1, s3, s4 -> 3 x (ID + 8 bits), plus tag and a
  // 4-bit pair count (0..8).
  CHECK(multidrop_header_bits(paper, 3) == 1 + 4 + 3 * (3 + 8));
  CHECK(tree_header_bits(paper) == 33);
  CHECK(header_flits(tree_header_bits(paper)) == 5);
  // 256 nodes: 256-bit string + up-down bit = 257 bits = 33 one-byte flits.
  const HeaderGeometry big{64, 256, 8};
  CHECK(tree_header_bits(big) == 257);
  CHECK(header_flits(tree_header_bits(big)) == 33);
  // Encoded sizes equal the formulas.
  const Topology t = fig14();
  const HeaderGeometry g = HeaderGeometry::of(t);
  CHECK(encode_ssr(g, {sw(5), Bits(6, true)}).size() == static_cast<std::size_t>(1 + 4 + 6));
  CHECK(encode_tree(g, true, NodeBits(20)).size() == 21u);
}

TEST_CASE("switchmc: SSR header layout and round trip", "[switchmc][headers]") {
  const HeaderGeometry g{8, 32, 8};
  // tag 1, switch 5 = 101, ports 0 and 2 -> 10100000.
  const DropPair h{5, bits_of("10100000")};
  const Bits b = encode_ssr(g, h);
  CHECK(b == bits_of("110110100000"));
  CHECK(pack_bytes(b) == std::vector<std::uint8_t>{0xDA, 0x00});
  CHECK(decode_ssr(g, b) == h);
  // Node-ID variant: node 17 = 10001.
  const DropPair hn{17, bits_of("00000001")};
  const Bits bn = encode_ssr(g, hn, SsrId::node_id);
  CHECK(bn == bits_of("11000100000001"));
  CHECK(decode_ssr(g, bn, SsrId::node_id) == hn);
  CHECK_THROWS_AS(encode_ssr(g, {8, bits_of("10100000")}), std::invalid_argument);   // no switch 8
  CHECK_THROWS_AS(encode_ssr(g, {1, bits_of("101")}), std::invalid_argument);        // 3 != p bits
  CHECK_THROWS_AS(decode_ssr(g, bits_of("11011010000")), std::invalid_argument);      // truncated
  CHECK_THROWS_AS(decode_ssr(g, bits_of("010110100000")), std::invalid_argument);     // tag 0
}

TEST_CASE("switchmc: multi-drop header: layout, round trip, consumed pair by pair", "[switchmc][headers]") {
  const HeaderGeometry g{8, 32, 8};
  const std::vector<DropPair> pairs{{1, bits_of("11000000")}, {3, bits_of("00000001")}, {4, bits_of("01000000")}};
  const Bits b = encode_multidrop(g, pairs);
  CHECK(b == bits_of("1" "0011" "001" "11000000" "011" "00000001" "100" "01000000"));
  CHECK(decode_multidrop(g, b) == pairs);
  ConsumedPair c = consume_pair(g, b);
  CHECK(c.pair == pairs[0]);
  CHECK_FALSE(c.last);
  CHECK(c.rest.size() == b.size() - 11);
  CHECK(decode_multidrop(g, c.rest) == std::vector<DropPair>{pairs[1], pairs[2]});
  c = consume_pair(g, c.rest);
  c = consume_pair(g, c.rest);
  CHECK(c.pair == pairs[2]);
  CHECK(c.last);
  CHECK(c.rest.empty());
}

TEST_CASE("switchmc: multi-drop headers of the Fig. 16(b) worms are consumed along their routes", "[switchmc][headers]") {
  const Topology t = fig14();
  const UpDownRouting r = fig14_routing(t);
  const HeaderGeometry g = HeaderGeometry::of(t);
  const Schedule lg = plan_path_based(t, r, fig14_source(), fig14_dests());
  for (const ScheduledWorm& w : lg.worms) {
    const std::vector<DropPair> pairs = multidrop_pairs(t, w.destinations);
    Bits h = encode_multidrop(g, pairs);
    CHECK(h.size() == static_cast<std::size_t>(multidrop_header_bits(g, static_cast<int>(pairs.size()))));
    // A switch whose ID matches the first pair consumes it and drops to the
    // marked ports; every destination is dropped exactly once.
    std::vector<NodeId> dropped;
    for (SwitchId s : w.route.path) {
      if (h.empty()) break;
      const ConsumedPair c = consume_pair(g, h);
      if (c.pair.id != s) continue;
      for (PortId p = 0; p < t.ports_per_switch; ++p)
        if (c.pair.port_bits[p]) dropped.push_back(t.peer(s, p).id);
      h = c.rest;
    }
    CHECK(h.empty());
    CHECK(dropped == w.destinations);
  }
}

TEST_CASE("switchmc: tree header layout and round trip", "[switchmc][headers]") {
  const HeaderGeometry g{2, 5, 4};
  NodeBits d(5);
  d.set(1);
  d.set(4);
  const Bits b = encode_tree(g, false, d);
  CHECK(b == bits_of("0" "01001"));
  const TreeHeader h = decode_tree(g, b);
  CHECK_FALSE(h.up_down);
  CHECK(h.dests == d);
  CHECK(decode_tree(g, encode_tree(g, true, d)).up_down);
  CHECK_THROWS_AS(encode_tree(g, true, NodeBits(4)), std::invalid_argument);
  CHECK_THROWS_AS(decode_tree(g, bits_of("0010")), std::invalid_argument);
}
