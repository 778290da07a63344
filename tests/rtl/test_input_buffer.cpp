// Chunk-count replication in the input buffer (seed000 §2.2): each chunk is
// freed only when every branch has read it; branches read independently.
#include <catch2/catch.hpp>

#include "rtl_models/input_buffer.h"
#include "rtl_models/kernel.h"

using namespace wormcast;
using namespace wormcast::rtl;

namespace {
PacketPtr packet(int len) {
  auto p = std::make_shared<Packet>();
  p->length = len;
  p->id = 7;
  return p;
}
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
    buf.grant(*ea, ea->branches[0], 10);
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
