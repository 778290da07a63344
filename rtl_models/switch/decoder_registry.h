// Header decoders by name (`switch.decoder`). A decoder is built inside its
// switch's constructor from a DecoderSetup: what any decoder of an irregular
// switch network may use (switch id, the network's up*/down* routing, the
// port-selection policy, a seeded random sub-stream). Built-ins are
// registered in decoder_registry.cpp; a new decoder is a new file plus one
// line there.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "rtl_models/switch/decoder.h"
#include "rtl_models/core/registry.h"
#include "rtl_models/core/rng.h"
#include "rtl_models/switch/updown_decoder.h"
#include "topologies/topology.h"
#include "topologies/updown.h"

namespace wormcast::rtl {

// Tables every switch of one network shares (e.g. the reachability strings,
// computed once at set-up rather than once per switch).
class DecoderShared {
 public:
  template <class T>
  std::shared_ptr<const T> get(const std::string& key, const std::function<std::shared_ptr<const T>()>& make) {
    auto& slot = items_[key];
    if (!slot) slot = make();
    return std::static_pointer_cast<const T>(slot);
  }

 private:
  std::map<std::string, std::shared_ptr<const void>> items_;
};

struct DecoderSetup {
  int switch_id = 0;
  std::shared_ptr<const topo::UpDownRouting> routing;
  PortSelection selection = PortSelection::deterministic;
  Rng rng;
  std::shared_ptr<const topo::Topology> topology;   // the switch-level network
  std::string drop_id = "switch_id";                // switch.drop_id: ID field of SSR / multi-drop headers
  std::shared_ptr<DecoderShared> shared;            // one per network
};

using DecoderRegistry = Registry<Decoder, const char*, const DecoderSetup&>;
DecoderRegistry& decoder_registry();

// The port-selection names (`routing.selection`), in the order they are
// listed, and their parser (throws std::invalid_argument for another name).
const std::vector<std::string>& selection_names();
PortSelection parse_selection(const std::string& s);

}  // namespace wormcast::rtl
