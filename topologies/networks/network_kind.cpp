#include "topologies/networks/network_kind.h"

#include <algorithm>
#include <filesystem>

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

algo::PlanNetwork NetworkKind::plan_network(const std::string& spec) const {
  throw std::invalid_argument("topology \"" + spec + "\": this network kind is not named by a spec");
}

void NetworkKind::show(const std::string& spec, const SpecOptions&, std::ostream&) const {
  throw std::invalid_argument("topo show " + spec + ": this network kind is not named by a spec");
}

std::vector<std::string> NetworkKind::export_spec(const std::string& spec, const SpecOptions&, std::ostream&) const {
  throw std::invalid_argument("topo export " + spec + ": this network kind is not named by a spec");
}

namespace {

// One instance of every registered kind, for their spec methods (a kind's
// default-constructed parameters do not matter to them). Each call adds the
// kinds registered since the last (the registry only grows), so that a kind
// an embedding program registers later is found too; the instances live as
// long as the program (kind_of_spec returns one).
const std::vector<std::unique_ptr<NetworkKind>>& spec_kinds() {
  static std::vector<std::unique_ptr<NetworkKind>> kinds;
  const std::vector<std::string> names = network_kind_registry().names();
  for (std::size_t i = kinds.size(); i < names.size(); ++i) kinds.push_back(network_kind_registry().make(names[i]));
  return kinds;
}

}  // namespace

const NetworkKind& kind_of_spec(const std::string& spec) {
  const auto colon = spec.find(':');
  const std::string prefix = colon == std::string::npos ? std::string() : spec.substr(0, colon);
  for (const auto& k : spec_kinds())
    if (!prefix.empty() && k->spec_prefix() == prefix) return *k;
  // A path may hold a ':' too; a prefix no kind reads is a typo unless the file exists.
  if (prefix.empty() || std::filesystem::exists(spec))
    for (const auto& k : spec_kinds())
      if (k->reads_files()) return *k;
  std::string known;
  for (const auto& k : spec_kinds())
    if (!k->spec_prefix().empty()) known += (known.empty() ? "" : ", ") + k->spec_prefix();
  throw std::invalid_argument("topology \"" + spec + "\": unknown kind \"" + prefix + "\" (known: " + known +
                              ", or a topology file)");
}

algo::PlanNetwork resolve_network_spec(const std::string& spec) { return kind_of_spec(spec).plan_network(spec); }

std::vector<std::pair<std::string, std::string>> NetworkKind::topology_settings(const std::string& spec) const {
  throw std::invalid_argument("topology \"" + spec + "\": this network kind has no experiment settings for a spec");
}

std::vector<std::pair<std::string, std::string>> spec_settings(const std::string& spec) {
  const NetworkKind& k = kind_of_spec(spec);
  const std::vector<std::string> names = network_kind_registry().names();
  const auto& kinds = spec_kinds();
  std::vector<std::pair<std::string, std::string>> out;
  for (std::size_t i = 0; i < kinds.size(); ++i)
    if (kinds[i].get() == &k) out.emplace_back("topology.kind", names[i]);
  for (const auto& [key, value] : k.topology_settings(spec)) out.emplace_back("topology." + key, value);
  return out;
}

std::string network_spec_forms() {
  std::vector<std::string> forms;
  for (bool files : {false, true})   // spec forms first, then paths
    for (const auto& k : spec_kinds())
      if (!k->spec_example().empty() && k->reads_files() == files) forms.push_back(k->spec_example());
  std::string out;
  for (std::size_t i = 0; i < forms.size(); ++i)
    out += (i == 0 ? "" : i + 1 == forms.size() ? " or " : ", ") + forms[i];
  return out;
}

}  // namespace wormcast::topo
