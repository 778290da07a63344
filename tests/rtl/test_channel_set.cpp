// The bit-vector set behind the VcRouter's active sets (rtl_models/core/channel_set.h).
#include <catch2/catch.hpp>

#include <set>
#include <vector>

#include "rtl_models/core/channel_set.h"

using wormcast::rtl::ChannelSet;

namespace {
std::vector<int> visit(const ChannelSet& s) {
  std::vector<int> v;
  s.for_each([&](int i) { v.push_back(i); });
  return v;
}
std::vector<int> visit_from(const ChannelSet& s, int start) {
  std::vector<int> v;
  s.for_each_from(start, [&](int i) { v.push_back(i); });
  return v;
}
}  // namespace

TEST_CASE("channel set visits its members in ascending order, across words") {
  ChannelSet s;
  s.resize(130);
  REQUIRE(s.empty());
  for (int i : {129, 0, 64, 63, 5, 70}) s.insert(i);
  REQUIRE(visit(s) == std::vector<int>{0, 5, 63, 64, 70, 129});
  s.erase(63);
  s.erase(63);   // erasing a non-member is harmless
  REQUIRE_FALSE(s.contains(63));
  REQUIRE(s.contains(64));
  REQUIRE(visit(s) == std::vector<int>{0, 5, 64, 70, 129});
}

TEST_CASE("channel set round-robin visit starts at the given member and wraps") {
  // Reference: the scan (start + k) % n over all n channels, keeping members.
  ChannelSet s;
  const int n = 100;
  s.resize(n);
  const std::set<int> members = {1, 2, 30, 63, 64, 65, 99};
  for (int i : members) s.insert(i);
  for (int start = 0; start < n; ++start) {
    std::vector<int> ref;
    for (int k = 0; k < n; ++k)
      if (members.count((start + k) % n)) ref.push_back((start + k) % n);
    REQUIRE(visit_from(s, start) == ref);
  }
}

TEST_CASE("channel set first_from is the round-robin visit's first member") {
  // Reference: the first member of the scan (start + k) % n, -1 for none.
  for (const int n : {5, 64, 100, 130, 200}) {
    ChannelSet s;
    s.resize(n);
    std::set<int> members;
    for (int start = 0; start < n; ++start) REQUIRE(s.first_from(start) == -1);
    for (int m : {n - 1, 0, 63, 64, 65, 129, 2}) {
      if (m >= n) continue;
      s.insert(m);
      members.insert(m);
      for (int start = 0; start < n; ++start) {
        int ref = -1;
        for (int k = 0; k < n && ref < 0; ++k)
          if (members.count((start + k) % n)) ref = (start + k) % n;
        REQUIRE(s.first_from(start) == ref);
      }
    }
  }
}

TEST_CASE("channel set visit tolerates erasing the visited member") {
  ChannelSet s;
  s.resize(8);
  for (int i = 0; i < 8; ++i) s.insert(i);
  std::vector<int> seen;
  s.for_each([&](int i) {
    seen.push_back(i);
    s.erase(i);
  });
  REQUIRE(seen.size() == 8);
  REQUIRE(s.empty());
}

TEST_CASE("channel set agrees with std::set at every size, in the object and on the heap") {
  // Sizes around the word and in-object storage boundaries (one word in the
  // object, more on the heap); a fixed pseudo-random sequence of inserts and
  // erases, compared after each step with std::set.
  for (int n : {1, 63, 64, 65, 127, 128, 129, 200}) {
    ChannelSet s;
    s.resize(n);
    std::set<int> ref;
    unsigned x = 12345u + static_cast<unsigned>(n);
    for (int step = 0; step < 400; ++step) {
      x = x * 1103515245u + 12345u;
      const int i = static_cast<int>((x >> 8) % static_cast<unsigned>(n));
      if ((x >> 3) & 1u) {
        s.insert(i);
        ref.insert(i);
      } else {
        s.erase(i);
        ref.erase(i);
      }
      REQUIRE(s.contains(i) == (ref.count(i) == 1));
      REQUIRE(s.empty() == ref.empty());
    }
    REQUIRE(visit(s) == std::vector<int>(ref.begin(), ref.end()));
    // A copy is a set of its own (its words are not the original's).
    ChannelSet c = s;
    c.insert(0);
    c.erase(n - 1);
    REQUIRE(visit(s) == std::vector<int>(ref.begin(), ref.end()));
    ChannelSet d;
    d = s;
    if (d.contains(0)) d.erase(0);
    else d.insert(0);
    REQUIRE(d.contains(0) != s.contains(0));
    REQUIRE(s.contains(0) == (ref.count(0) == 1));
    // resize empties the set.
    s.resize(n);
    REQUIRE(s.empty());
  }
}
