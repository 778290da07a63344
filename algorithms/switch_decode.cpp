#include "algorithms/switch_decode.h"

#include <stdexcept>
#include <string>

namespace wormcast::algo {

using topo::PeerKind;
using topo::PortId;
using topo::SwitchId;

std::vector<PortId> ports_toward_switch(const topo::Topology& t, const topo::UpDownRouting& r, SwitchId s,
                                        topo::Phase ph, SwitchId dst_sw) {
  std::vector<PortId> out;
  const int here = r.distance(s, ph, dst_sw);
  if (s == dst_sw || here < 0) return out;
  for (PortId p = 0; p < t.ports_per_switch; ++p) {
    const topo::PortPeer& pp = t.peer(s, p);
    if (pp.kind != PeerKind::switch_port) continue;
    const bool up = r.is_up_port(s, p);
    if (up && ph == topo::Phase::down_only) continue;   // never up after down
    const topo::Phase next = up ? topo::Phase::may_go_up : topo::Phase::down_only;
    if (r.distance(pp.id, next, dst_sw) == here - 1) out.push_back(p);
  }
  return out;
}

namespace {

bool matches(const topo::Topology& t, SwitchId s, int id, SsrId kind) {
  if (kind == SsrId::switch_id) return id == s;
  return id >= 0 && id < t.num_nodes() && t.node_attach[id].sw == s;
}

PortId route_on(const topo::Topology& t, const topo::UpDownRouting& r, SwitchId s, topo::Phase ph, int id,
                SsrId kind, const PortPicker& pick) {
  const std::vector<PortId> ports = kind == SsrId::switch_id ? ports_toward_switch(t, r, s, ph, id)
                                                             : r.ports(s, ph, id);
  if (ports.empty())
    throw std::invalid_argument("switch " + std::to_string(s) + ": no legal route toward " +
                                (kind == SsrId::switch_id ? "switch " : "node ") + std::to_string(id));
  const std::size_t i = pick(ports);
  if (i >= ports.size()) throw std::logic_error("switch decode: port picker chose outside the legal ports");
  return ports[i];
}

void deliver_marked(const topo::Topology& t, SwitchId s, const DropPair& p, DropAction& a) {
  for (PortId q = 0; q < static_cast<PortId>(p.port_bits.size()); ++q) {
    if (!p.port_bits[q]) continue;
    if (t.peer(s, q).kind != PeerKind::node)
      throw std::invalid_argument("switch " + std::to_string(s) + ": port string marks port " + std::to_string(q) +
                                  ", which has no processor");
    a.deliver.push_back(q);
  }
}

}  // namespace

DropAction decode_ssr_at_switch(const topo::Topology& t, const topo::UpDownRouting& r, SwitchId s,
                                topo::Phase arrival, const Bits& header, SsrId kind, std::size_t choice) {
  return decode_ssr_at_switch(t, r, s, arrival, header, kind,
                              [choice](const std::vector<PortId>& v) { return choice % v.size(); });
}

DropAction decode_ssr_at_switch(const topo::Topology& t, const topo::UpDownRouting& r, SwitchId s,
                                topo::Phase arrival, const Bits& header, SsrId kind, const PortPicker& pick) {
  const HeaderGeometry g = HeaderGeometry::of(t);
  const DropPair p = decode_ssr(g, header, kind);
  DropAction a;
  if (matches(t, s, p.id, kind)) {
    deliver_marked(t, s, p, a);
  } else {
    a.forward = route_on(t, r, s, arrival, p.id, kind, pick);
    a.forward_header = header;
  }
  return a;
}

DropAction decode_multidrop_at_switch(const topo::Topology& t, const topo::UpDownRouting& r, SwitchId s,
                                      topo::Phase arrival, const Bits& header, SsrId kind, std::size_t choice) {
  return decode_multidrop_at_switch(t, r, s, arrival, header, kind,
                                    [choice](const std::vector<PortId>& v) { return choice % v.size(); });
}

DropAction decode_multidrop_at_switch(const topo::Topology& t, const topo::UpDownRouting& r, SwitchId s,
                                      topo::Phase arrival, const Bits& header, SsrId kind, const PortPicker& pick) {
  const HeaderGeometry g = HeaderGeometry::of(t);
  DropAction a;
  Bits h = header;
  // Consecutive pairs naming this switch are all consumed here.
  while (!h.empty()) {
    ConsumedPair c = consume_pair(g, h, kind);
    if (!matches(t, s, c.pair.id, kind)) {
      a.forward = route_on(t, r, s, arrival, c.pair.id, kind, pick);
      a.forward_header = std::move(h);
      return a;
    }
    deliver_marked(t, s, c.pair, a);
    h = std::move(c.rest);
  }
  return a;
}

PathWorm run_multidrop_worm(const topo::Topology& t, const topo::UpDownRouting& r, topo::NodeId sender,
                            const Bits& header, SsrId kind, std::size_t choice) {
  if (sender < 0 || sender >= t.num_nodes())
    throw std::invalid_argument("multi-drop worm: sender " + std::to_string(sender) + " is not a node");
  PathWorm w;
  w.sender = sender;
  SwitchId s = t.node_attach[sender].sw;
  topo::Phase ph = topo::Phase::may_go_up;
  Bits h = header;
  w.path.push_back(s);
  for (std::size_t hop = 0;; ++hop) {
    if (hop > static_cast<std::size_t>(t.num_switches()) * 2 * (t.num_switches() + 1))
      throw std::logic_error("multi-drop worm: route does not end");
    DropAction a = decode_multidrop_at_switch(t, r, s, ph, h, kind, choice + hop);
    for (PortId q : a.deliver) w.destinations.push_back(t.peer(s, q).id);
    if (a.forward < 0) return w;
    const topo::PortPeer& pp = t.peer(s, a.forward);
    w.out_ports.push_back(a.forward);
    s = pp.id;
    ph = r.arrival_phase(s, pp.port);
    w.path.push_back(s);
    h = std::move(a.forward_header);
  }
}

}  // namespace wormcast::algo
