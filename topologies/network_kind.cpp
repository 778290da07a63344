#include "topologies/network_kind.h"

#include "topologies/switch_network_kind.h"

namespace wormcast::topo {

NetworkKindRegistry& network_kind_registry() {
  static NetworkKindRegistry registry = [] {
    NetworkKindRegistry r("network kind");
    r.add("irregular", "irregular switch network generated as in seed000 §7.6, up*/down* routing",
          [] { return std::make_unique<IrregularKind>(); });
    r.add("file", "switch network from a topology file (YAML/JSON), up*/down* routing",
          [] { return std::make_unique<FileKind>(); });
    return r;
  }();
  return registry;
}

}  // namespace wormcast::topo
