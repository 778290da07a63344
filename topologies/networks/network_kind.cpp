#include "topologies/networks/network_kind.h"

#include <algorithm>

#include "rtl_models/core/statistics.h"

#include "topologies/networks/direct_network_kind.h"
#include "topologies/networks/switch_network_kind.h"

namespace wormcast::topo {

nlohmann::json NetworkModel::window_link_utilization(Cycle now) const {
  const Mark end = window_end_ ? *window_end_ : Mark{now, flits_sent_per_link()};
  const Cycle from = window_begin_ ? window_begin_->at : 0;
  const double cycles = end.at > from ? static_cast<double>(end.at - from) : 0.0;
  double sum = 0, mx = 0;
  for (std::size_t i = 0; i < end.sent.size(); ++i) {
    const std::uint64_t before = window_begin_ ? window_begin_->sent.at(i) : 0;
    const double u =
        cycles > 0 ? checked_fraction(static_cast<double>(end.sent[i] - before), cycles, "link utilization") : 0.0;
    sum += u;
    mx = std::max(mx, u);
  }
  return {{"mean", end.sent.empty() ? 0.0 : sum / static_cast<double>(end.sent.size())}, {"max", mx}};
}

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
