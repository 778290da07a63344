#include "rtl_models/switch/updown_decoder.h"

#include <stdexcept>

namespace wormcast::rtl {

UpDownDecoder::UpDownDecoder(sc_core::sc_module_name name, int switch_id,
                             std::shared_ptr<const topo::UpDownRouting> routing,
                             PortSelection sel, Rng rng)
    : Decoder(name), sw_(switch_id), routing_(std::move(routing)), chooser_(sel, rng) {}

void UpDownDecoder::decode(const PacketPtr& pkt, int in_port, const OutputPortState& ports,
                           std::vector<Branch>& out) {
  if (pkt->header.kind != HeaderKind::unicast)
    throw std::runtime_error(std::string(name()) + ": up*/down* unicast decoder got a multicast header (packet " +
                             std::to_string(pkt->id) + ")");
  const auto& legal = routing_->ports(sw_, arrival_phase(in_port), pkt->header.dest);
  if (legal.empty())
    throw std::runtime_error(std::string(name()) + ": no legal up*/down* route to node " +
                             std::to_string(pkt->header.dest) + " from input port " + std::to_string(in_port));
  const int chosen = legal[chooser_.choose(legal, ports)];
  out.push_back(Branch{chosen, pkt, 0, false});
}

topo::Phase UpDownDecoder::arrival_phase(int in_port) {
  const auto p = static_cast<std::size_t>(in_port);
  if (in_port >= 0 && p < phase_.size() && phase_[p] >= 0) return static_cast<topo::Phase>(phase_[p]);
  const topo::Phase ph = routing_->arrival_phase(sw_, in_port);   // throws for a port out of range
  if (p >= phase_.size()) phase_.resize(p + 1, -1);
  phase_[p] = static_cast<std::int8_t>(ph);
  return ph;
}

}  // namespace wormcast::rtl
