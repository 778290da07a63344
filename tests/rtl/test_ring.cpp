// The FIFO ring under Link's flits and credit returns (rtl_models/ring.h).
#include <catch2/catch.hpp>

#include <deque>
#include <memory>
#include <vector>

#include "rtl_models/ring.h"

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
