#include "rtl_models/switch/reachability_decoder.h"

#include <stdexcept>

#include "rtl_models/core/worm_packet.h"

namespace wormcast::rtl {

ReachabilityDecoder::ReachabilityDecoder(sc_core::sc_module_name name, const DecoderSetup& s)
    : Decoder(name), sw_(s.switch_id), t_(s.topology), r_(s.routing), chooser_(s.selection, s.rng) {
  if (!t_ || !r_ || !s.shared) throw std::logic_error(std::string(this->name()) + ": needs the topology and routing");
  auto t = t_;
  auto r = r_;
  tables_ = s.shared->get<algo::ReachabilityTables>("reachability", [t, r] {
    return std::make_shared<const algo::ReachabilityTables>(algo::compute_reachability(*t, *r));
  });
  g_ = algo::HeaderGeometry::of(*t_);
}

void ReachabilityDecoder::decode(const PacketPtr& pkt, int in_port, const OutputPortState& ports,
                                 std::vector<Branch>& out) {
  if (pkt->header.kind == HeaderKind::unicast) {
    out.push_back(Branch{unicast_port(*r_, sw_, in_port, *pkt, chooser_, ports, name()), pkt, 0, false});
    return;
  }
  if (pkt->header.worm != WormEncoding::tree || !pkt->header.worm_bits)
    throw std::runtime_error(std::string(name()) + ": reachability decoder got packet " + std::to_string(pkt->id) +
                             " with a " + worm_encoding_name(pkt->header.worm) + " header");
  try {
    decode_worm(pkt, in_port, ports, out);
  } catch (const std::invalid_argument& e) {
    throw std::runtime_error(std::string(name()) + ": packet " + std::to_string(pkt->id) + ": " + e.what());
  }
}

void ReachabilityDecoder::decode_worm(const PacketPtr& pkt, int in_port, const OutputPortState& ports,
                                      std::vector<Branch>& out) {
  const algo::TreeHeader h = algo::decode_tree(g_, *pkt->header.worm_bits);
  const algo::SwitchReach& sw = tables_->at(sw_);
  const topo::Phase arrival = r_->arrival_phase(sw_, in_port);
  // Ask the port selection only when the worm will go up (keeps round-robin
  // counters to the decisions they make).
  std::size_t up_index = 0;
  if (h.up_down && !sw.up_ports.empty() && !h.dests.subset_of(sw.total))
    up_index = chooser_.choose(sw.up_ports, ports);
  for (algo::TreeBranch& b : algo::decode_tree_worm(sw, arrival, h.up_down, h.dests, up_index)) {
    if (b.up_down == h.up_down && b.dests == h.dests) {
      out.push_back(Branch{b.port, pkt, 0, false});
    } else {
      algo::Bits bits = algo::encode_tree(g_, b.up_down, b.dests);
      out.push_back(Branch{b.port, branch_copy(*pkt, std::move(bits), b.dests.to_nodes()), 0, false});
    }
  }
}

}  // namespace wormcast::rtl

#include "rtl_models/switch/drop_decoder.h"

namespace wormcast::rtl {

MulticastDecoder::MulticastDecoder(sc_core::sc_module_name name, const DecoderSetup& s) : Decoder(name) {
  // Each child gets its own random sub-stream of the switch's.
  DecoderSetup d = s;
  d.rng = s.rng.fork(1);
  drop_ = std::make_unique<DropDecoder>("drop", d);
  d.rng = s.rng.fork(2);
  reach_ = std::make_unique<ReachabilityDecoder>("reach", d);
}

MulticastDecoder::~MulticastDecoder() = default;

void MulticastDecoder::decode(const PacketPtr& pkt, int in_port, const OutputPortState& ports,
                              std::vector<Branch>& out) {
  if (pkt->header.worm == WormEncoding::tree) return reach_->decode(pkt, in_port, ports, out);
  drop_->decode(pkt, in_port, ports, out);   // SSR, multi-drop and unicast
}

}  // namespace wormcast::rtl
