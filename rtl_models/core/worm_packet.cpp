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

SwitchScheme parse_switch_scheme(const std::string& s) {
  if (s == "tree") return SwitchScheme::tree;
  if (s == "path-lg") return SwitchScheme::path_lg;
  if (s == "path-greedy") return SwitchScheme::path_greedy;
  if (s == "ssr") return SwitchScheme::ssr;
  throw std::invalid_argument("unknown switch-based scheme '" + s + "' (tree, path-lg, path-greedy, ssr)");
}

const char* switch_scheme_name(SwitchScheme s) {
  switch (s) {
    case SwitchScheme::tree: return "tree";
    case SwitchScheme::path_lg: return "path-lg";
    case SwitchScheme::path_greedy: return "path-greedy";
    case SwitchScheme::ssr: return "ssr";
  }
  return "?";
}

const char* scheme_decoder(SwitchScheme s) { return s == SwitchScheme::tree ? "reachability" : "ssr"; }

WormSend encode_worm(const topo::Topology& t, SwitchScheme s, algo::SsrId id, const algo::RelayWorm& w, int bytes) {
  const algo::HeaderGeometry g = algo::HeaderGeometry::of(t);
  WormSend out;
  out.dests = w.destinations;
  out.bytes = bytes;
  if (s == SwitchScheme::tree) {
    out.encoding = WormEncoding::tree;
    out.header_bits = algo::encode_tree(g, true, algo::NodeBits::of(t.num_nodes(), w.destinations));
    return out;
  }
  const std::vector<algo::DropPair> pairs = algo::multidrop_pairs(t, w.destinations, id);
  if (s == SwitchScheme::ssr) {
    if (pairs.size() != 1) throw std::logic_error("SSR worm with destinations on several switches");
    out.encoding = WormEncoding::ssr;
    out.header_bits = algo::encode_ssr(g, pairs.front(), id);
  } else {
    out.encoding = WormEncoding::multidrop;
    out.header_bits = algo::encode_multidrop(g, pairs, id);
  }
  if (!w.tasks.empty()) out.relay_worm = std::make_shared<const algo::RelayWorm>(w);
  return out;
}

std::vector<WormSend> source_worms(const topo::Topology& t, const topo::UpDownRouting& r, SwitchScheme s,
                                   algo::SsrId id, NodeId source, const std::vector<NodeId>& dests, int bytes) {
  algo::check_multicast(t, source, dests);
  if (s == SwitchScheme::tree) return {encode_worm(t, s, id, algo::RelayWorm{dests, {}}, bytes)};
  const algo::Scheduler sched = s == SwitchScheme::path_greedy ? algo::Scheduler::greedy : algo::Scheduler::less_greedy;
  const algo::Schedule plan = s == SwitchScheme::ssr ? algo::plan_ssr(t, r, source, dests, sched)
                                                     : algo::plan_path_based(t, r, source, dests, sched);
  std::vector<WormSend> out;
  for (const algo::RelayWorm& w : algo::relay_plan(plan).worms) out.push_back(encode_worm(t, s, id, w, bytes));
  return out;
}

std::vector<WormSend> relay_worms(const topo::Topology& t, SwitchScheme s, algo::SsrId id,
                                  const algo::RelayWorm* got, NodeId me, int bytes) {
  std::vector<WormSend> out;
  if (!got || s == SwitchScheme::tree) return out;
  for (const algo::RelayWorm& w : algo::relay_sends(*got, me)) out.push_back(encode_worm(t, s, id, w, bytes));
  return out;
}

}  // namespace wormcast::rtl
