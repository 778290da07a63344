// Reachability-string decoder for tree-based worms (seed000 §5.3, §5.9),
// `switch.decoder: reachability`. At set-up the restricted per-port strings
// r_ij and total strings r_i of every switch are computed once per network
// by the algorithm of Fig. 18 (algorithms/reachability.h: levels deepest
// first, decreasing id inside a level, i.e. reverse topological order of the
// same-level down links). Decoding a worm (up-down bit + N-bit destination
// string): while the up-down bit is 1 and some destination is outside r_i,
// the worm goes up on one up port (chosen by `routing.selection`: adaptive,
// round_robin, random or the lowest); otherwise it is replicated to every
// down port whose restricted string meets the destinations, each copy's
// header rewritten to exactly those destinations (up-down bit 0), so every
// destination gets one copy (the Fig. 17(b) duplicate is avoided). Unicast
// packets use the up*/down* tables, exactly as the `updown` decoder.
#pragma once

#include <memory>

#include "algorithms/headers.h"
#include "algorithms/reachability.h"
#include "rtl_models/switch/decoder.h"
#include "rtl_models/switch/decoder_registry.h"
#include "rtl_models/switch/port_choice.h"

namespace wormcast::rtl {

class ReachabilityDecoder : public Decoder {
 public:
  ReachabilityDecoder(sc_core::sc_module_name name, const DecoderSetup& s);
  void decode(const PacketPtr& pkt, int in_port, const OutputPortState& ports, std::vector<Branch>& out) override;
  const algo::SwitchReach& tables() const { return tables_->at(sw_); }

 private:
  void decode_worm(const PacketPtr& pkt, int in_port, const OutputPortState& ports, std::vector<Branch>& out);
  int sw_;
  std::shared_ptr<const topo::Topology> t_;
  std::shared_ptr<const topo::UpDownRouting> r_;
  std::shared_ptr<const algo::ReachabilityTables> tables_;
  algo::HeaderGeometry g_;
  PortChooser chooser_;
};

}  // namespace wormcast::rtl

namespace wormcast::rtl {

class DropDecoder;

// `switch.decoder: multicast`: one switch that understands every worm
// encoding (SSR, multi-drop, tree) and unicast, dispatching on the header's
// encoding to an SSR / multi-drop and a reachability-string decoder (child
// modules `drop` and `reach`). It lets one network carry the worms of every
// switch-based scheme, so a sweep can compare schemes on one configuration.
class MulticastDecoder : public Decoder {
 public:
  MulticastDecoder(sc_core::sc_module_name name, const DecoderSetup& s);
  ~MulticastDecoder() override;
  void decode(const PacketPtr& pkt, int in_port, const OutputPortState& ports, std::vector<Branch>& out) override;

 private:
  std::unique_ptr<DropDecoder> drop_;
  std::unique_ptr<ReachabilityDecoder> reach_;
};

}  // namespace wormcast::rtl
