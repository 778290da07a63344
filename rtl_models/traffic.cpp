#include "rtl_models/traffic.h"

#include <cmath>
#include <stdexcept>

namespace wormcast::rtl {

SyntheticSource::SyntheticSource(const TrafficParams& p, NodeId self, int num_nodes, Rng rng,
                                 Cycle start)
    : p_(p), self_(self), nodes_(num_nodes), rng_(rng),
      rate_(p.load / static_cast<double>(p.packet_size)) {
  if (p.header_flits > p.packet_size)
    throw std::invalid_argument("traffic.header_flits (" + std::to_string(p.header_flits) +
                                ") exceeds traffic.packet_size (" + std::to_string(p.packet_size) + ")");
  if (rate_ > 1.0) throw std::invalid_argument("traffic.load exceeds one packet per cycle");
  if (nodes_ < 2 || rate_ <= 0.0) return;   // nothing to send / nobody to send to
  clock_ = static_cast<double>(start);
  // The first Bernoulli trial is the cycle `start` itself.
  next_ = start + gap() - (p_.process == "bernoulli" ? 1 : 0);
}

Cycle SyntheticSource::gap() {
  if (p_.process == "bernoulli") {
    // Trials until the next success of a Bernoulli(rate) trial per cycle
    // (geometric, support 1..inf).
    const double u = 1.0 - rng_.uniform();   // (0, 1]
    if (rate_ >= 1.0) return 1;
    return static_cast<Cycle>(std::floor(std::log(u) / std::log1p(-rate_))) + 1;
  }
  // Poisson: exponential gaps in continuous time, packet created at the
  // cycle in which it arrives (several may share a cycle).
  const double u = 1.0 - rng_.uniform();
  const double before = clock_;
  clock_ += -std::log(u) / rate_;
  return static_cast<Cycle>(std::floor(clock_)) - static_cast<Cycle>(std::floor(before));
}

void SyntheticSource::generate(Packet& p) {
  // Uniform over the other nodes.
  NodeId d = static_cast<NodeId>(rng_.below(static_cast<std::uint64_t>(nodes_ - 1)));
  if (d >= self_) ++d;
  p.header.kind = HeaderKind::unicast;
  p.header.dest = d;
  p.length = p_.packet_size;
  p.header_flits = p_.header_flits;
  next_ += gap();
}

}  // namespace wormcast::rtl
