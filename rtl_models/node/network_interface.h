// NI coprocessor (seed000 §2.3, Fig. 2b; seed002 §2.1): an embedded processor
// running firmware, send and receive queues in NI memory, a DMA engine
// between host memory and the queues (both directions, over the I/O bus), and
// the link interface (one flit per cycle each way, credit flow control).
//
//   host --TLM--> target socket: SendDescriptor (+ MulticastHeaderExtension)
//   send DMA thread: reads each packet from host memory into the send queue
//   NI processor thread: t_ns per packet copy sent, t_nr per packet received
//   link interface (clocked method): injects copies, assembles arrivals; a
//     packet handed to it in cycle c starts injecting in cycle c + 1
//   receive DMA thread: writes packets into host memory; the write that
//     completes a message carries a CompletionExtension (the host's
//     completion queue)
//
// NI memory: the send queue holds up to `send_queue` packets; the receive
// queue's capacity is the credit count the switch sees, and a received
// packet's flits are credited back when it leaves NI memory (after its DMA to
// the host and any forwarded copies). Occupancy is tracked (peak and
// time-weighted).
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <systemc>
#include <tlm>
#include <vector>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "rtl_models/core/link.h"
#include "rtl_models/core/link_interface.h"
#include "rtl_models/node/ni_firmware.h"
#include "rtl_models/core/sim_context.h"
#include "tlm/ni_protocol.h"

namespace wormcast::rtl {

struct NiParams {
  Cycle t_ns = 1000;            // NI send overhead per packet copy
  Cycle t_nr = 1000;            // NI receive overhead per packet
  int packet_size = 128;        // flits (= bytes) of message data per packet
  int header_flits = 0;         // extra header flits per packet (seed000 §10.4: not modelled by default)
  int send_queue = 64;          // packets
  int receive_queue = 8192;     // flits (credits toward the switch)
  std::string firmware = "conventional";
  Cycle step_cycles = 0;        // step-timing mode for relayed multicasts (0: off)
  std::string engines = "single";   // single: one NI processor; separate: a receive engine for t_nr (seed002 §9)
  void visit(ParamVisitor& v) {
    v.cycles("t_ns", t_ns, "NI send overhead per packet copy (seed000 default 1000 cycles, R = t_hs/t_ns = 1)");
    v.cycles("t_nr", t_nr, "NI receive overhead per packet");
    v.flits("packet_size", packet_size, "message data per packet; messages are split into packets of this size");
    v.count("header_flits", header_flits, "extra header flits added to each packet on the wire", 0, 1 << 20);
    v.count("send_queue", send_queue, "NI send queue capacity (packets)", 1, 1 << 20);
    v.flits("receive_queue", receive_queue, "NI receive queue capacity (flits; the switch's credits)");
    v.choice("firmware", firmware, firmware_registry().names(), "NI firmware (see `wormcast params`: firmware list)");
    v.cycles("step_cycles", step_cycles,
             "step-timing mode for relayed multicasts (smart firmware): 0 off; else the length of one step of the "
             "unit-step model (t_step = t_ns + propagation + t_nr): copies are sent at step starts, t_nr overlaps "
             "sending, and each NI records the step it received each packet in");
    v.choice("engines", engines, {"single", "separate"},
             "single: one NI processor serialises t_nr and t_ns (FIFO); separate: a receive engine charges t_nr "
             "while the processor sends, then hands the packet to the firmware (seed002 §9 option 2)");
  }
};

struct NiStats {
  Cycle busy = 0;                    // NI processor busy cycles
  Cycle receive_engine_busy = 0;     // engines: separate — receive engine busy cycles (t_nr)
  std::uint64_t packets_sent = 0, packets_received = 0;
  int peak_flits = 0;                // NI memory (send + receive queues)
  int retained_peak = 0;             // most packets retained by the firmware at once
  unsigned last_step = 0;            // step-timing mode: latest step a relayed packet was received in
  std::uint64_t step_overruns = 0;   // step-timing mode: sends or receptions that missed their step
  double occupancy_integral = 0;     // flit-cycles
};

class NetworkInterface : public sc_core::sc_module, private NiFirmwareApi, private LinkClient {
 public:
  SC_HAS_PROCESS(NetworkInterface);
  NetworkInterface(sc_core::sc_module_name name, NodeId id, const NiParams& p, SimContext& ctx, bool vct = false);
  ~NetworkInterface() override;

  tlm_utils::simple_target_socket<NetworkInterface> host_port;     // descriptors, status
  tlm_utils::simple_initiator_socket<NetworkInterface> dma;        // to the I/O bus / host memory
  FlitOutPort out;                                                 // to the switch
  FlitInPort in;                                                   // from the switch

  NodeId id() const { return id_; }
  const NiParams& params() const { return p_; }
  // Background traffic (Packet::background): a unicast packet (header and
  // length set), created at cycle `at` (> now, or now before the simulation
  // starts), that the link interface sends from that cycle (or the next,
  // for now), beside the firmware's copies and without its t_ns or NI
  // memory, as another device's DMA would. Arriving background packets are
  // taken off the link (their receive-queue credits returned at once) and
  // handed to on_background, not to the firmware.
  void inject_background(PacketPtr p, Cycle at);
  std::function<void(const Packet&, Cycle)> on_background;
  NiStats stats() const;
  int occupancy_flits() const { return occupancy_; }
  std::string describe() const;
  // VCD: NI memory occupancy, send-queue packets, firmware busy, link valid.
  void trace(sc_core::sc_trace_file* tf);

 private:
  struct Work {             // an item for the NI processor
    bool receive;
    PacketPtr pkt;
    bool nr_charged = false;   // engines: separate — the receive engine has charged t_nr
  };
  struct SendJob {
    tlm::SendDescriptor d;
    std::vector<NodeId> dests;   // empty: unicast d.dest
    std::shared_ptr<const MulticastRelay> relay;   // k-binomial multicast (smart NI)
    WormEncoding worm = WormEncoding::none;        // switch-based worm: its encoded header
    std::shared_ptr<const std::vector<bool>> worm_bits;
    std::shared_ptr<const algo::RelayWorm> relay_worm;
    Cycle posted;
  };

  // TLM target
  void b_transport(::tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  // threads and the clocked link method
  void send_dma_thread();
  void processor_thread();
  void receive_dma_thread();
  void receive_engine_thread();   // engines: separate
  void queue_received(const PacketPtr& p);
  void end_of_elaboration() override;
  void link_tick();
  // NiFirmwareApi
  NodeId node() const override { return id_; }
  using NiFirmwareApi::send_copy;
  void send_copy(const PacketPtr& pkt, const PacketHeader& header) override;
  void deliver_to_host(const PacketPtr& pkt) override;
  void retain_packet(const PacketPtr& pkt) override;
  void release_packet(const PacketPtr& pkt) override;
  bool accept_multicast(const tlm::MulticastHeaderExtension& mc, SendJob& job) const;
  bool accept_worm(const tlm::MulticastHeaderExtension& mc, SendJob& job) const;
  static void set_worm_header(Packet& pkt, const SendJob& job, int bytes);
  void link_activity(Cycle at) override { wake_.at(at); }

  void change_occupancy(int delta);
  void wait_for_send_step(const Packet& pkt);   // step-timing mode
  void release(const Packet* p);   // one reference of an NI-memory packet done

  NodeId id_;
  NiParams p_;
  bool separate_engines_ = false;   // p_.engines == "separate", decided once at construction
  SimContext& ctx_;
  std::unique_ptr<NiFirmware> fw_;
  std::deque<SendJob> jobs_;
  std::deque<Work> work_;
  std::deque<PacketPtr> rx_work_;   // engines: separate — arrivals waiting for the receive engine
  PacketPtr rx_item_;               // engines: separate — the packet the receive engine works on
  std::deque<PacketPtr> to_host_;
  std::deque<std::pair<Cycle, PacketPtr>> handoff_;   // copies for the link, eligible from a cycle
  // NI-memory packets: outstanding uses (firmware, DMA to host, copies in flight)
  // (`retained`: of the refs, those the firmware holds with retain_packet)
  struct Held { int refs; int flits; bool received; PacketPtr keep; int retained = 0; };
  std::map<const Packet*, Held> held_;
  std::map<const Packet*, const Packet*> copy_of_;    // wire copy -> NI-memory packet
  std::map<std::uint64_t, int> arrived_packets_;     // message -> packets written to the host
  std::map<std::uint64_t, unsigned> last_send_step_; // step-timing mode: message -> step of the last send
  int send_queue_packets_ = 0;
  int retained_ = 0;                                  // packets retained by the firmware
  int occupancy_ = 0;
  NiStats stats_;
  Cycle occ_since_ = 0;
  bool processing_ = false;
  PacketInjector injector_;
  PacketAssembler assembler_;
  bool tx_valid_ = false, rx_valid_ = false;
  // What the threads keep across a wait(): their stacks are discarded, not
  // unwound, when the simulation ends (rtl_models/core/kernel.h), so they own
  // nothing in locals. Send DMA: the job being read, its transfer, scratch.
  SendJob dma_job_;
  ::tlm::tlm_generic_payload dma_read_;
  std::vector<unsigned char> dma_read_data_;
  // NI processor: the item it works on.
  Work work_item_;
  // Receive DMA: the packet being written to the host, its transfer, scratch.
  PacketPtr dma_write_pkt_;
  ::tlm::tlm_generic_payload dma_write_;
  std::vector<unsigned char> dma_write_data_;
  tlm::CompletionExtension completion_;
  Wakeup wake_;
  sc_core::sc_event job_event_, work_event_, to_host_event_, send_space_event_, rx_event_;
};

}  // namespace wormcast::rtl
