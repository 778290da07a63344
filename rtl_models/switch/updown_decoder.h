// Unicast decoder with minimal up*/down* routing tables (seed000 §1.2, §10.6).
// The table gives every legal output port on a minimal legal route for the
// packet's destination, indexed by the arrival phase (did the packet arrive
// over a link it traversed downwards?). When several ports are legal the
// `selection` policy chooses: deterministic (lowest port; default),
// round_robin, random (seeded sub-stream), or adaptive (most free downstream
// credits, idle ports first, ties to the lowest port).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "rtl_models/switch/decoder.h"
#include "rtl_models/switch/port_choice.h"
#include "rtl_models/core/rng.h"
#include "topologies/updown.h"

namespace wormcast::rtl {

class UpDownDecoder : public Decoder {
 public:
  UpDownDecoder(sc_core::sc_module_name name, int switch_id,
                std::shared_ptr<const topo::UpDownRouting> routing, PortSelection sel, Rng rng);
  void decode(const PacketPtr& pkt, int in_port, const OutputPortState& ports,
              std::vector<Branch>& out) override;

 private:
  topo::Phase arrival_phase(int in_port);
  int sw_;
  std::shared_ptr<const topo::UpDownRouting> routing_;
  PortChooser chooser_;
  // The arrival phase of each input port, asked of the routing once (a
  // search among the switch's link ends) instead of at every decode; -1 not
  // yet asked. The routing is immutable, so the answer cannot change.
  std::vector<std::int8_t> phase_;
};

}  // namespace wormcast::rtl
