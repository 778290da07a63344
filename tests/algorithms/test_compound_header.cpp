// Compound header of seed001 Fig. 6.2 in our layout (algorithms/compound_header.h):
// flit sequences written out by hand, round trips, counts, malformed input.
#include <catch2/catch.hpp>

#include "algorithms/compound_header.h"

using namespace wormcast::algo;
using Flits = std::vector<NodeId>;

TEST_CASE("compound header: blocks then the last address again", "[compound]") {
  const std::vector<CompoundBlock> b{{5, {6, 7}}, {9, {}}, {12, {13}}};
  CHECK(encode_compound_header(b) == Flits{5, 2, 6, 7, 9, 0, 12, 1, 13, 12});
  CHECK(compound_header_flits(b) == 10);   // (2+2) + (2+0) + (2+1) + 1
  CHECK(decode_compound_header(encode_compound_header(b)) == b);
  CHECK(compound_first_block_flits(encode_compound_header(b)) == 4);
}

TEST_CASE("compound header: a plain worm costs one extra flit per destination", "[compound]") {
  // Sec. 6.5: m destinations with zero counts: 2m + 1 flits against m + 1.
  const std::vector<CompoundBlock> b{{1, {}}, {2, {}}, {3, {}}};
  CHECK(compound_header_flits(b) == 7);
  CHECK(encode_compound_header(b) == Flits{1, 0, 2, 0, 3, 0, 3});
}

TEST_CASE("compound header: a count equal to its address is not read as a terminator", "[compound]") {
  // Node 3 serves 3 nodes later: with the duplicate right after the address
  // (spec §7.7) "3, 3" would be ambiguous; here it is not.
  const std::vector<CompoundBlock> b{{3, {1, 2, 4}}, {8, {9}}};
  CHECK(encode_compound_header(b) == Flits{3, 3, 1, 2, 4, 8, 1, 9, 8});
  CHECK(decode_compound_header(encode_compound_header(b)) == b);
}

TEST_CASE("compound header: what a destination's processor gets", "[compound]") {
  CHECK(received_compound_block({5, 2, 6, 7}) == CompoundBlock{5, {6, 7}});      // intermediate: the block
  CHECK(received_compound_block({12, 1, 13, 12}) == CompoundBlock{12, {13}});   // last: block + terminator
  CHECK_THROWS_WITH(received_compound_block({5, 2, 6, 7, 8, 9}), Catch::Contains("extra flits"));
}

TEST_CASE("compound header: malformed input is refused naming the flit", "[compound]") {
  CHECK_THROWS_WITH(encode_compound_header({}), Catch::Contains("no destinations"));
  CHECK_THROWS_WITH(encode_compound_header({{4, {}}, {4, {1}}}), Catch::Contains("destination 4 has two blocks"));
  CHECK_THROWS_WITH(decode_compound_header({5, 4, 1, 2}), Catch::Contains("flit 1: count 4 runs past the end"));
  CHECK_THROWS_WITH(decode_compound_header({5, 0}), Catch::Contains("no terminator"));
  CHECK_THROWS_WITH(decode_compound_header({5, 0, 5, 7}), Catch::Contains("flit 3: 1 flits after the terminator"));
  CHECK_THROWS_WITH(compound_first_block_flits({5}), Catch::Contains("flit 0: a block needs an address and a count"));
}
