#include "rtl_models/updown_decoder.h"

#include <stdexcept>

namespace wormcast::rtl {

UpDownDecoder::UpDownDecoder(sc_core::sc_module_name name, int switch_id,
                             std::shared_ptr<const topo::UpDownRouting> routing,
                             PortSelection sel, Rng rng)
    : Decoder(name), sw_(switch_id), routing_(std::move(routing)), sel_(sel), rng_(rng) {}

void UpDownDecoder::decode(const PacketPtr& pkt, int in_port, const OutputPortState& ports,
                           std::vector<Branch>& out) {
  if (pkt->header.kind != HeaderKind::unicast)
    throw std::runtime_error(std::string(name()) + ": up*/down* unicast decoder got a multicast header (packet " +
                             std::to_string(pkt->id) + ")");
  const auto& legal = routing_->ports(sw_, routing_->arrival_phase(sw_, in_port), pkt->header.dest);
  if (legal.empty())
    throw std::runtime_error(std::string(name()) + ": no legal up*/down* route to node " +
                             std::to_string(pkt->header.dest) + " from input port " + std::to_string(in_port));
  int chosen = legal.front();
  if (legal.size() > 1) {
    switch (sel_) {
      case PortSelection::deterministic: break;
      case PortSelection::round_robin: chosen = legal[rr_++ % legal.size()]; break;
      case PortSelection::random: chosen = legal[rng_.below(legal.size())]; break;
      case PortSelection::adaptive: {
        int best = -1;
        for (int p : legal) {
          const int score = (ports.busy(p) ? 0 : 1 << 30) + ports.free_credits(p);
          if (score > best) { best = score; chosen = p; }
        }
        break;
      }
    }
  }
  out.push_back(Branch{chosen, pkt, 0, false});
}

}  // namespace wormcast::rtl
