// Packets and flits (seed000 §2.2, §5.3). A packet is one object shared by
// reference; a flit is (packet reference, index), so buffers and links hold
// packet references and counters rather than per-flit objects (DESIGN.md
// principle 3). The first `header_flits` flits carry the routing header; how
// many there are depends on the header encoding (1 for unicast; the multicast
// encodings — SSR port strings, multi-drop (ID, port-string) lists, N-bit
// destination strings — set their own count). A replicating switch gives each
// branch its own Packet copy when the branch's header differs (tree worms
// rewrite the destination string per branch), sharing `origin` ids.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rtl_models/params.h"

namespace wormcast::rtl {

using NodeId = int;
using PacketId = std::uint64_t;

enum class HeaderKind : std::uint8_t {
  unicast,      // one destination node
  multicast,    // destination set carried explicitly (encodings added by multicast issues)
};

struct PacketHeader {
  HeaderKind kind = HeaderKind::unicast;
  NodeId dest = -1;                 // unicast destination
  std::vector<NodeId> dests;        // multicast destination set (sorted)
};

struct Packet {
  PacketId id = 0;              // unique per physical copy in the run
  PacketId origin = 0;          // id of the packet as injected (copies share it)
  std::uint64_t message = 0;    // message this packet belongs to (0 = none)
  NodeId src = -1;
  int length = 1;               // total flits, header flits included
  int header_flits = 1;
  PacketHeader header;
  Cycle created = 0;            // cycle the packet was generated at its source
  Cycle injected = 0;           // cycle its head flit left the source
  bool measured = false;        // created inside the measurement window
  // Node model: position in its message and sender-side timestamps.
  int msg_index = 0, msg_packets = 1;
  int payload_bytes = 0;        // message bytes carried (1 flit = 1 byte)
  int msg_bytes = 0;            // length of the whole message
  Cycle dma_in_done = 0, ns_done = 0;   // at the sending NI
  Cycle arrived = 0, nr_done = 0;       // at the receiving NI
};

using PacketPtr = std::shared_ptr<Packet>;

struct Flit {
  PacketPtr pkt;
  int index = 0;                // 0 .. pkt->length-1
  bool head() const { return index == 0; }
  bool tail() const { return index == pkt->length - 1; }
  bool header() const { return index < pkt->header_flits; }
};

}  // namespace wormcast::rtl
