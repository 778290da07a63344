// Firmware of the NI coprocessor (seed000 §2.3–2.4, seed002 §2). The NI
// processor runs one firmware handler at a time; handlers act through the
// NiFirmwareApi, whose calls take the modelled time (t_ns per packet copy
// sent). Conventional firmware (this file) sends each outgoing packet to its
// destination and hands every received packet to the host; smart firmware
// (FCFS/FPFS forwarding, the multicast issues) plugs in through the same
// interface.
#pragma once

#include <memory>
#include <string>

#include "rtl_models/core/packet.h"
#include "rtl_models/core/registry.h"

namespace wormcast::rtl {

class NiFirmwareApi {
 public:
  virtual ~NiFirmwareApi() = default;
  virtual NodeId node() const = 0;
  // Send a copy of `pkt` carrying `header`, which the firmware supplies (a
  // unicast worm to header.dest, plus, for a relayed multicast, the child's
  // MulticastRelay): costs t_ns of NI processor time, then the copy joins the
  // link's injection queue. Throws std::logic_error for a header that is not
  // unicast or addresses this node.
  virtual void send_copy(const PacketPtr& pkt, const PacketHeader& header) = 0;
  // A plain unicast copy to `dest` (no relay information).
  void send_copy(const PacketPtr& pkt, NodeId dest) {
    PacketHeader h;
    h.dest = dest;
    send_copy(pkt, h);
  }
  // Start the DMA of a received packet into host memory (no processor time;
  // the receive DMA engine works in parallel).
  virtual void deliver_to_host(const PacketPtr& pkt) = 0;
  // Keep an NI-memory packet (received or in the send queue) beyond the
  // handler: it stays in NI memory (occupancy, and for a received packet its
  // receive-queue credits) until the firmware calls release_packet. Each
  // retain needs one release. Throws std::logic_error for a packet not in NI
  // memory, or a release without a retain.
  virtual void retain_packet(const PacketPtr& pkt) = 0;
  virtual void release_packet(const PacketPtr& pkt) = 0;
};

class NiFirmware {
 public:
  virtual ~NiFirmware() = default;
  virtual std::string kind() const = 0;
  // Both run on the NI processor's SC_THREAD, and send_copy() waits: keep
  // owning state (vectors, packets) in members, not in locals across it
  // (the thread's stack is discarded when the run ends, rtl_models/core/kernel.h).
  // A packet of an outgoing message has reached the send queue.
  virtual void on_send_queue(NiFirmwareApi& api, const PacketPtr& pkt) = 0;
  // A packet has arrived in the receive queue; t_nr has been charged.
  virtual void on_receive(NiFirmwareApi& api, const PacketPtr& pkt) = 0;
};

// Conventional NI: no forwarding; hosts do all multicast work.
class ConventionalFirmware : public NiFirmware {
 public:
  std::string kind() const override { return "conventional"; }
  void on_send_queue(NiFirmwareApi& api, const PacketPtr& pkt) override {
    if (pkt->header.kind == HeaderKind::unicast) {
      api.send_copy(pkt, pkt->header.dest);
    } else if (pkt->header.worm != WormEncoding::none) {
      api.send_copy(pkt, pkt->header);   // a switch-based worm: the switches replicate it
    } else {
      for (NodeId d : pkt->header.dests) api.send_copy(pkt, d);   // separate addressing
    }
  }
  void on_receive(NiFirmwareApi& api, const PacketPtr& pkt) override { api.deliver_to_host(pkt); }
};

// Smart NI (seed000 §4.3, seed002 §2.3): a k-binomial multicast relayed by
// the NIs. Each packet of such a message carries a MulticastRelay; a relay
// computes its children from it (algo::relay_children) and sends each a
// copy whose header carries the child's block. Packets without one are
// handled as by the conventional firmware. The two disciplines:
//  * fpfs (First-Packet-First-Served): per packet, DMA to the host and a copy
//    to every child at once;
//  * fcfs (First-Child-First-Served): per message, each packet goes to the
//    first child as it arrives and is retained; once the whole message is in
//    NI memory it goes to the other children, one child after another.
enum class SmartDiscipline { fpfs, fcfs };
std::unique_ptr<NiFirmware> make_smart_firmware(SmartDiscipline d);

// NI firmware by name (`ni.firmware`). Built-ins are registered in
// ni_firmware.cpp; a new firmware is a new file plus one line there.
using FirmwareRegistry = Registry<NiFirmware>;
FirmwareRegistry& firmware_registry();
// Throws std::invalid_argument naming the known firmware.
std::unique_ptr<NiFirmware> make_firmware(const std::string& kind);

}  // namespace wormcast::rtl
