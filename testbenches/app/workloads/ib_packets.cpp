#include "testbenches/app/workloads/ib_packets.h"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace wormcast::tb {

rtl::PacketPtr IbPacketFormat::packet(const rtl::PacketHeader& h, int bytes, int index) const {
  auto p = std::make_shared<rtl::Packet>();
  p->header = h;
  p->header_flits = header_flits;
  p->payload_bytes = payload(bytes, index);
  p->length = flits(p->payload_bytes);
  p->msg_index = index;
  p->msg_packets = packets(bytes);
  p->msg_bytes = bytes;
  p->measured = true;
  return p;
}

rtl::PacketHeader ib_multicast_header(int mlid, std::vector<rtl::NodeId> reach) {
  rtl::PacketHeader h;
  h.kind = rtl::HeaderKind::multicast;
  h.lid = static_cast<std::uint16_t>(mlid);
  h.dests = std::move(reach);
  return h;
}

rtl::PacketHeader ib_unicast_header(const topo::FatTree& t, rtl::NodeId src, rtl::NodeId dest) {
  rtl::PacketHeader h;
  h.dest = dest;
  h.lid = static_cast<std::uint16_t>(algo::cyclic_dlid(t, src, dest));
  return h;
}

std::vector<rtl::NodeId> ib_reach(const topo::FatTree& t, rtl::NodeId src, const algo::Mft& mft, double& links) {
  const algo::MftDelivery d = algo::deliver_mft(t, src, mft);
  std::vector<rtl::NodeId> reach;
  for (int node = 0; node < t.num_nodes(); ++node) {
    const int c = d.received[static_cast<std::size_t>(node)];
    if (c > 1)
      throw std::logic_error("IB multicast table of " + t.node_name(src) + " delivers " + std::to_string(c) +
                             " copies to " + t.node_name(node));
    if (c == 1) reach.push_back(node);
  }
  links += d.link_traversals;
  return reach;
}

void check_ib_reach(const topo::FatTree& t, rtl::NodeId sender, std::vector<rtl::NodeId> group,
                    const std::vector<rtl::NodeId>& reach) {
  group.erase(std::remove(group.begin(), group.end(), sender), group.end());
  std::sort(group.begin(), group.end());
  if (reach != group)
    throw std::logic_error("multicast table of " + t.node_name(sender) + " does not reach exactly its group");
}

}  // namespace wormcast::tb
