// Synthetic messaging software for the node model: each host runs one
// program that creates messages (uniform random destinations, Bernoulli or
// Poisson arrivals at traffic.load flits/cycle/node of message data) and
// receives every message addressed to it. Sending (t_hs) and receiving (t_hr)
// share the host CPU, so a busy receiver delays its own sends: a message's
// latency (messages.latency_cycles) is measured from its send call, and the
// wait before it, from the message's arrival to its send call, is recorded
// separately (messages.source_wait_cycles) for the messages whose send call
// falls in the measurement window, the same messages the latency counts.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <memory>
#include <vector>

#include "rtl_models/node/host_processor.h"
#include "rtl_models/core/sim_context.h"
#include "rtl_models/node/traffic.h"

namespace wormcast::tb {

class MessageTrafficProgram {
 public:
  // At most `queue_limit` messages may wait for the CPU; beyond that the
  // program stops creating messages and overflowed() is true.
  MessageTrafficProgram(const rtl::TrafficParams& p, int message_bytes, rtl::NodeId self, int nodes, Rng rng,
                        std::size_t queue_limit = SIZE_MAX);
  void operator()(rtl::HostApi& host);
  // Stop creating messages from this cycle on (receiving goes on).
  void stop_at(Cycle c) { stop_ = std::min(stop_, c); }   // never later than a stop set (an overflow's is for good)
  // Messages whose arrival time has come but that the host has not sent yet.
  std::size_t backlog() const { return backlog_.size(); }
  // Cycle of the next arrival not yet created (UINT64_MAX: none).
  Cycle next_arrival() const { return source_.next_time() < stop_ ? source_.next_time() : UINT64_MAX; }
  bool overflowed() const { return overflowed_; }
  // Messages arrived and waiting for the CPU (as of the program's last step).
  std::size_t waiting() const { return backlog_.size(); }
  // Record arrival -> send call of the sends inside `window` into `waits`
  // (shared by every node's program; both outlive the program's runs).
  void record_waits(const rtl::MeasureWindow* window, rtl::WindowedSamples* waits) {
    window_ = window;
    waits_ = waits;
  }
  // Is an arrival from before cycle t still unsent (queued or not yet created)?
  bool unsent_arrival_before(Cycle t) const {
    return (!backlog_.empty() && backlog_.front().first < t) || next_arrival() < t;
  }

 private:
  void create_due(Cycle now);
  int bytes_;
  rtl::SyntheticSource source_;
  Cycle stop_ = UINT64_MAX;
  std::size_t limit_;
  std::deque<std::pair<Cycle, rtl::NodeId>> backlog_;   // (arrival, destination) of created, unsent messages
  bool overflowed_ = false;
  const rtl::MeasureWindow* window_ = nullptr;
  rtl::WindowedSamples* waits_ = nullptr;
};

}  // namespace wormcast::tb
