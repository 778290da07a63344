// Unicast decoder with minimal up*/down* routing tables (seed000 §1.2, §10.6).
// The table gives every legal output port on a minimal legal route for the
// packet's destination, indexed by the arrival phase (did the packet arrive
// over a link it traversed downwards?). When several ports are legal the
// `selection` policy chooses: deterministic (lowest port; default),
// round_robin, random (seeded sub-stream), or adaptive (most free downstream
// credits, idle ports first, ties to the lowest port).
#pragma once

#include <memory>
#include <string>

#include "rtl_models/decoder.h"
#include "rtl_models/port_choice.h"
#include "rtl_models/rng.h"
#include "topologies/updown.h"

namespace wormcast::rtl {

class UpDownDecoder : public Decoder {
 public:
  UpDownDecoder(sc_core::sc_module_name name, int switch_id,
                std::shared_ptr<const topo::UpDownRouting> routing, PortSelection sel, Rng rng);
  void decode(const PacketPtr& pkt, int in_port, const OutputPortState& ports,
              std::vector<Branch>& out) override;

 private:
  int sw_;
  std::shared_ptr<const topo::UpDownRouting> routing_;
  PortChooser chooser_;
};

}  // namespace wormcast::rtl
