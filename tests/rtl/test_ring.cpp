// The FIFO ring under Link's flits and credit returns (rtl_models/core/ring.h).
#include <catch2/catch.hpp>

#include <cstddef>
#include <deque>
#include <memory>
#include <vector>

#include "rtl_models/core/ring.h"

using wormcast::rtl::Ring;

TEST_CASE("ring keeps FIFO order across wrap-around and growth") {
  // Against std::deque as the reference: an interleaving of pushes and pops
  // that wraps the head around several times and grows the ring from 4 to
  // 64 slots with the live range wrapped.
  Ring<int> r;
  std::deque<int> ref;
  int next = 0;
  for (int round = 0; round < 200; ++round) {
    const int pushes = 1 + (round * 7) % 5, pops = (round * 3) % 4;
    for (int i = 0; i < pushes; ++i) {
      r.push_back(next);
      ref.push_back(next++);
    }
    for (int i = 0; i < pops && !ref.empty(); ++i) {
      REQUIRE(r.front() == ref.front());
      r.pop_front();
      ref.pop_front();
    }
    REQUIRE(r.size() == ref.size());
    if (!ref.empty()) REQUIRE(r.back() == ref.back());
  }
  std::vector<int> seen;
  r.for_each([&](int v) { seen.push_back(v); });
  CHECK(seen == std::vector<int>(ref.begin(), ref.end()));
  while (!r.empty()) {
    REQUIRE(r.front() == ref.front());
    r.pop_front();
    ref.pop_front();
  }
  CHECK(ref.empty());
}

TEST_CASE("ring moves values: a popped shared_ptr moved out leaves no owner behind") {
  Ring<std::shared_ptr<int>> r;
  auto p = std::make_shared<int>(7);
  for (int i = 0; i < 10; ++i) r.push_back(p);   // forces two growths
  CHECK(p.use_count() == 11);
  while (!r.empty()) {
    std::shared_ptr<int> q = std::move(r.front());
    r.pop_front();
  }
  CHECK(p.use_count() == 1);
}

TEST_CASE("ring erase removes the i-th value, front, middle or back, across wrap-around") {
  // Against std::deque::erase as the reference, with the live range wrapped
  // (pops before the pushes move the head); every erased value is moved
  // out first, as InputBuffer::retire does, and no other owner is lost.
  for (std::size_t pos = 0; pos < 6; ++pos) {
    Ring<std::unique_ptr<int>> r;
    std::deque<int> ref;
    for (int v = 0; v < 5; ++v) r.push_back(std::make_unique<int>(v));
    for (int v = 0; v < 3; ++v) r.pop_front();   // head at slot 3 of 8
    for (int v = 3; v < 5; ++v) ref.push_back(v);
    for (int v = 5; v < 9; ++v) {                 // wraps past the end of the slots
      r.push_back(std::make_unique<int>(v));
      ref.push_back(v);
    }
    REQUIRE(r.size() == 6);
    std::unique_ptr<int> out = std::move(r.at(pos));
    r.erase(pos);
    CHECK(*out == ref[pos]);
    ref.erase(ref.begin() + static_cast<std::ptrdiff_t>(pos));
    REQUIRE(r.size() == ref.size());
    for (std::size_t i = 0; i < ref.size(); ++i) {
      REQUIRE(r.at(i) != nullptr);
      CHECK(*r.at(i) == ref[i]);
    }
    r.push_back(std::make_unique<int>(9));   // the freed slot is reused
    CHECK(*r.back() == 9);
    CHECK(*r.front() == (pos == 0 ? 4 : 3));
  }
}

TEST_CASE("ring is a 24-byte header and moves with its values") {
  // A pointer and 32-bit indices: links and input VCs keep
  // rings in the cache lines every flit reads.
  STATIC_REQUIRE(sizeof(Ring<int>) == 24);
  Ring<int> r;
  for (int i = 0; i < 7; ++i) r.push_back(i);   // grows 4 -> 8
  r.pop_front();
  r.pop_front();
  Ring<int> m = std::move(r);
  std::vector<int> seen;
  m.for_each([&](int v) { seen.push_back(v); });
  CHECK(seen == std::vector<int>{2, 3, 4, 5, 6});
  for (int i = 7; i < 12; ++i) m.push_back(i);   // wraps, then grows 8 -> 16
  seen.clear();
  while (!m.empty()) {
    seen.push_back(m.front());
    m.pop_front();
  }
  CHECK(seen == std::vector<int>{2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
}
