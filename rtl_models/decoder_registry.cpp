#include "rtl_models/decoder_registry.h"

#include <stdexcept>

namespace wormcast::rtl {

DecoderRegistry& decoder_registry() {
  static DecoderRegistry registry = [] {
    DecoderRegistry r("decoder");
    r.add("updown", "unicast, minimal up*/down* tables with routing.selection among legal ports (seed000 §1.2)",
          [](const char* name, const DecoderSetup& s) -> std::unique_ptr<Decoder> {
            return std::make_unique<UpDownDecoder>(name, s.switch_id, s.routing, s.selection, s.rng);
          });
    return r;
  }();
  return registry;
}

PortSelection parse_selection(const std::string& s) {
  if (s == "deterministic") return PortSelection::deterministic;
  if (s == "round_robin") return PortSelection::round_robin;
  if (s == "random") return PortSelection::random;
  if (s == "adaptive") return PortSelection::adaptive;
  throw std::invalid_argument("unknown port selection '" + s + "'");
}

}  // namespace wormcast::rtl
