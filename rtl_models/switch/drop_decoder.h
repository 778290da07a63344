// SSR / multi-drop decoder (seed000 §5.3-§5.4), `switch.decoder: ssr`. It
// reads the encoded header of an SSR worm (one (ID, port string) pair) or a
// path-based multi-drop worm (a list of pairs) and adapts the pure decision
// of algorithms/switch_decode.h to the switch: copies to the node ports the
// matching pair marks (these copies carry the received header, which the
// node strips), and at most one copy toward the next pair's switch over a
// minimal legal up*/down* route (lookup by destination switch; with node IDs
// by the named node), its header without the consumed pairs. The ID field is
// a switch ID (default) or a node ID (`switch.drop_id`). Unicast packets are
// routed with the up*/down* tables, exactly as by the `updown` decoder.
// Among several legal ports `routing.selection` decides.
#pragma once

#include <memory>

#include "algorithms/headers.h"
#include "rtl_models/switch/decoder.h"
#include "rtl_models/switch/decoder_registry.h"
#include "rtl_models/switch/port_choice.h"

namespace wormcast::rtl {

class DropDecoder : public Decoder {
 public:
  DropDecoder(sc_core::sc_module_name name, const DecoderSetup& s);
  void decode(const PacketPtr& pkt, int in_port, const OutputPortState& ports, std::vector<Branch>& out) override;

 private:
  void decode_worm(const PacketPtr& pkt, int in_port, const OutputPortState& ports, std::vector<Branch>& out);
  int sw_;
  std::shared_ptr<const topo::Topology> t_;
  std::shared_ptr<const topo::UpDownRouting> r_;
  algo::SsrId kind_;
  PortChooser chooser_;
};

algo::SsrId parse_drop_id(const std::string& s);

}  // namespace wormcast::rtl
