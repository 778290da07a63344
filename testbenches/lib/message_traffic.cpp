#include "testbenches/lib/message_traffic.h"

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
                                             int nodes, Rng rng)
    : bytes_(message_bytes), source_(as_messages(p, message_bytes), self, nodes, rng) {}

void MessageTrafficProgram::operator()(rtl::HostApi& host) {
  for (;;) {
    if (host.message_waiting()) {
      host.receive();
      continue;
    }
    const Cycle next = source_.next_time() < stop_ ? source_.next_time() : UINT64_MAX;
    if (next <= host.now()) {
      rtl::NodeId dest;
      {   // nothing owning may stay on this thread's stack across send()'s wait (rtl_models/kernel.h)
        rtl::Packet m;
        source_.generate(m);
        dest = m.header.dest;
      }
      host.send(dest, bytes_);
      continue;
    }
    host.wait_for_message(next);
  }
}

}  // namespace wormcast::tb
