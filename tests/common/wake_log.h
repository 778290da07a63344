// A link client for unit tests of links: records the cycle of every
// wake-up the link gives it (credit returns for a sender, flits for a
// receiver).
#pragma once

#include <vector>

#include "rtl_models/core/link.h"

namespace wormcast::test {

struct WakeLog final : rtl::LinkClient {
  std::vector<Cycle> at;
  void link_activity(Cycle c) override { at.push_back(c); }
};

}  // namespace wormcast::test
