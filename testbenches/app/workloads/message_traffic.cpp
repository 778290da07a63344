#include "testbenches/app/workloads/message_traffic.h"

namespace wormcast::tb {

namespace {
rtl::TrafficParams as_messages(rtl::TrafficParams p, int bytes) {
  // The packet source draws one "packet" per message: its size sets the rate.
  p.packet_size = bytes;
  p.header_flits = 1;
  return p;
}
}  // namespace

MessageTrafficProgram::MessageTrafficProgram(const rtl::TrafficParams& p, int message_bytes, rtl::NodeId self,
                                             int nodes, Rng rng, std::size_t queue_limit)
    : bytes_(message_bytes), source_(as_messages(p, message_bytes), self, nodes, rng), limit_(queue_limit) {}

// Arrivals of the process up to now join the backlog in order (the same
// draws in the same order as sending each one at once).
void MessageTrafficProgram::create_due(Cycle now) {
  while (next_arrival() <= now) {
    if (backlog_.size() >= limit_) {
      overflowed_ = true;
      stop_ = now;
      return;
    }
    const Cycle at = next_arrival();
    rtl::Packet m;
    source_.generate(m);
    backlog_.emplace_back(at, m.header.dest);
  }
}

void MessageTrafficProgram::operator()(rtl::HostApi& host) {
  for (;;) {
    create_due(host.now());
    if (host.message_waiting()) {
      host.receive();
      continue;
    }
    if (!backlog_.empty()) {
      const auto [arrival, dest] = backlog_.front();
      backlog_.pop_front();
      const Cycle now = host.now();
      if (waits_) waits_->add(*window_, now, static_cast<std::uint32_t>(now - arrival));
      host.send(dest, bytes_);
      continue;
    }
    host.wait_for_message(next_arrival());
  }
}

}  // namespace wormcast::tb
