#include "rtl_models/node/traffic.h"

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
  if (const std::string why = pattern_problem(p_, nodes_); !why.empty()) throw std::invalid_argument(why);
  bernoulli_ = p_.process == "bernoulli";
  log_miss_ = std::log1p(-rate_);
  // Every other name than uniform and hotspot takes fixed_destination(); the
  // names are compared once, here, not per packet.
  pattern_ = p_.pattern == "uniform" ? Pattern::uniform : p_.pattern == "hotspot" ? Pattern::hotspot : Pattern::fixed;
  if (pattern_ == Pattern::fixed) fixed_dest_ = fixed_destination();
  if ((p_.pattern == "transpose" || p_.pattern == "bit_complement") && fixed_dest_ == self_) return;
  clock_ = static_cast<double>(start);
  // The first Bernoulli trial is the cycle `start` itself.
  next_ = start + gap() - (bernoulli_ ? 1 : 0);
}

Cycle SyntheticSource::gap() {
  if (bernoulli_) {
    // Trials until the next success of a Bernoulli(rate) trial per cycle
    // (geometric, support 1..inf).
    const double u = 1.0 - rng_.uniform();   // (0, 1]
    if (rate_ >= 1.0) return 1;
    return static_cast<Cycle>(std::floor(std::log(u) / log_miss_)) + 1;
  }
  // Poisson: exponential gaps in continuous time, packet created at the
  // cycle in which it arrives (several may share a cycle).
  const double u = 1.0 - rng_.uniform();
  const double before = clock_;
  clock_ += -std::log(u) / rate_;
  return static_cast<Cycle>(std::floor(clock_)) - static_cast<Cycle>(std::floor(before));
}

std::string pattern_problem(const TrafficParams& p, int num_nodes, const std::string& section) {
  if (p.pattern == "transpose") {
    const int m = static_cast<int>(std::lround(std::sqrt(static_cast<double>(num_nodes))));
    if (m * m != num_nodes)
      return section + ".pattern transpose needs a square number of nodes (k x k, or a hypercube of even dimension); "
             "the network has " + std::to_string(num_nodes);
  }
  if (p.pattern == "hotspot" && p.hotspot_node >= num_nodes)
    return section + ".hotspot_node " + std::to_string(p.hotspot_node) + " is not a node (the network has " +
           std::to_string(num_nodes) + " nodes, 0.." + std::to_string(num_nodes - 1) + ")";
  return {};
}

NodeId SyntheticSource::uniform_destination() {
  // Uniform over the other nodes.
  NodeId d = static_cast<NodeId>(rng_.below(static_cast<std::uint64_t>(nodes_ - 1)));
  if (d >= self_) ++d;
  return d;
}

NodeId SyntheticSource::fixed_destination() const {
  if (p_.pattern == "bit_complement") return nodes_ - 1 - self_;
  const int m = static_cast<int>(std::lround(std::sqrt(static_cast<double>(nodes_))));
  return (self_ % m) * m + self_ / m;
}

UnicastShape SyntheticSource::generate_unicast() {
  NodeId d;
  switch (pattern_) {
    case Pattern::uniform: d = uniform_destination(); break;
    case Pattern::hotspot:
      d = self_ != p_.hotspot_node && rng_.uniform() < p_.hotspot_fraction ? p_.hotspot_node : uniform_destination();
      break;
    default: d = fixed_dest_; break;
  }
  next_ += gap();
  return {d, p_.packet_size, p_.header_flits};
}

void SyntheticSource::generate(Packet& p) {
  const UnicastShape s = generate_unicast();
  p.header.kind = HeaderKind::unicast;
  p.header.dest = s.dest;
  p.length = s.length;
  p.header_flits = s.header_flits;
}

}  // namespace wormcast::rtl
