#include "rtl_models/link_interface.h"

namespace wormcast::rtl {

std::string PacketInjector::describe() const {
  std::string s = std::to_string(queued()) + " packets queued";
  if (current_)
    s += ", injecting packet " + std::to_string(current_->id) + " (" + std::to_string(next_flit_) + "/" +
         std::to_string(current_->length) + " flits sent)";
  return s;
}

void PacketAssembler::out_of_order(const Flit& f, bool head_inside) const {
  if (head_inside)
    throw InvariantViolation(owner_ + ": head of packet " + std::to_string(f.pkt->id) + " arrived inside packet " +
                             std::to_string(pkt_->id));
  throw InvariantViolation(owner_ + ": flit " + std::to_string(f.index) + " of packet " +
                           std::to_string(f.pkt->id) + " arrived out of order");
}

std::string PacketAssembler::describe() const {
  return pkt_ ? "receiving packet " + std::to_string(pkt_->id) + " (" + std::to_string(next_) + " flits in)" : "";
}

}  // namespace wormcast::rtl
