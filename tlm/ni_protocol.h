// The host <-> NI boundary over TLM-2.0 (seed000 §2.3, seed002 §2.1). This is
// the seam where a user's SoC model plugs in a wormcast NI: any initiator
// that writes a SendDescriptor to the NI's target socket sends a message, and
// any memory target bound (directly or through a bus) to the NI's DMA
// initiator socket receives message data and completions.
//
// Convention: loosely-timed, blocking transport (b_transport). The NI's
// target accepts descriptor writes in zero time (the host's software
// overhead t_hs models the cost of preparing and posting them). DMA
// transfers are issued by the NI's DMA engine threads; the I/O bus serialises
// them and returns when the transfer has finished (time is consumed inside
// b_transport with wait(), so the annotated delay on return is zero).
//
// NI target (host side) address map:
//   kRegSendDoorbell  write  SendDescriptor  post a message for sending
//   kRegStatus        read   NiStatus        queue levels (polling)
// Host memory map as seen by the NI's DMA initiator:
//   host_addr + offset   read (send DMA) / write (receive DMA) of packet data
//   a receive-DMA write that completes a message carries CompletionExtension
#pragma once

#include <cstdint>
#include <memory>
#include <tlm>
#include <vector>

namespace wormcast::algo {
struct RelayWorm;   // algorithms/multiphase.h
}

namespace wormcast::tlm {

constexpr std::uint64_t kRegSendDoorbell = 0x00;
constexpr std::uint64_t kRegStatus = 0x10;
constexpr std::uint64_t kHostReceiveBuffer = 0x8000'0000ULL;   // where receive DMA writes land

struct SendDescriptor {
  std::uint64_t message = 0;     // message id chosen by the sender (unique per run)
  std::int32_t dest = -1;        // unicast destination (ignored when a MulticastHeaderExtension is present)
  std::uint32_t bytes = 0;       // message length (1 flit = 1 byte)
  std::uint64_t host_addr = 0;   // where the message lies in host memory
};

struct NiStatus {
  std::uint32_t send_queue_packets = 0;
  std::uint32_t receive_queue_flits = 0;
  std::uint32_t firmware_busy = 0;
};

// Fill a generic payload for a plain (non-streaming, no byte-enable) access.
inline void prepare(::tlm::tlm_generic_payload& t, ::tlm::tlm_command cmd, std::uint64_t addr, void* data,
                    unsigned len) {
  t.set_command(cmd);
  t.set_address(addr);
  t.set_data_ptr(static_cast<unsigned char*>(data));
  t.set_data_length(len);
  t.set_streaming_width(len);
  t.set_byte_enable_ptr(nullptr);
  t.set_response_status(::tlm::TLM_INCOMPLETE_RESPONSE);
}

// Multicast header handed from host software to the NI with a send descriptor
// (the destination set; the multicast issues add their encodings here).
// With a non-empty `chain` (source first, then the destinations in chain
// order) it asks for a k-binomial multicast relayed by smart NIs: the NI
// builds the root's relay header from chain, k and construction
// (algo::TreeConstruction as a number); `dests` is then ignored.
class MulticastHeaderExtension : public ::tlm::tlm_extension<MulticastHeaderExtension> {
 public:
  std::vector<std::int32_t> dests;
  std::vector<std::int32_t> chain;
  std::uint32_t k = 0;
  std::uint8_t construction = 0;
  // Switch-based multicast worm (seed000 §5.3): with worm != 0 (an
  // rtl::WormEncoding) every packet of the message is one worm to `dests`
  // whose header is the encoded `worm_bits`; `relay_worm` travels with it
  // (what the relays among the destinations send next).
  std::uint8_t worm = 0;
  std::vector<bool> worm_bits;
  std::shared_ptr<const algo::RelayWorm> relay_worm;
  ::tlm::tlm_extension_base* clone() const override { return new MulticastHeaderExtension(*this); }
  void copy_from(const ::tlm::tlm_extension_base& e) override {
    *this = static_cast<const MulticastHeaderExtension&>(e);
  }
};

// Carried by the receive-DMA write that completes a message in host memory:
// the host learns the message has arrived (a completion-queue entry), plus
// the timestamps of the packet that completed it for the latency breakdown.
class CompletionExtension : public ::tlm::tlm_extension<CompletionExtension> {
 public:
  std::uint64_t message = 0;
  std::int32_t src = -1;
  std::uint32_t bytes = 0;
  // cycle stamps along the completing packet's path (see MessageTimes)
  std::uint64_t dma_in_done = 0, ns_done = 0, arrived = 0, nr_done = 0, dma_out_done = 0;
  std::shared_ptr<const algo::RelayWorm> relay_worm;   // carried by a switch-based worm (MulticastHeaderExtension)
  ::tlm::tlm_extension_base* clone() const override { return new CompletionExtension(*this); }
  void copy_from(const ::tlm::tlm_extension_base& e) override {
    *this = static_cast<const CompletionExtension&>(e);
  }
};

}  // namespace wormcast::tlm
