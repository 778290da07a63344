#include "topologies/network_kind.h"

#include "topologies/direct_network_kind.h"
#include "topologies/switch_network_kind.h"

namespace wormcast::topo {

NetworkKindRegistry& network_kind_registry() {
  static NetworkKindRegistry registry = [] {
    NetworkKindRegistry r("network kind");
    r.add("irregular", "irregular switch network generated as in seed000 §7.6, up*/down* routing",
          [] { return std::make_unique<IrregularKind>(); });
    r.add("file", "switch network from a topology file (YAML/JSON), up*/down* routing",
          [] { return std::make_unique<FileKind>(); });
    r.add("fat_tree", "InfiniBand m-port n-tree IBFT(m, n) (seed003 §2), IB forwarding tables, store-and-forward",
          [] { return std::make_unique<FatTreeKind>(); });
    register_direct_network_kinds(r);   // torus, mesh, hypercube (direct_network_kind.cpp)
    return r;
  }();
  return registry;
}

}  // namespace wormcast::topo
