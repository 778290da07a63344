#include "rtl_models/core/worm_packet.h"

#include <algorithm>
#include <stdexcept>

#include "algorithms/multicast_set.h"
#include "algorithms/multiphase.h"
#include "rtl_models/switch/decoder.h"

namespace wormcast::rtl {

int worm_header_flits(std::size_t bits) { return algo::header_flits(static_cast<int>(bits), 8); }

PacketPtr make_worm(WormEncoding enc, algo::Bits bits, std::vector<NodeId> dests, int payload_flits) {
  if (bits.empty()) throw std::invalid_argument("worm: empty header");
  if (dests.empty()) throw std::invalid_argument("worm: empty destination set");
  if (payload_flits < 0) throw std::invalid_argument("worm: negative payload");
  auto p = std::make_shared<Packet>();
  p->header.kind = HeaderKind::multicast;
  p->header.worm = enc;
  p->header_flits = worm_header_flits(bits.size());
  p->length = p->header_flits + payload_flits;
  p->header.worm_bits = std::make_shared<const std::vector<bool>>(std::move(bits));
  std::sort(dests.begin(), dests.end());
  p->header.dests = std::move(dests);
  return p;
}

PacketPtr branch_copy(const Packet& received, algo::Bits bits, std::vector<NodeId> dests) {
  auto p = std::make_shared<Packet>(received);
  p->header_flits = worm_header_flits(bits.size());
  p->length = received.length - received.header_flits + p->header_flits;
  p->header.worm_bits = std::make_shared<const std::vector<bool>>(std::move(bits));
  p->header.dests = std::move(dests);
  return p;
}

int unicast_port(const topo::UpDownRouting& r, int sw, int in_port, const Packet& pkt, PortChooser& chooser,
                 const OutputPortState& ports, const std::string& who) {
  const auto& legal = r.ports(sw, r.arrival_phase(sw, in_port), pkt.header.dest);
  if (legal.empty())
    throw std::runtime_error(who + ": no legal up*/down* route to node " + std::to_string(pkt.header.dest) +
                             " from input port " + std::to_string(in_port));
  return legal[chooser.choose(legal, ports)];
}

const char* worm_encoding_name(WormEncoding e) {
  switch (e) {
    case WormEncoding::none: return "none";
    case WormEncoding::ssr: return "ssr";
    case WormEncoding::multidrop: return "multidrop";
    case WormEncoding::tree: return "tree";
  }
  return "?";
}

}  // namespace wormcast::rtl
