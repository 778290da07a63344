// The checked build's invariant macro: in a build with WORMCAST_CHECKED a
// failed invariant throws InvariantViolation naming it; elsewhere neither
// its condition nor its message is evaluated.
#include <catch2/catch.hpp>

#include "rtl_models/core/checked.h"

using namespace wormcast;

TEST_CASE("WORMCAST_INVARIANT: a failure names the invariant in a checked build, nothing is evaluated otherwise") {
  int evaluated = 0;
  const auto holds = [&](bool v) {
    ++evaluated;
    return v;
  };
  const auto check = [&](bool v) { WORMCAST_INVARIANT("net.router3", 4, holds(v), "out3.vc1 given twice"); };
  if (rtl::kCheckedBuild) {
    CHECK_NOTHROW(check(true));
    CHECK_THROWS_AS(check(false), rtl::InvariantViolation);
    CHECK_THROWS_WITH(check(false), "net.router3: invariant 4 (holds(v)) violated: out3.vc1 given twice");
    CHECK(evaluated == 3);
  } else {
    check(false);
    CHECK(evaluated == 0);
  }
}
