// What an InfiniBand sender injects (seed003, node.model endpoint: the HCA
// sends and receives one flit per cycle), shared by the ib_multicast
// workload and the embedding service (embed/multicast.h): a message split
// into packets, and where a multicast table takes a sender's packet.
#pragma once

#include <algorithm>
#include <vector>

#include "algorithms/ib_multicast.h"
#include "rtl_models/core/packet.h"
#include "topologies/fat_tree.h"

namespace wormcast::tb {

// How messages become packets.
struct IbPacketFormat {
  int header_flits = 1;   // per packet (the paper counts none; the model needs one)
  int flit_bytes = 1;     // a packet of b payload bytes has ceil(b / flit_bytes) payload flits
  int mtu = 0;            // 0: a message is one packet; > 0: packets of at most mtu payload bytes

  int packets(int bytes) const { return mtu > 0 ? (bytes + mtu - 1) / mtu : 1; }
  int payload(int bytes, int index) const { return mtu > 0 ? std::min(mtu, bytes - index * mtu) : bytes; }
  // Flits of a packet carrying `payload_bytes`, its header included.
  int flits(int payload_bytes) const { return header_flits + (payload_bytes + flit_bytes - 1) / flit_bytes; }
  // Packet `index` of a message of `bytes` with header h, measured.
  rtl::PacketPtr packet(const rtl::PacketHeader& h, int bytes, int index) const;
};

// The header of a multicast packet through table `mlid`, reaching `reach`.
rtl::PacketHeader ib_multicast_header(int mlid, std::vector<rtl::NodeId> reach);
// The header of a unicast packet from src to dest with its cyclic DLID
// (seed003 §9).
rtl::PacketHeader ib_unicast_header(const topo::FatTree& t, rtl::NodeId src, rtl::NodeId dest);

// The nodes a packet of src reaches through mft, sorted; std::logic_error
// when the table delivers a node more than one copy. Adds the links its
// copies cross to `links`.
std::vector<rtl::NodeId> ib_reach(const topo::FatTree& t, rtl::NodeId src, const algo::Mft& mft, double& links);

// std::logic_error unless reach is exactly group without the sender.
void check_ib_reach(const topo::FatTree& t, rtl::NodeId sender, std::vector<rtl::NodeId> group,
                    const std::vector<rtl::NodeId>& reach);

}  // namespace wormcast::tb
