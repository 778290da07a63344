// The bit-vector set behind the VcRouter's active sets (rtl_models/channel_set.h).
#include <catch2/catch.hpp>

#include <set>
#include <vector>

#include "rtl_models/channel_set.h"

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
