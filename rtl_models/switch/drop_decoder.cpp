#include "rtl_models/switch/drop_decoder.h"

#include <algorithm>
#include <stdexcept>

#include "algorithms/switch_decode.h"
#include "rtl_models/core/worm_packet.h"

namespace wormcast::rtl {

algo::SsrId parse_drop_id(const std::string& s) {
  if (s == "switch_id") return algo::SsrId::switch_id;
  if (s == "node_id") return algo::SsrId::node_id;
  throw std::invalid_argument("switch.drop_id: unknown ID variant '" + s + "' (switch_id, node_id)");
}

DropDecoder::DropDecoder(sc_core::sc_module_name name, const DecoderSetup& s)
    : Decoder(name), sw_(s.switch_id), t_(s.topology), r_(s.routing), kind_(parse_drop_id(s.drop_id)),
      chooser_(s.selection, s.rng) {
  if (!t_ || !r_) throw std::logic_error(std::string(this->name()) + ": needs the topology and routing");
}

void DropDecoder::decode(const PacketPtr& pkt, int in_port, const OutputPortState& ports,
                         std::vector<Branch>& out) {
  if (pkt->header.kind == HeaderKind::unicast) {
    out.push_back(Branch{unicast_port(*r_, sw_, in_port, *pkt, chooser_, ports, name()), pkt, 0, false});
    return;
  }
  const WormEncoding enc = pkt->header.worm;
  if ((enc != WormEncoding::ssr && enc != WormEncoding::multidrop) || !pkt->header.worm_bits)
    throw std::runtime_error(std::string(name()) + ": SSR / multi-drop decoder got packet " + std::to_string(pkt->id) +
                             " with a " + worm_encoding_name(enc) + " header");
  try {
    decode_worm(pkt, in_port, ports, out);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string(name()) + ": packet " + std::to_string(pkt->id) + ": " + e.what());
  }
}

void DropDecoder::decode_worm(const PacketPtr& pkt, int in_port, const OutputPortState& ports,
                              std::vector<Branch>& out) {
  const algo::Bits& bits = *pkt->header.worm_bits;
  const topo::Phase arrival = r_->arrival_phase(sw_, in_port);
  const algo::PortPicker pick = [&](const std::vector<topo::PortId>& v) { return chooser_.choose(v, ports); };
  const algo::DropAction a = pkt->header.worm == WormEncoding::ssr
                                 ? algo::decode_ssr_at_switch(*t_, *r_, sw_, arrival, bits, kind_, pick)
                                 : algo::decode_multidrop_at_switch(*t_, *r_, sw_, arrival, bits, kind_, pick);
  std::vector<NodeId> rest = pkt->header.dests;
  for (topo::PortId q : a.deliver) {
    out.push_back(Branch{q, pkt, 0, false});
    rest.erase(std::remove(rest.begin(), rest.end(), t_->peer(sw_, q).id), rest.end());
  }
  if (a.forward < 0) return;
  if (a.forward_header == bits && a.deliver.empty()) {
    out.push_back(Branch{a.forward, pkt, 0, false});
  } else {
    out.push_back(Branch{a.forward, branch_copy(*pkt, a.forward_header, std::move(rest)), 0, false});
  }
}

}  // namespace wormcast::rtl
