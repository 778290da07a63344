// Synthetic messaging software for the node model: each host runs one
// program that creates messages (uniform random destinations, Bernoulli or
// Poisson arrivals at traffic.load flits/cycle/node of message data) and
// receives every message addressed to it. Sending (t_hs) and receiving (t_hr)
// share the host CPU, so a busy receiver delays its own sends: a message's
// latency is measured from its send call.
#pragma once

#include <memory>

#include "rtl_models/host_processor.h"
#include "rtl_models/traffic.h"

namespace wormcast::tb {

class MessageTrafficProgram {
 public:
  MessageTrafficProgram(const rtl::TrafficParams& p, int message_bytes, rtl::NodeId self, int nodes, Rng rng);
  void operator()(rtl::HostApi& host);
  // Stop creating messages from this cycle on (receiving goes on).
  void stop_at(Cycle c) { stop_ = c; }

 private:
  int bytes_;
  rtl::SyntheticSource source_;
  Cycle stop_ = UINT64_MAX;
};

}  // namespace wormcast::tb
