// Chunk-count replication in the input buffer (seed000 §2.2): each chunk is
// freed only when every branch has read it; branches read independently.
#include <catch2/catch.hpp>

#include "rtl_models/switch/input_buffer.h"
#include "rtl_models/core/kernel.h"
#include "tests/common/packets.h"

using namespace wormcast;
using namespace wormcast::rtl;

namespace {
PacketPtr packet(int len) { return test::bare_packet(len, 7); }
std::vector<Branch> branches(const PacketPtr& p, std::initializer_list<int> outs) {
  std::vector<Branch> v;
  for (int o : outs) v.push_back(Branch{o, p, 0, false});
  return v;
}
}  // namespace

TEST_CASE("two readers at different speeds: chunks freed when the slower one passes") {
  fresh_kernel();
  InputBuffer buf("ib", 64, 8, NextHeader::after_grant);
  auto p = packet(20);   // chunks of 8, 8, 4 flits
  Cycle t = 0;
  for (int i = 0; i < 20; ++i) buf.write(Flit{p, i}, t++);
  REQUIRE(buf.occupancy() == 20);
  BufferEntry* e = buf.decode_candidate(1);
  REQUIRE(e != nullptr);
  CHECK(buf.set_branches(*e, branches(p, {2, 5})) == 20);   // one extra copy of each arrived flit
  Branch& fast = e->branches[0];
  Branch& slow = e->branches[1];
  buf.grant(*e, fast, t);
  buf.grant(*e, slow, t);

  // Independent event list: the fast reader reads one flit per cycle, the
  // slow one every third cycle. Expected frees (flits): chunk 0 (8) when the
  // slow reader reads flit 7, chunk 1 (8) at its flit 15, chunk 2 (4) at 19.
  int freed_total = 0;
  std::vector<std::pair<int, int>> frees;   // (slow reader's flit index, flits freed)
  for (Cycle c = 100; fast.next < 20 || slow.next < 20; ++c) {
    int freed = 0;
    if (fast.next < 20) {
      buf.read(*e, fast, c, freed);
      CHECK(freed == 0);   // the fast reader never frees anything
    }
    if (c % 3 == 0 && slow.next < 20) {
      const int idx = slow.next;
      const bool last = idx == 19;
      buf.read(*e, slow, c, freed);
      if (freed) frees.emplace_back(idx, freed);
      freed_total += freed;
      if (last) break;   // entry retired; e is gone
    }
  }
  const std::vector<std::pair<int, int>> expected{{7, 8}, {15, 8}, {19, 4}};
  CHECK(frees == expected);
  CHECK(freed_total == 20);
  CHECK(buf.occupancy() == 0);
  CHECK(buf.empty());
  CHECK(buf.peak_occupancy() == 20);
}

TEST_CASE("a blocked branch does not stall another branch of the same packet") {
  fresh_kernel();
  InputBuffer buf("ib", 64, 4, NextHeader::after_grant);
  auto p = packet(12);
  for (int i = 0; i < 12; ++i) buf.write(Flit{p, i}, static_cast<Cycle>(i));
  BufferEntry* e = buf.decode_candidate(1);
  buf.set_branches(*e, branches(p, {0, 1}));
  int freed = 0;
  for (int i = 0; i < 12; ++i) buf.read(*e, e->branches[0], 20 + static_cast<Cycle>(i), freed);
  CHECK(e->branches[0].next == 12);   // ran to the tail alone
  CHECK(e->branches[1].next == 0);
  CHECK(buf.occupancy() == 12);       // nothing freed: branch 1 still owes every chunk
  CHECK(buf.pending_copies() == 12);
}

TEST_CASE("unicast is the count-1 case: every chunk freed as it is read") {
  fresh_kernel();
  InputBuffer buf("ib", 32, 4, NextHeader::after_grant);
  auto p = packet(10);
  for (int i = 0; i < 10; ++i) buf.write(Flit{p, i}, static_cast<Cycle>(i));
  BufferEntry* e = buf.decode_candidate(1);
  CHECK(buf.set_branches(*e, branches(p, {3})) == 0);
  std::vector<int> freed_at;
  for (int i = 0; i < 10; ++i) {
    int freed = 0;
    buf.read(*e, e->branches[0], 20 + static_cast<Cycle>(i), freed);
    if (freed) freed_at.push_back(i);
  }
  CHECK(freed_at == std::vector<int>{3, 7, 9});
  CHECK(buf.empty());
}

TEST_CASE("a flit written in a cycle is readable from the next cycle") {
  fresh_kernel();
  InputBuffer buf("ib", 16, 4, NextHeader::after_grant);
  auto p = packet(4);
  buf.write(Flit{p, 0}, 5);
  BufferEntry* e = buf.decode_candidate(1);
  REQUIRE(e);
  CHECK(e->ready == 6);   // head written at 5, decoded after route_delay = 1
  buf.set_branches(*e, branches(p, {1}));
  CHECK_FALSE(buf.readable(*e, e->branches[0], 5));
  CHECK(buf.readable(*e, e->branches[0], 6));
}

TEST_CASE("next header: after_grant releases the decode position at grant, after_drain at the tail") {
  for (auto rule : {NextHeader::after_grant, NextHeader::after_drain}) {
    fresh_kernel();
    InputBuffer buf("ib", 64, 8, rule);
    auto a = packet(4), b = packet(4);
    for (int i = 0; i < 4; ++i) buf.write(Flit{a, i}, static_cast<Cycle>(i));
    for (int i = 0; i < 4; ++i) buf.write(Flit{b, i}, static_cast<Cycle>(4 + i));
    BufferEntry* ea = buf.decode_candidate(2);
    REQUIRE(ea);
    CHECK(ea->pkt == a);
    buf.set_branches(*ea, branches(a, {0}));
    CHECK(buf.decode_candidate(2) == nullptr);   // a not granted yet
    // grant() says whether it released the decode position (the switch then
    // looks at this input's decode position again, Switch::decode_headers).
    CHECK(buf.grant(*ea, ea->branches[0], 10) == (rule == NextHeader::after_grant));
    if (rule == NextHeader::after_grant) {
      BufferEntry* eb = buf.decode_candidate(2);
      REQUIRE(eb);
      CHECK(eb->pkt == b);
      CHECK(eb->ready == 12);   // released at 10, + route_delay 2
    } else {
      CHECK(buf.decode_candidate(2) == nullptr);
      int freed = 0;
      for (int i = 0; i < 4; ++i) buf.read(*ea, ea->branches[0], 11 + static_cast<Cycle>(i), freed);
      BufferEntry* eb = buf.decode_candidate(2);
      REQUIRE(eb);
      CHECK(eb->ready == 16);   // drained at 14, + 2
    }
  }
}

TEST_CASE("writing beyond capacity is a protocol violation") {
  fresh_kernel();
  InputBuffer buf("ib", 3, 1, NextHeader::after_grant);
  auto p = packet(4);
  for (int i = 0; i < 3; ++i) buf.write(Flit{p, i}, static_cast<Cycle>(i));
  CHECK_THROWS_AS(buf.write(Flit{p, 3}, 3), std::logic_error);
}

TEST_CASE("branches with rewritten headers: each emits its own length, chunks and credits follow received flits") {
  fresh_kernel();
  InputBuffer buf("ib", 64, 4, NextHeader::after_grant);
  auto rx = packet(20);   // 4 header flits + 16 payload
  rx->header_flits = 4;
  auto shrink = std::make_shared<Packet>(*rx);   // a multi-drop worm that consumed a pair: 2 header flits
  shrink->header_flits = 2;
  shrink->length = 18;
  auto grow = std::make_shared<Packet>(*rx);     // a header one flit longer
  grow->header_flits = 5;
  grow->length = 21;
  Cycle t = 0;
  for (int i = 0; i < 3; ++i) buf.write(Flit{rx, i}, t++);
  CHECK(buf.decode_candidate(1) == nullptr);   // a decoder sees its whole header
  buf.write(Flit{rx, 3}, t++);
  BufferEntry* e = buf.decode_candidate(1);
  REQUIRE(e != nullptr);
  CHECK(e->ready == 3 + 1);   // last header flit written at cycle 3, plus route_delay
  std::vector<Branch> bs;
  bs.push_back(Branch{0, shrink});
  bs.push_back(Branch{1, rx});
  bs.push_back(Branch{2, grow});
  // Available once the 4 header flits are in: every header flit of every
  // branch (2 + 4 + 5; all five of `grow` are made from the received header),
  // i.e. 7 more flits than were received.
  CHECK(buf.set_branches(*e, bs) == (2 + 4 + 5) - 4);
  for (int i = 4; i < 20; ++i) {
    buf.write(Flit{rx, i}, t++);
    CHECK(buf.copies_per_write(*e) == 2);   // each payload flit: three copies of one
  }
  for (auto& b : e->branches) buf.grant(*e, b, t);
  // Read all three to the end, in turn; count what is freed and check every
  // flit's index and the flits the conservation invariant sees.
  int freed_total = 0;
  std::vector<int> emitted(3, 0);
  Cycle c = 100;
  const std::int64_t copies = (2 + 4 + 5) - 4 + 16 * 2;
  std::int64_t read = 0;
  for (int round = 0; round < 21; ++round)
    for (int k = 0; k < 3; ++k) {
      Branch& b = e->branches[static_cast<std::size_t>(k)];
      if (b.next >= b.pkt->length) continue;
      REQUIRE(buf.readable(*e, b, c));
      const bool last = buf.pending_copies() == 1;
      const PacketPtr expected = b.pkt;   // the last read retires the entry and its branches
      int freed = 0;
      const Flit f = buf.read(*e, b, ++c, freed);
      CHECK(f.index == emitted[static_cast<std::size_t>(k)]++);
      CHECK(f.pkt == expected);
      freed_total += freed;
      ++read;
      if (last) goto done;
      CHECK(static_cast<std::int64_t>(buf.pending_copies()) == 20 + copies - read);
    }
done:
  CHECK(emitted == std::vector<int>{18, 20, 21});
  CHECK(freed_total == 20);
  CHECK(buf.occupancy() == 0);
  CHECK(buf.empty());
  CHECK(read == 18 + 20 + 21);
  CHECK(read == 20 + copies);   // flit conservation: received + copies made = flits emitted
}

TEST_CASE("a branch whose payload differs from the received packet is an error, not corruption") {
  fresh_kernel();
  InputBuffer buf("ib", 64, 4, NextHeader::after_grant);
  auto rx = packet(10);
  for (int i = 0; i < 10; ++i) buf.write(Flit{rx, i}, static_cast<Cycle>(i));
  BufferEntry* e = buf.decode_candidate(1);
  REQUIRE(e != nullptr);
  auto bad = std::make_shared<Packet>(*rx);
  bad->length = 9;   // same one-flit header, one payload flit lost
  std::vector<Branch> bs;
  bs.push_back(Branch{0, bad});
  CHECK_THROWS_WITH(buf.set_branches(*e, bs), Catch::Contains("8 payload flits, received 9"));
}

TEST_CASE("the flit that retires an entry stays valid until the next retirement (flits do not own packets)") {
  fresh_kernel();
  InputBuffer buf("ib", 64, 4, NextHeader::after_drain);
  auto a = packet(1), copy = packet(1);
  std::weak_ptr<Packet> wa = a, wcopy = copy;
  buf.write(Flit{a, 0}, 0);
  a.reset();   // the entry is the only owner of the received packet
  BufferEntry* e = buf.decode_candidate(1);
  REQUIRE(e != nullptr);
  buf.set_branches(*e, branches(copy, {3}));   // the branch emits its own copy
  copy.reset();
  buf.grant(*e, e->branches[0], 2);
  int freed = 0;
  const Flit f = buf.read(*e, e->branches[0], 2, freed);   // retires the entry
  CHECK(buf.empty());
  CHECK(freed == 1);
  CHECK(wa.expired());                 // the received packet is no longer needed
  REQUIRE_FALSE(wcopy.expired());      // the flit's packet is kept for the caller
  CHECK(f.tail());
  CHECK(f.pkt->length == 1);
  auto b = packet(1);
  buf.write(Flit{b, 0}, 3);
  e = buf.decode_candidate(1);
  REQUIRE(e != nullptr);
  buf.set_branches(*e, branches(b, {1}));
  buf.grant(*e, e->branches[0], 5);
  buf.read(*e, e->branches[0], 5, freed);
  CHECK(wcopy.expired());              // released by the next retirement
}

// Chunk counts live in the entry for packets of up to
// BufferEntry::kInlineChunks chunks and in a heap block beyond; entries are
// recycled between packets of both kinds. Two readers; the slow one frees
// each chunk at its last flit (the expectation is computed here from the
// chunk boundaries, not by the buffer).
TEST_CASE("chunk counts inline and on the heap, on recycled entries: frees at each chunk's last flit") {
  fresh_kernel();
  InputBuffer buf("ib", 256, 4, NextHeader::after_drain);
  Cycle t = 0;
  for (int len : {6, 37, 3, 16, 17, 64, 5}) {   // 2, 10, 1, 4, 5, 16, 2 chunks of 4
    auto p = packet(len);
    for (int i = 0; i < len; ++i) buf.write(Flit{p, i}, t++);
    BufferEntry* e = buf.decode_candidate(1);
    REQUIRE(e != nullptr);
    buf.set_branches(*e, branches(p, {1, 3}));
    Branch& a = e->branches[0];
    Branch& b = e->branches[1];
    buf.grant(*e, a, t);
    buf.grant(*e, b, t);
    std::vector<std::pair<int, int>> frees, expected;
    for (int end = 4;; end += 4) {
      expected.emplace_back(std::min(end, len) - 1, std::min(end, len) - (end - 4));
      if (end >= len) break;
    }
    for (int i = 0; i < len; ++i) {
      int freed = 0;
      buf.read(*e, a, ++t, freed);
      CHECK(freed == 0);
      buf.read(*e, b, t, freed);   // the last read retires e
      if (freed) frees.emplace_back(i, freed);
    }
    CHECK(frees == expected);
    CHECK(buf.occupancy() == 0);
    CHECK(buf.empty());
  }
}
