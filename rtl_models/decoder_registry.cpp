#include "rtl_models/decoder_registry.h"

#include <stdexcept>

#include "rtl_models/drop_decoder.h"
#include "rtl_models/reachability_decoder.h"

namespace wormcast::rtl {

DecoderRegistry& decoder_registry() {
  static DecoderRegistry registry = [] {
    DecoderRegistry r("decoder");
    r.add("updown", "unicast, minimal up*/down* tables with routing.selection among legal ports (seed000 §1.2)",
          [](const char* name, const DecoderSetup& s) -> std::unique_ptr<Decoder> {
            return std::make_unique<UpDownDecoder>(name, s.switch_id, s.routing, s.selection, s.rng);
          });
    r.add("ssr",
          "SSR and multi-drop (path-based) worms: replication to the node ports of the matching (ID, port string) "
          "pair, continuation toward the next pair's switch; unicast via up*/down* (seed000 §5.3-5.4)",
          [](const char* name, const DecoderSetup& s) -> std::unique_ptr<Decoder> {
            return std::make_unique<DropDecoder>(name, s);
          });
    r.add("reachability",
          "tree-based bit-string worms with restricted reachability strings (Fig. 18), header rewritten per "
          "branch; unicast via up*/down* (seed000 §5.3, §5.9)",
          [](const char* name, const DecoderSetup& s) -> std::unique_ptr<Decoder> {
            return std::make_unique<ReachabilityDecoder>(name, s);
          });
    r.add("multicast",
          "every worm encoding (SSR, multi-drop, tree) and unicast: dispatches to the ssr and reachability "
          "decoders by header encoding",
          [](const char* name, const DecoderSetup& s) -> std::unique_ptr<Decoder> {
            return std::make_unique<MulticastDecoder>(name, s);
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
