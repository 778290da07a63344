#include "rtl_models/direct/vc_link.h"

#include <stdexcept>

namespace wormcast::rtl {

VcLink::VcLink(sc_core::sc_module_name name, const LinkParams& p, int vcs, std::uint32_t vc_mask, int initial_credits)
    : sc_core::sc_module(name), latency_(p.latency), vc_mask_(vc_mask), credit_delay_(p.credit_delay) {
  if (latency_ < 1 || credit_delay_ < 1)
    throw std::invalid_argument(std::string(basename()) + ": link latency and credit delay must be >= 1 cycle");
  if (vcs < 1 || vcs > 31 || vc_mask == 0 || (vc_mask >> vcs) != 0)
    throw std::invalid_argument(std::string(basename()) + ": " + std::to_string(vcs) +
                                " virtual channels with VC mask " + std::to_string(vc_mask) +
                                " (needs 1..31 VCs, at least one used, none beyond the count)");
  nvcs_ = vcs;
  for (int v = 0; v < vcs; ++v)
    if (uses_vc(v)) vcs_[static_cast<std::size_t>(v)].credits = initial_credits;
}

const VcLink::Lane& VcLink::lane_at(int vc) const {
  if (vc < 0 || vc >= nvcs_) throw std::out_of_range(std::string(name()) + ": no VC " + std::to_string(vc));
  return vcs_[static_cast<std::size_t>(vc)];
}

void VcLink::send_on_wire(int vc, Flit f, Cycle arrival) {
  if (f.tail()) tail_owners_.push_back(f.pkt);   // an owning reference (packet.h)
  // The receiver is told of the first flit on an empty wire only: with
  // flits in flight it has asked for the front one's arrival
  // (next_flit_arrival) and asks again after each pop, and arrivals are
  // in order, so telling it of a later one would change nothing.
  const bool first = flits_.empty();
  flits_.push_back({arrival, f, vc});
  if (first && rx_client_) rx_client_->link_activity(arrival);
}

void VcLink::fail(const char* what, int vc) const {
  throw std::logic_error(std::string(name()) + ": VC " + std::to_string(vc) + ": " + what);
}

}  // namespace wormcast::rtl
