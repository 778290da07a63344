// Header decoders by name (`switch.decoder`). A decoder is built inside its
// switch's constructor from a DecoderSetup: what any decoder of an irregular
// switch network may use (switch id, the network's up*/down* routing, the
// port-selection policy, a seeded random sub-stream). Built-ins are
// registered in decoder_registry.cpp; a new decoder is a new file plus one
// line there.
#pragma once

#include <memory>
#include <string>

#include "rtl_models/decoder.h"
#include "rtl_models/registry.h"
#include "rtl_models/rng.h"
#include "rtl_models/updown_decoder.h"
#include "topologies/updown.h"

namespace wormcast::rtl {

struct DecoderSetup {
  int switch_id = 0;
  std::shared_ptr<const topo::UpDownRouting> routing;
  PortSelection selection = PortSelection::deterministic;
  Rng rng;
};

using DecoderRegistry = Registry<Decoder, const char*, const DecoderSetup&>;
DecoderRegistry& decoder_registry();

PortSelection parse_selection(const std::string& s);

}  // namespace wormcast::rtl
