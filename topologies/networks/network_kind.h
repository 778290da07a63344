// Network kinds: the families of networks an experiment can name with
// `topology.kind`, as plug-ins. A NetworkKind declares its parameters (keys
// of the `topology` section plus its own sections: routing, switch, link,
// ...), checks them against the other plug-ins, and builds the hardware:
// topology, routing tables and every module, with a node of the selected
// node model at each processing node. What it builds is a NetworkModel, the
// one interface the run loop, the invariants, VCD tracing, the deadlock
// report and the statistics use, whatever the kind. The same registry names
// networks by a spec string for `plan` and `topo` (kind_of_spec below).
// Built-ins (network_kind.cpp): `irregular` and `file` (switch networks with
// up*/down* routing, seed000 §1, §7.6), `fat_tree` (seed003) and the direct
// networks `torus`, `mesh`, `hypercube` (direct_network_kind.h). A new kind
// is a new file plus one line there.
#pragma once

#include <iosfwd>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include "algorithms/plan_network.h"
#include "rtl_models/node/node_model.h"
#include "rtl_models/core/params.h"
#include "rtl_models/core/registry.h"
#include "rtl_models/core/rng.h"
#include "rtl_models/core/sim_context.h"
#include "rtl_models/core/watchdog.h"

namespace wormcast::topo {

// An elaborated network.
class NetworkModel {
 public:
  virtual ~NetworkModel() = default;
  virtual int num_nodes() const = 0;
  virtual rtl::NodeHardware& node(int id) = 0;
  virtual rtl::Watchdog& watchdog() = 0;
  // Flit copies inside the network (links, buffers), for flit conservation.
  virtual std::uint64_t flits_in_network() const = 0;
  // Every blocked buffer and busy node, for deadlock reports.
  virtual std::vector<std::string> describe_blocked(Cycle now) const = 0;
  // Trace the modules whose hierarchical names match the glob; returns how many.
  // With tf null, only counts them.
  virtual int trace(sc_core::sc_trace_file* tf, const std::string& filter) = 0;
  // The "topology" object of the results file.
  virtual nlohmann::json describe() const = 0;
  // Register what the network measures (link utilisation, buffer peaks, ...).
  virtual void register_statistics(rtl::StatsScope scope) const = 0;
  // Flits sent so far on each of the links that link_utilization covers, in
  // a fixed order.
  virtual std::vector<std::uint64_t> flits_sent_per_link() const = 0;

  // The run loop marks the measured period (cycles before `now` simulated):
  // it begins with the measurement window and ends when the measured work is
  // done, the load kept on until then (the window itself for most loads; a
  // workload of trials, whose window is its first cycle, until its last
  // trial). Link utilisation is measured over it, not over warm-up and drain.
  void mark_window_begin(Cycle now) { window_begin_ = {now, flits_sent_per_link()}; }
  void mark_window_end(Cycle now) { window_end_ = {now, flits_sent_per_link()}; }
  // {"mean", "max"} over the links of flits sent per cycle in the measured
  // period: from its marked beginning (else cycle 0) to its marked end (else
  // `now`, a run stopped early); each checked to lie in [0, 1].
  nlohmann::json window_link_utilization(Cycle now) const;

 private:
  struct Mark {
    Cycle at = 0;
    std::vector<std::uint64_t> sent;   // flits_sent_per_link() then
  };
  std::optional<Mark> window_begin_, window_end_;
};

// Setting up the network failed for a reason found only when building it
// (e.g. routing tables that fail their independent check): exit code 3.
class SetupError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// `wormcast topo show|export`'s options for a network named by a spec.
struct SpecOptions {
  std::string routing = "default";   // direct networks: --routing
  int vcs = 0;                       // direct networks: --vcs (router.vcs)
  std::string format = "dot";        // export: yaml, json, dot or anynet
};

struct BuildInputs {
  rtl::SimContext& ctx;
  std::shared_ptr<const rtl::NodeModel> node_model;
  Rng rng;                 // the run's generator; sub-streams are forked from it
  Cycle watchdog = 20000;  // sim.watchdog
};

class NetworkKind {
 public:
  virtual ~NetworkKind() = default;
  virtual std::unique_ptr<NetworkKind> clone() const = 0;
  // Keys of the `topology` section after `kind` (visited inside it).
  virtual void visit_topology(ParamVisitor& v) = 0;
  // The kind's own sections (visited after `topology`, before `node`).
  virtual void visit_sections(ParamVisitor& v) = 0;
  // Resolve file names relative to the experiment file's folder.
  virtual void resolve_paths(const std::string& /*experiment_dir*/) {}
  // Facts other plug-ins check against (buffer sizes, admission rule).
  virtual void describe_facts(rtl::ConfigFacts& f) const = 0;
  // Throws std::invalid_argument naming the keys.
  virtual void validate(const rtl::ConfigFacts& f) const = 0;
  // Builds the network as the SystemC module `name`. Throws SetupError.
  virtual std::unique_ptr<NetworkModel> build(const char* name, const BuildInputs& in) const = 0;

  // Naming a network of this kind without an experiment file (`wormcast
  // plan --topology`, `wormcast topo show|export`, multicast testbenches):
  // the text before the first ':' of the specs the kind reads ("torus" for
  // torus:6x6:uni), or "" when it reads a topology file's path instead
  // (reads_files). spec_example() shows the form in help texts.
  virtual std::string spec_prefix() const { return ""; }
  virtual bool reads_files() const { return false; }
  virtual std::string spec_example() const { return ""; }
  // The network `spec` names as `plan` reads it (graph, default routing,
  // node names). Throws std::invalid_argument or TopologyError quoting it.
  virtual algo::PlanNetwork plan_network(const std::string& spec) const;
  // `topo show`: the network with its routing structure and its check.
  virtual void show(const std::string& spec, const SpecOptions& o, std::ostream& os) const;
  // `topo export` in o.format; returns warnings (e.g. what a format cannot
  // express). Throws std::invalid_argument for a format the kind lacks.
  virtual std::vector<std::string> export_spec(const std::string& spec, const SpecOptions& o, std::ostream& os) const;
  // The `topology` keys an experiment gives for the network `spec` names
  // ("dims" -> "[6, 6]", "direction" -> "unidirectional"), without "kind".
  // Throws std::invalid_argument quoting the spec.
  virtual std::vector<std::pair<std::string, std::string>> topology_settings(const std::string& spec) const;
};

using NetworkKindRegistry = Registry<NetworkKind>;
NetworkKindRegistry& network_kind_registry();

// The one way a network spec is resolved: the registered kind whose
// spec_prefix() is the text before the spec's first ':', else the kind that
// reads files when `spec` is a path. Throws std::invalid_argument naming
// the forms the registry knows.
const NetworkKind& kind_of_spec(const std::string& spec);
algo::PlanNetwork resolve_network_spec(const std::string& spec);
// The experiment settings of the network `spec` names: topology.kind (its
// kind's registered name) and the kind's topology_settings, as dotted keys.
// How a testbench builds the network that `plan` names.
std::vector<std::pair<std::string, std::string>> spec_settings(const std::string& spec);
// Every kind's spec_example(), for help texts: "irregular:8x8p32s1, ...".
std::string network_spec_forms();

}  // namespace wormcast::topo
