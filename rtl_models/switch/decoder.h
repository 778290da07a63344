// Routing/decoding stage of a switch (seed000 §2.2, §5.4, §5.9.3). A decoder
// looks at the header of the packet at the FIFO head and names the output
// ports it must be copied to, each with the packet copy that port emits (a
// copy with a rewritten header where the encoding requires it). Decoding
// takes `route_delay` cycles in the switch, independent of the decoder.
// Implementations: up*/down* unicast tables (this file's first user); the
// multicast issues add SSR / multi-drop / reachability-string / IB MFT.
#pragma once

#include <string>
#include <systemc>
#include <vector>

#include "rtl_models/switch/input_buffer.h"
#include "rtl_models/core/packet.h"

namespace wormcast::rtl {

// What a decoder may know about the switch's output ports when choosing
// adaptively among legal ports.
class OutputPortState {
 public:
  virtual ~OutputPortState() = default;
  virtual int free_credits(int out) const = 0;
  virtual bool busy(int out) const = 0;    // allocated to a packet now
};

class Decoder : public sc_core::sc_module {
 public:
  using sc_core::sc_module::sc_module;
  // Append to `out` the branches for `pkt` arriving on input `in_port`.
  // Throws std::runtime_error for a header this decoder cannot route.
  virtual void decode(const PacketPtr& pkt, int in_port, const OutputPortState& ports,
                      std::vector<Branch>& out) = 0;
};

}  // namespace wormcast::rtl
