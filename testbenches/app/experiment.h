// An experiment: the core of every run (name, seed, clock, run control) and
// the plug-ins it selects by name — the network kind (`topology.kind`), the
// node model (`node.model`) and the workload (`traffic.kind`) — each
// declaring its own parameters. visit() walks the sections in use only, so
// loading (YAML with --set overrides), listing and the results echo see
// exactly what this experiment uses; a key of a plug-in that is not selected
// is an error naming the plug-in and its selector.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rtl_models/node/node_model.h"
#include "testbenches/app/config.h"
#include "testbenches/app/workloads/background_workload.h"
#include "testbenches/app/workloads/workload.h"
#include "topologies/networks/network_kind.h"

namespace wormcast::tb {

struct SimSection {
  Cycle warmup = 10000;
  Cycle measure = 50000;
  Cycle drain_limit = 200000;
  Cycle watchdog = 20000;
  std::string streams = "on";   // "off": every sender moves one flit per cycle (the oracle of "on")
  std::string run_ahead = "on";   // "off": one kernel activation per cycle with work (the oracle of "on")
  void visit(ParamVisitor& v);
};

// A plug-in selected by name: the name, and the configured plug-in (deep
// copied with the experiment). Selecting another name replaces the plug-in
// with a fresh one of that name (its defaults).
template <class Plugin>
struct Selected {
  std::string name;
  std::unique_ptr<Plugin> plugin;
  Selected() = default;
  Selected(std::string n, std::unique_ptr<Plugin> p) : name(std::move(n)), plugin(std::move(p)) {}
  Selected(const Selected& o) : name(o.name), plugin(o.plugin ? o.plugin->clone() : nullptr) {}
  Selected& operator=(const Selected& o) {
    if (this != &o) {
      name = o.name;
      plugin = o.plugin ? o.plugin->clone() : nullptr;
    }
    return *this;
  }
  Plugin* operator->() const { return plugin.get(); }
  Plugin& operator*() const { return *plugin; }
};

struct ExperimentConfig {
  std::string name = "experiment";
  std::uint64_t seed = 1;
  std::uint64_t period_ps = 5000;
  Selected<topo::NetworkKind> network;
  Selected<rtl::NodeModel> node;
  Selected<Workload> workload;
  BackgroundParams background;   // unicast traffic beside the workload's
  SimSection sim;
  std::string source_file;   // not a parameter: where it was loaded from

  ExperimentConfig();   // defaults: irregular, endpoint, synthetic
  void visit(ParamVisitor& v);
  // Cross-parameter checks (throws ConfigError naming the keys).
  void validate() const;
  rtl::ConfigFacts facts() const;
  // How messages name this configuration: its file, or "configuration".
  std::string where() const { return source_file.empty() ? std::string("configuration") : source_file; }
  // Apply `key=value` overrides to this configuration (as --set does) and
  // validate; throws ConfigError. Tests and programs use it to change one
  // parameter of a plug-in without knowing its type.
  void set(const std::vector<Override>& overrides);
  // The plug-in as its concrete type (throws std::logic_error if it is not).
  template <class T> T& network_as() const { return cast<T>(network.plugin.get(), "network kind"); }
  template <class T> T& node_as() const { return cast<T>(node.plugin.get(), "node model"); }
  template <class T> T& workload_as() const { return cast<T>(workload.plugin.get(), "workload"); }

 private:
  template <class T, class P> static T& cast(P* p, const char* what) {
    auto* t = dynamic_cast<T*>(p);
    if (!t) throw std::logic_error(std::string("the selected ") + what + " is not of the requested type");
    return *t;
  }
};

// Load an experiment file (YAML) with overrides; an empty path gives the
// defaults plus overrides. Throws ConfigError.
ExperimentConfig load_experiment(const std::string& path, const std::vector<Override>& overrides);

// The key -> "plug-in (selector)" hints for keys of plug-ins that are not
// selected, so an error can say whose key it is.
std::map<std::string, std::string> unselected_keys(const ExperimentConfig& cfg);

}  // namespace wormcast::tb

namespace wormcast::tb {

// `wormcast params`: the parameters of every run, then those of each
// registered plug-in under a heading naming it and its selector.
struct ParamGroup {
  std::string title;          // e.g. "node model 'host_ni' (node.model: host_ni)"
  std::string description;
  std::vector<ParamRow> rows;
};
std::vector<ParamGroup> parameter_groups();

}  // namespace wormcast::tb
