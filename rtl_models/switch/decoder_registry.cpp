#include "rtl_models/switch/decoder_registry.h"

#include <stdexcept>

#include "rtl_models/switch/drop_decoder.h"
#include "rtl_models/switch/ib_decoder.h"
#include "rtl_models/switch/reachability_decoder.h"

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
    r.add("ib",
          "InfiniBand forwarding tables of an m-port n-tree: unicast DLIDs by the linear table (Eqs. 1-2), "
          "multicast LIDs replicated by the table the subnet manager programs (seed003 §6-§8)",
          [](const char* name, const DecoderSetup& s) -> std::unique_ptr<Decoder> {
            return std::make_unique<IbDecoder>(name, s.switch_id, ib_subnet(*s.shared, *s.topology));
          });
    return r;
  }();
  return registry;
}

namespace {
const std::pair<const char*, PortSelection> kSelections[] = {{"deterministic", PortSelection::deterministic},
                                                              {"round_robin", PortSelection::round_robin},
                                                              {"random", PortSelection::random},
                                                              {"adaptive", PortSelection::adaptive}};
}  // namespace

const std::vector<std::string>& selection_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> v;
    for (const auto& [name, sel] : kSelections) v.emplace_back(name);
    return v;
  }();
  return names;
}

PortSelection parse_selection(const std::string& s) {
  for (const auto& [name, sel] : kSelections)
    if (s == name) return sel;
  throw std::invalid_argument("unknown port selection '" + s + "'");
}

}  // namespace wormcast::rtl
