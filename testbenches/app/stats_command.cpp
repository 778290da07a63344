#include "testbenches/app/stats_command.h"

#include <fmt/format.h>

#include <algorithm>
#include <iostream>
#include <map>
#include <set>

#include "testbenches/app/experiment.h"
#include "testbenches/app/runner.h"

namespace wormcast::tb {

namespace {

struct Selection {
  std::string network, node, workload;
};

// The statistics of one default combination, or nothing when it does not
// elaborate (most combinations of a multicast workload and a network do not).
bool statistics_of(const Selection& s, std::vector<StatisticInfo>& out, std::vector<Override> more = {}) {
  ExperimentConfig cfg;
  more.insert(more.begin(), {{"topology.kind", s.network}, {"node.model", s.node}, {"traffic.kind", s.workload}});
  try {
    cfg = load_experiment("", more);
  } catch (const ConfigError&) {
    return false;
  }
  return list_statistics(cfg, out).ok;
}

// Appends the statistics not listed yet (same owner and name), keeping each
// owner's statistics together in the order they were first seen.
void merge(std::vector<StatisticInfo>& all, const std::vector<StatisticInfo>& more) {
  for (const auto& s : more) {
    const auto same = [&](const StatisticInfo& t) { return t.owner == s.owner && t.name == s.name; };
    if (std::any_of(all.begin(), all.end(), same)) continue;
    auto last_of_owner = std::find_if(all.rbegin(), all.rend(), [&](const StatisticInfo& t) { return t.owner == s.owner; });
    all.insert(last_of_owner.base(), s);
  }
}

std::vector<std::string> all_owners() {
  std::vector<std::string> owners{"run"};
  for (const auto& e : topo::network_kind_registry().entries())
    owners.push_back(plugin_owner("network kind", e.name, "topology.kind"));
  for (const auto& e : rtl::node_model_registry().entries())
    owners.push_back(plugin_owner("node model", e.name, "node.model"));
  for (const auto& e : workload_registry().entries()) owners.push_back(plugin_owner("workload", e.name, "traffic.kind"));
  owners.push_back(kBackgroundOwner);
  return owners;
}

void print_text(const std::vector<StatisticInfo>& list, std::ostream& out) {
  std::string owner;
  for (const auto& s : list) {
    if (s.owner != owner) {
      owner = s.owner;
      out << "\n# " << owner << "\n" << fmt::format("{:<40} {:<18} {}\n", "metrics.<name>", "unit", "meaning");
    }
    out << fmt::format("{:<40} {:<18} {}\n", s.name, s.unit.empty() ? "-" : s.unit, s.description);
  }
}

int print_listing(const StatsOptions& opt, const std::vector<StatisticInfo>& list,
                  const std::vector<std::string>& missing, const std::vector<std::string>& silent,
                  std::ostream& out) {
  if (opt.json) {
    nlohmann::json j = {{"statistics", describe_statistics(list)}};
    if (opt.file.empty()) {
      j["not_reached"] = missing;
      j["no_statistics"] = silent;
    }
    out << j.dump(2) << "\n";
  } else {
    print_text(list, out);
    for (const auto& m : silent) out << "\n# " << m << ": registers no statistics of its own\n";
    for (const auto& m : missing)
      out << "\n# " << m << ": no default combination of plug-ins elaborates with it; "
          << "`wormcast stats EXPERIMENT.yaml` lists the statistics of an experiment that uses it\n";
  }
  out.flush();
  if (!out) {
    std::cerr << "wormcast: error: stats: writing to standard output failed\n";
    return 1;
  }
  return 0;
}

}  // namespace

std::vector<StatisticInfo> every_statistic(std::vector<std::string>& missing, std::vector<std::string>& silent) {
  std::vector<StatisticInfo> all;
  std::set<std::string> reached{"run"};
  for (const auto& n : topo::network_kind_registry().entries())
    for (const auto& m : rtl::node_model_registry().entries())
      for (const auto& w : workload_registry().entries()) {
        std::vector<StatisticInfo> one;
        if (!statistics_of({n.name, m.name, w.name}, one)) continue;
        merge(all, one);
        reached.insert(plugin_owner("network kind", n.name, "topology.kind"));
        reached.insert(plugin_owner("node model", m.name, "node.model"));
        reached.insert(plugin_owner("workload", w.name, "traffic.kind"));
      }
  // Background traffic beside a workload that has it (any but synthetic).
  std::vector<StatisticInfo> one;
  if (statistics_of({"irregular", "host_ni", "single_multicast"}, one, {{"background.load", "0.01"}})) {
    merge(all, one);
    reached.insert(kBackgroundOwner);
  }
  // Owners in the order of all_owners(): the run, network kinds, node models, workloads, background.
  const std::vector<std::string> owners = all_owners();
  std::stable_sort(all.begin(), all.end(), [&](const StatisticInfo& a, const StatisticInfo& b) {
    return std::find(owners.begin(), owners.end(), a.owner) < std::find(owners.begin(), owners.end(), b.owner);
  });
  missing.clear();
  silent.clear();
  for (const auto& o : owners) {
    const bool has = std::any_of(all.begin(), all.end(), [&](const StatisticInfo& s) { return s.owner == o; });
    if (reached.count(o) == 0) missing.push_back(o);
    else if (!has) silent.push_back(o);
  }
  return all;
}

int run_stats_command(const StatsOptions& opt, std::ostream& out) {
  std::vector<std::string> missing, silent;
  if (opt.file.empty()) {
    if (!opt.sets.empty()) throw ConfigError("stats: --set needs an experiment file");
    const std::vector<StatisticInfo> all = every_statistic(missing, silent);
    return print_listing(opt, all, missing, silent, out);
  }
  std::vector<Override> overrides;
  for (const auto& s : opt.sets) overrides.push_back(parse_override(s));
  const ExperimentConfig cfg = load_experiment(opt.file, overrides);
  std::vector<StatisticInfo> list;
  const RunResult r = list_statistics(cfg, list);
  if (!r.ok) {
    std::cerr << "wormcast: error: " << r.error << "\n";
    return r.exit_code;
  }
  return print_listing(opt, list, missing, silent, out);
}

}  // namespace wormcast::tb
