#include "testbenches/app/experiment.h"

#include <filesystem>

#include "testbenches/app/units.h"
#include "testbenches/app/workloads/composed_workload.h"
#include <set>

namespace wormcast::tb {

namespace {

// The selector `key` of the current section: read the name, and replace the
// plug-in with a fresh one when the name changes.
template <class Plugin, class Reg>
void select(ParamVisitor& v, const char* key, Selected<Plugin>& sel, const Reg& reg, const char* desc) {
  std::string name = sel.name;
  v.choice(key, name, reg.names(), desc);
  if (name != sel.name || !sel.plugin) sel = Selected<Plugin>(name, reg.make(name));
}

}  // namespace

void SimSection::visit(ParamVisitor& v) {
  v.cycles("warmup", warmup, "cycles before measurement starts");
  v.cycles("measure", measure, "measurement window: work created in it is measured", 1);
  v.cycles("drain_limit", drain_limit,
           "extra cycles allowed for measured work to complete and the network to drain; "
           "beyond it the run is reported saturated");
  v.cycles("watchdog", watchdog, "cycles without any flit moving (with packets outstanding) that count as deadlock", 1);
  v.choice("streams", streams, {"off", "on"},
           "speed only, results identical: a switch output or an endpoint moves the rest of a packet that "
           "nothing can stop (all of it buffered or on the input link, credits for all of it) as one record "
           "instead of one flit per cycle, and a switch input or an endpoint takes the rest of a packet arriving "
           "one flit per cycle in one step; with router.link_hold packet a direct network's VC router sends a packet "
           "whose flits can all leave one per cycle through itself in one step (a worm-level hop); not in VCD-traced "
           "modules (docs/performance.md, the stream step and the worm-level hop)");
  v.choice("run_ahead", run_ahead, {"off", "on"},
           "speed only, results identical: the cycle scheduler evaluates the cycles with work up to the "
           "kernel's next activity in one SystemC activation instead of one each; only where nothing but the "
           "network's modules and the watchdog run (not with host/NI or processor software, nor with a VCD trace; "
           "docs/performance.md, \"Cycles without the kernel\")");
}

ExperimentConfig::ExperimentConfig()
    : network("irregular", topo::network_kind_registry().make("irregular")),
      node("endpoint", rtl::node_model_registry().make("endpoint")),
      workload("synthetic", workload_registry().make("synthetic")) {}

void ExperimentConfig::visit(ParamVisitor& v) {
  v.text("name", name, "experiment name, used for results file names");
  v.seed("seed", seed, "seed of the run's random generator (traffic, random port choice)");
  v.begin_section("clock", "clock");
  v.time_ps("period", period_ps, "clock period; all delays are in cycles of this clock");
  v.end_section();
  v.set_clock_period_ps(period_ps);
  v.begin_section("topology", "network topology");
  select(v, "kind", network, topo::network_kind_registry(), "network kind (see `wormcast params`)");
  network->visit_topology(v);
  v.end_section();
  network->visit_sections(v);
  v.begin_section("node", "node model");
  select(v, "model", node, rtl::node_model_registry(),
         "what sits at each node: endpoint (packet source/sink at the link), host_ni "
         "(host processor + I/O bus + NI coprocessor, message traffic) or processor (direct networks: "
         "t_S/t_R, one-port or all-port)");
  v.end_section();
  node->visit(v);
  v.begin_section("traffic", "workload: what the nodes do");
  select(v, "kind", workload, workload_registry(), "workload (see `wormcast params`)");
  workload->visit(v, *node);
  v.end_section();
  workload->visit_sections(v, *node);
  v.begin_section("background", "unicast traffic beside the workload's, on with background.load > 0");
  background.visit(v);
  v.end_section();
  v.begin_section("sim", "run control");
  sim.visit(v);
  v.end_section();
}

rtl::ConfigFacts ExperimentConfig::facts() const {
  rtl::ConfigFacts f;
  f.where = where();
  f.watchdog = sim.watchdog;
  workload->describe_facts(f);
  if (background.on() && background.shape.packet_size > f.workload_packet_flits) {
    f.workload_packet_flits = background.shape.packet_size;
    f.workload_packet_key = "background.packet_size";
  }
  node->packet_bound(f);
  f.multi_port_nodes = node->multi_port();
  network->describe_facts(f);
  return f;
}

void ExperimentConfig::validate() const {
  const rtl::ConfigFacts f = facts();
  // The name becomes a file name under --out: it must not lead out of it.
  if (name.empty() || name == "." || name == ".." ||
      name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != std::string::npos)
    throw ConfigError(f.where + ": name: '" + name + "' must be a plain file name (letters, digits, '_', '.', '-')");
  // Each cycle count is at most 2^53 (units.cpp), so the sum cannot wrap;
  // simulated time must also fit SystemC's 64-bit picosecond range.
  const Cycle total = sim.warmup + sim.measure + sim.drain_limit;
  if (total > UINT64_MAX / period_ps)
    throw ConfigError(f.where + ": sim.warmup + sim.measure + sim.drain_limit (" + std::to_string(total) +
                      " cycles) at clock.period " + format_time_ps(period_ps) +
                      " exceeds SystemC's time range (2^64 ps, about 213 days of simulated time)");
  try {
    network->validate(f);
    node->validate(f);
    workload->validate(f, *node);
    if (background.on()) {
      std::string p = background.problem();
      if (p.empty()) p = workload->background_problem();
      if (!p.empty()) throw std::invalid_argument(f.where + ": " + p);
    }
    if (f.nodes > 0)
      if (const std::string p = with_background(workload->clone(), background)->node_count_problem(f.nodes);
          !p.empty())
        throw std::invalid_argument(f.where + ": " + p);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
}

std::map<std::string, std::string> unselected_keys(const ExperimentConfig& cfg) {
  // Collect the dotted keys and section names an unselected plug-in visits.
  struct Collector : ParamLister {
    std::set<std::string> keys;
    void begin_section(const char* name, const char* desc) override {
      ParamLister::begin_section(name, desc);
      std::string full;
      for (const auto& r : sections_) full += r + ".";
      sections_.push_back(name);
      keys.insert(full + name);
    }
    void end_section() override {
      ParamLister::end_section();
      sections_.pop_back();
    }
    std::vector<std::string> sections_;
  };
  std::map<std::string, std::string> hints;
  auto add = [&](Collector& c, const std::string& owner) {
    for (const auto& r : c.rows) c.keys.insert(r.key);
    for (const auto& k : c.keys) hints[k] += (hints[k].empty() ? "" : " or ") + owner;
  };
  for (const auto& e : topo::network_kind_registry().entries()) {
    if (e.name == cfg.network.name) continue;
    Collector c;
    auto p = e.make();
    c.begin_section("topology", "");
    p->visit_topology(c);
    c.end_section();
    p->visit_sections(c);
    add(c, "network kind '" + e.name + "' (topology.kind)");
  }
  for (const auto& e : rtl::node_model_registry().entries()) {
    if (e.name == cfg.node.name) continue;
    Collector c;
    e.make()->visit(c);
    add(c, "node model '" + e.name + "' (node.model)");
  }
  for (const auto& e : workload_registry().entries()) {
    if (e.name == cfg.workload.name) continue;
    Collector c;
    auto p = e.make();
    c.begin_section("traffic", "");
    p->visit(c, *cfg.node);
    c.end_section();
    p->visit_sections(c, *cfg.node);
    add(c, "workload '" + e.name + "' (traffic.kind)");
  }
  return hints;
}

namespace {
void read_into(ExperimentConfig& cfg, YAML::Node root, const std::string& origin,
               const std::vector<Override>& overrides) {
  YamlParamReader reader(root, origin, overrides);
  cfg.visit(reader);
  reader.set_hints(unselected_keys(cfg));
  reader.finish();
}
}  // namespace

void ExperimentConfig::set(const std::vector<Override>& overrides) {
  read_into(*this, YAML::Node(), "configuration", overrides);
  validate();
}

ExperimentConfig load_experiment(const std::string& path, const std::vector<Override>& overrides) {
  ExperimentConfig cfg;
  YAML::Node root;
  if (!path.empty()) {
    root = load_yaml_file(path);
    cfg.source_file = path;
  }
  read_into(cfg, root, path.empty() ? "defaults" : path, overrides);
  if (!path.empty()) cfg.network->resolve_paths(std::filesystem::path(path).parent_path().string());
  cfg.validate();
  return cfg;
}

namespace {

// Lists what a plug-in visits, with the enclosing section for `topology` /
// `traffic` keys.
template <class F>
std::vector<ParamRow> rows_of(const char* section, F visit) {
  ParamLister l;
  if (section) l.begin_section(section, "");
  visit(l);
  if (section) l.end_section();
  return std::move(l.rows);
}

// The core of every run: what ExperimentConfig::visit reads outside the plug-ins.
std::vector<ParamRow> core_rows() {
  ExperimentConfig cfg;
  ParamLister all;
  cfg.visit(all);
  std::set<std::string> plugin_keys;
  auto drop = [&](const std::vector<ParamRow>& rows) {
    for (const auto& r : rows) plugin_keys.insert(r.key);
  };
  drop(rows_of("topology", [&](ParamVisitor& v) { cfg.network->visit_topology(v); }));
  drop(rows_of(nullptr, [&](ParamVisitor& v) { cfg.network->visit_sections(v); }));
  drop(rows_of(nullptr, [&](ParamVisitor& v) { cfg.node->visit(v); }));
  drop(rows_of("traffic", [&](ParamVisitor& v) { cfg.workload->visit(v, *cfg.node); }));
  drop(rows_of(nullptr, [&](ParamVisitor& v) { cfg.workload->visit_sections(v, *cfg.node); }));
  std::vector<ParamRow> out;
  for (auto& r : all.rows)
    if (!plugin_keys.count(r.key)) out.push_back(std::move(r));
  return out;
}

}  // namespace

std::vector<ParamGroup> parameter_groups() {
  std::vector<ParamGroup> groups;
  groups.push_back({"every experiment", "run core and plug-in selectors", core_rows()});
  for (const auto& e : topo::network_kind_registry().entries()) {
    auto p = e.make();
    auto rows = rows_of("topology", [&](ParamVisitor& v) { p->visit_topology(v); });
    for (auto& r : rows_of(nullptr, [&](ParamVisitor& v) { p->visit_sections(v); })) rows.push_back(std::move(r));
    groups.push_back({"network kind '" + e.name + "' (topology.kind: " + e.name + ")", e.description, std::move(rows)});
  }
  // Workloads list their parameters as they are with software on the nodes
  // (the fullest set); fall back to the default node model.
  std::unique_ptr<rtl::NodeModel> software = ExperimentConfig().node.plugin->clone();
  for (const auto& e : rtl::node_model_registry().entries())
    if (auto p = e.make(); p->runs_software()) {
      software = std::move(p);
      break;
    }
  for (const auto& e : rtl::node_model_registry().entries()) {
    auto p = e.make();
    groups.push_back({"node model '" + e.name + "' (node.model: " + e.name + ")", e.description,
                      rows_of(nullptr, [&](ParamVisitor& v) { p->visit(v); })});
  }
  for (const auto& e : workload_registry().entries()) {
    auto p = e.make();
    auto rows = rows_of("traffic", [&](ParamVisitor& v) { p->visit(v, *software); });
    for (auto& r : rows_of(nullptr, [&](ParamVisitor& v) { p->visit_sections(v, *software); }))
      rows.push_back(std::move(r));
    groups.push_back({"workload '" + e.name + "' (traffic.kind: " + e.name + ")", e.description, std::move(rows)});
  }
  return groups;
}

}  // namespace wormcast::tb
