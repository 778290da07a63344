// What a statistic or a user's model attached to a direct network's router
// sees (DirectRouter::attach_probe): every flit that leaves it, with its
// output channel (the router's channel numbering: external port p's VC v
// is p * vcs + v, then the internal channels) and cycle. Both router
// implementations report the same flits at the same cycles.
#pragma once

#include "rtl_models/core/clock.h"
#include "rtl_models/core/packet.h"

namespace wormcast::rtl {

class RouterProbe {
 public:
  virtual ~RouterProbe() = default;
  virtual void flit_sent(int out_channel, const Flit& f, Cycle cycle) = 0;
};

}  // namespace wormcast::rtl
