#include "testbenches/app/runner.h"

#include "rtl_models/core/cycle_scheduler.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cctype>
#include <chrono>
#include <filesystem>
#include <fstream>

#include "rtl_models/core/kernel.h"
#include "rtl_models/core/process_memory.h"
#include "rtl_models/core/sim_context.h"
#include "testbenches/app/atomic_file.h"
#include "testbenches/app/run_loop.h"
#include "testbenches/app/vcd_sink.h"
#include "testbenches/app/workloads/composed_workload.h"
#include "topologies/networks/switch_network_kind.h"
#include "topologies/topology.h"

namespace wormcast::tb {

topo::Topology build_topology(const ExperimentConfig& cfg) {
  const auto* kind = dynamic_cast<const topo::SwitchNetworkKind*>(cfg.network.plugin.get());
  if (!kind) throw ConfigError("topology.kind " + cfg.network.name + " is not a switch network");
  return kind->topology();
}

namespace {

// Process start, as near as a static initialiser gets to it.
const auto g_process_start = std::chrono::steady_clock::now();

double seconds_since(std::chrono::steady_clock::time_point t0) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

// The names a VCD filter can match in this network, one example per shape
// (digits read as '*'): "net.router0 (net.router*), ...". Found by walking
// the SystemC hierarchy and keeping the shapes the network traces.
std::string traceable_name_examples(topo::NetworkModel& net) {
  std::vector<std::string> shapes, examples;   // shapes seen, traced or not
  std::vector<sc_core::sc_object*> todo(sc_core::sc_get_top_level_objects());
  std::reverse(todo.begin(), todo.end());
  while (!todo.empty()) {
    sc_core::sc_object* o = todo.back();
    todo.pop_back();
    const auto& kids = o->get_child_objects();
    todo.insert(todo.end(), kids.rbegin(), kids.rend());
    const std::string name = o->name();
    std::string shape;
    for (const char c : name)
      if (!std::isdigit(static_cast<unsigned char>(c))) shape += c;
      else if (shape.empty() || shape.back() != '*') shape += '*';
    if (std::find(shapes.begin(), shapes.end(), shape) != shapes.end()) continue;
    shapes.push_back(shape);   // one test per shape: thousands of routers stay cheap
    if (net.trace(nullptr, name) > 0) examples.push_back(shape == name ? name : name + " (" + shape + ")");
  }
  if (examples.empty()) return "none";
  std::string s;
  for (const auto& e : examples) s += (s.empty() ? "" : ", ") + e;
  return s;
}

// A VCD file of the modules matching the filter, closed when it goes out of
// scope; written through a VcdSink, so that close() reports a waveform that
// did not reach the file whole.
class VcdTrace {
 public:
  VcdTrace(const RunOptions& opt, std::uint64_t period_ps, topo::NetworkModel& net) {
    if (opt.vcd_path.empty()) return;
    require_vcd_matches(net, opt.vcd_filter);
    std::error_code ec;
    const auto parent = std::filesystem::path(opt.vcd_path).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    try {
      sink_ = std::make_unique<VcdSink>(opt.vcd_path);
    } catch (const FileWriteError& e) {
      throw ConfigError(e.what());
    }
    tf_ = sc_core::sc_create_vcd_trace_file(sink_->systemc_base().c_str());
    // VCD timescales are powers of ten: the largest one dividing the period.
    std::uint64_t unit_ps = 1;
    while (period_ps % (unit_ps * 10) == 0) unit_ps *= 10;
    tf_->set_time_unit(static_cast<double>(unit_ps), sc_core::SC_PS);
    const int n = net.trace(tf_, opt.vcd_filter);
    spdlog::info("tracing {} modules into {}", n, opt.vcd_path);
  }
  ~VcdTrace() {
    try {
      close();
    } catch (const FileWriteError&) {   // a run that fails before close() reports its own error
    }
  }
  // Throws FileWriteError when the waveform could not be written whole.
  void close() {
    if (tf_) sc_core::sc_close_vcd_trace_file(tf_);
    tf_ = nullptr;
    if (sink_) sink_->finish();
  }

 private:
  std::unique_ptr<VcdSink> sink_;
  sc_core::sc_trace_file* tf_ = nullptr;
};

// Rates over the window's cycles: workloads with a window only.
void register_load_statistics(rtl::StatsScope s, double per) {
  const rtl::SimContext& ctx = s.ctx;
  s.stats.add("offered_load", "flits/cycle/node", "flits created in the window",
              [&ctx, per] { return static_cast<double>(ctx.stats.window_flits_created.value()) / per; });
  s.stats.add("injected_load", "flits/cycle/node", "flits injected in the window",
              [&ctx, per] { return static_cast<double>(ctx.stats.window_flits_injected.value()) / per; });
  s.stats.add("accepted_throughput", "flits/cycle/node", "flits ejected in the window",
              [&ctx, per] { return static_cast<double>(ctx.stats.window_flits_ejected.value()) / per; });
}

// The statistics of every run: packet counts, latencies and, with a window,
// loads.
void register_packet_statistics(rtl::StatsScope s, const ExperimentConfig& cfg, const LoopOutcome& out, int nodes) {
  const rtl::SimContext& ctx = s.ctx;
  const double us = ctx.clock.cycles_to_us(1.0);
  const double per = static_cast<double>(cfg.sim.measure) * static_cast<double>(nodes);
  const Cycle begin = ctx.window.begin, end = ctx.window.end;
  s.stats.add("cycles_simulated", "cycles", "cycles simulated in all phases", [&out] { return out.now; });
  s.stats.add("measurement_window_cycles", "cycles",
              "[begin, end) of the measurement window (end null: a workload of trials, all of the run measured)",
              [begin, end] { return nlohmann::json::array({begin, end == UINT64_MAX ? nlohmann::json() : nlohmann::json(end)}); });
  s.stats.add("packets_created", "packets", "packets created", [&ctx] { return ctx.ledger.created(); });
  s.stats.add("packets_delivered", "packets", "packets delivered to all their destinations",
              [&ctx] { return ctx.ledger.completed(); });
  s.stats.add("measured_packets_created", "packets", "packets created in the window",
              [&ctx] { return ctx.stats.measured_created; });
  s.stats.add("measured_packets_delivered", "packets", "of those, delivered",
              [&ctx] { return ctx.stats.measured_delivered; });
  s.stats.add("latency_cycles", "cycles", "measured packet latency: creation to tail delivered",
              [&ctx, us] { return summarize_cycles(ctx.stats.latency, us); });
  s.stats.add("network_latency_cycles", "cycles", "measured packet latency: head injected to tail delivered",
              [&ctx, us] { return summarize_cycles(ctx.stats.network_latency, us); });
  if (!cfg.workload->of_trials()) register_load_statistics(s, per);
  s.stats.add("saturated", "bool",
              "some evidence of saturation: measured work incomplete within sim.drain_limit, a backlog that grew "
              "with the load on, or work left when the drain limit ended the run",
              [&out] { return out.saturated; });
  s.stats.add("saturation_evidence", "names",
              "the evidence that fired: measured_incomplete, backlog_grew, not_drained (empty: none)", [&out] {
                nlohmann::json names = nlohmann::json::array();
                for (const SaturationEvidence& e : out.saturation) names.push_back(e.name);
                return names;
              });
  s.stats.add("saturation_reason", "text", "each piece of evidence in words and the busiest node resource (saturated runs)",
              [&out] { return out.saturation_reason; });
}

// Every statistic of the run, each group under the name of its owner.
void register_statistics(Statistics& stats, const ExperimentConfig& cfg, rtl::SimContext& ctx,
                         topo::NetworkModel& net, Workload& workload, const LoopOutcome& out,
                         const std::vector<rtl::NodeHardware*>& nodes) {
  const rtl::StatsScope scope{stats, ctx, out.now};
  stats.set_owner("run");
  register_packet_statistics(scope, cfg, out, net.num_nodes());
  stats.set_owner(plugin_owner("network kind", cfg.network.name, "topology.kind"));
  net.register_statistics(scope);
  stats.set_owner(plugin_owner("node model", cfg.node.name, "node.model"));
  cfg.node->register_statistics(scope, nodes);
  stats.set_owner(plugin_owner("workload", cfg.workload.name, "traffic.kind"));
  workload.register_statistics(scope);
}

// Flit conservation and deadlock; returns the first violation ("" if none).
std::string check_invariants(const rtl::SimContext& ctx, topo::NetworkModel& net, const LoopOutcome& out,
                             nlohmann::json& j) {
  const std::uint64_t in_net = net.flits_in_network();
  const bool conserved = static_cast<std::int64_t>(ctx.flits.injected) + ctx.flits.extra_copies ==
                         static_cast<std::int64_t>(ctx.flits.ejected + in_net);
  j = {{"exactly_once_checked_per_delivery", true},
       {"messages_outstanding_at_end", ctx.messages.outstanding()},
       {"all_packets_delivered", out.drained},
       {"packets_outstanding_at_end", ctx.ledger.outstanding()},
       {"flits_injected", ctx.flits.injected},
       {"flits_ejected", ctx.flits.ejected},
       {"flit_copies_from_replication", ctx.flits.extra_copies},
       {"flits_in_network_at_end", in_net},
       {"flits_conserved", conserved},
       {"deadlock", net.watchdog().tripped()}};
  if (!out.error.empty()) return out.error;
  if (net.watchdog().tripped()) return net.watchdog().report();
  if (!conserved)
    return "flit conservation violated: injected " + std::to_string(ctx.flits.injected) + " + copies " +
           std::to_string(ctx.flits.extra_copies) + " != ejected " + std::to_string(ctx.flits.ejected) +
           " + in network " + std::to_string(in_net);
  if (out.drained && in_net != 0)
    return "all packets delivered but " + std::to_string(in_net) + " flits remain in the network";
  return {};
}

nlohmann::json header(const ExperimentConfig& cfg) {
  nlohmann::json j;
  j["wormcast_version"] = WORMCAST_VERSION;
  j["build_id"] = build_id();
  j["experiment"] = cfg.name;
  j["config_file"] = cfg.source_file;
  j["seed"] = cfg.seed;
  JsonParamWriter w;
  ExperimentConfig copy = cfg;
  copy.visit(w);
  j["config"] = w.out;
  return j;
}

// Deliberately never freed (see RunOptions::keep_network_until_exit); held
// by a static pointer so leak checkers see it as reachable, not lost.
void park_until_exit(std::unique_ptr<topo::NetworkModel> net) {
  static auto* parked = new std::vector<std::unique_ptr<topo::NetworkModel>>;
  parked->push_back(std::move(net));
}

// Speed counts router traversals (a flit crossing a switch's crossbar), not
// injection or ejection; set-up, simulation and the whole process are
// reported apart; peak RSS is this process's own high-water mark.
nlohmann::json performance(const rtl::SimContext& ctx, Cycle cycles, double setup, double wall) {
  nlohmann::json p = {{"setup_seconds", setup},
                      {"wall_seconds", wall},
                      {"simulation_seconds", wall},
                      {"process_seconds", seconds_since(g_process_start)},
                      {"cycles_per_second", wall > 0 ? static_cast<double>(cycles) / wall : 0.0},
                      {"flit_hops_per_second", wall > 0 ? static_cast<double>(ctx.flits.hops) / wall : 0.0},
                      {"router_flit_hops", ctx.flits.hops},
                      {"flit_moves", ctx.flits.moves},
                      {"peak_rss_mb", peak_rss_mb()},
                      {"allocator", allocator_name()}};
  if (ctx.streams) {   // how, not what: sim.streams
    p["streamed_flits"] = ctx.streamed_flits;
    p["received_stream_flits"] = ctx.received_stream_flits;
    p["worm_hops"] = ctx.worm_hops;
  }
  if (ctx.scheduler != nullptr) {   // how, not what: sim.run_ahead
    p["run_ahead"] = ctx.scheduler->run_ahead();
    if (!ctx.scheduler->run_ahead()) p["run_ahead_off"] = ctx.scheduler->run_ahead_off_reason();
    p["scheduler_activations"] = ctx.scheduler->activations();
    p["scheduler_evaluations"] = ctx.scheduler->evaluations();   // module evaluations: where the work went
  }
  return p;
}

}  // namespace

std::string build_id() {
  static const std::string id = [] {
    std::error_code ec;
    const std::filesystem::path exe = "/proc/self/exe";
    const auto size = std::filesystem::file_size(exe, ec);
    if (ec) return std::string("unknown");
    const auto mtime = std::filesystem::last_write_time(exe, ec);
    if (ec) return std::string("unknown");
    return std::string(WORMCAST_VERSION) + "-" + std::to_string(size) + "-" +
           std::to_string(mtime.time_since_epoch().count());
  }();
  return id;
}

void require_vcd_matches(topo::NetworkModel& net, const std::string& filter) {
  if (net.trace(nullptr, filter) == 0)
    throw ConfigError("--vcd-filter '" + filter + "' matches no module of this network; it can trace " +
                      traceable_name_examples(net));
}

namespace {

// A run's hardware and workload, built and attached; on an error, `res`
// says what and the pointers are empty.
struct Elaborated {
  std::unique_ptr<topo::NetworkModel> net;
  std::unique_ptr<Workload> workload;
};
Elaborated elaborate(const ExperimentConfig& cfg, rtl::SimContext& ctx, const Rng& run_rng, RunResult& res) {
  Elaborated e;
  try {
    e.net = cfg.network->build("net", topo::BuildInputs{ctx, cfg.node.plugin->clone(), run_rng, cfg.sim.watchdog});
  } catch (const topo::SetupError& err) {
    res.exit_code = 3;
    res.error = err.what();
    return {};
  } catch (const topo::TopologyError& err) {
    // The parameters make no network (e.g. more nodes than switch ports): an
    // error in the experiment file, named as the loader names its errors.
    res.exit_code = 1;
    res.error = cfg.where() + ": topology: " + err.what();
    return {};
  }
  e.workload = with_background(cfg.workload->clone(), cfg.background);
  try {
    if (const std::string p = e.workload->node_count_problem(e.net->num_nodes()); !p.empty()) throw ConfigError(p);
    e.workload->attach(*e.net, ctx, run_rng);
  } catch (const ConfigError& err) {   // the workload does not fit the network built
    res.exit_code = 1;
    res.error = cfg.where() + ": " + err.what();
    return {};
  }
  return e;
}

void init_context(rtl::SimContext& ctx, const ExperimentConfig& cfg) {
  ctx.window = cfg.workload->of_trials() ? rtl::MeasureWindow{0, UINT64_MAX}
                                         : rtl::MeasureWindow{cfg.sim.warmup, cfg.sim.warmup + cfg.sim.measure};
  ctx.streams = cfg.sim.streams == "on";
  ctx.stream_max_flits = cfg.sim.watchdog;
}

std::vector<rtl::NodeHardware*> node_hardware(topo::NetworkModel& net) {
  std::vector<rtl::NodeHardware*> nodes;
  for (int i = 0; i < net.num_nodes(); ++i) nodes.push_back(&net.node(i));
  return nodes;
}

}  // namespace

RunResult list_statistics(const ExperimentConfig& cfg, std::vector<StatisticInfo>& out) {
  RunResult res;
  rtl::fresh_kernel();
  rtl::SimContext ctx(cfg.period_ps);
  init_context(ctx, cfg);
  Elaborated e = elaborate(cfg, ctx, Rng(cfg.seed), res);
  if (!e.net) return res;
  // Elaboration is completed as a run's is (end_of_elaboration's checks
  // run, and the modules' threads start, so the kernel frees them when the
  // next run resets it), but no cycle is simulated.
  try {
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
  } catch (const std::exception& err) {   // a check at the end of elaboration
    res.exit_code = 3;
    res.error = err.what();
    return res;
  }
  Statistics stats;
  const LoopOutcome none{};   // the probes are not read
  register_statistics(stats, cfg, ctx, *e.net, *e.workload, none, node_hardware(*e.net));
  out = stats.list();
  res.ok = true;
  return res;
}

RunResult run_experiment(const ExperimentConfig& cfg, const RunOptions& opt) {
  RunResult res;
  const auto setup0 = std::chrono::steady_clock::now();
  rtl::fresh_kernel();
  rtl::SimContext ctx(cfg.period_ps);
  init_context(ctx, cfg);
  const Rng run_rng(cfg.seed);
  Elaborated e = elaborate(cfg, ctx, run_rng, res);
  if (!e.net) return res;
  std::unique_ptr<topo::NetworkModel> net = std::move(e.net);
  const std::unique_ptr<Workload> workload = std::move(e.workload);
  VcdTrace vcd(opt, cfg.period_ps, *net);
  if (ctx.scheduler != nullptr) {   // how, not what: sim.run_ahead
    if (!opt.vcd_path.empty()) ctx.scheduler->every_cycle("--vcd");
    if (cfg.sim.run_ahead == "off") ctx.scheduler->every_cycle("sim.run_ahead off");
  }

  const double setup = seconds_since(setup0);   // topology, routing, checks, modules
  const auto wall0 = std::chrono::steady_clock::now();
  LoopOutcome out = RunLoop(cfg.sim, ctx, *net, *workload, opt.progress).run();
  const double wall = seconds_since(wall0);   // simulation only (elaboration's end included)
  std::string vcd_error;   // a waveform that did not reach its file whole
  try {
    vcd.close();
  } catch (const FileWriteError& e) {
    vcd_error = e.what();
  }
  if (opt.inspect) opt.inspect(*workload);
  const std::vector<rtl::NodeHardware*> nodes = node_hardware(*net);
  if (out.saturated) {
    for (const SaturationEvidence& e : out.saturation) out.saturation_reason += e.name + ": " + e.detail + "; ";
    const std::string busiest = cfg.node->bottleneck(nodes, out.now);
    out.saturation_reason +=
        "bottleneck: " + (busiest.empty() ? "the network (no node resource is more than 90% busy)" : busiest);
  }

  Statistics stats;
  register_statistics(stats, cfg, ctx, *net, *workload, out, nodes);

  nlohmann::json j = header(cfg);
  j["topology"] = net->describe();
  j["metrics"] = stats.collect();
  j["statistics"] = describe_statistics(stats.list());
  const std::string invariant_error = check_invariants(ctx, *net, out, j["invariants"]);
  const std::string error = invariant_error.empty() ? vcd_error : invariant_error;
  j["performance"] = performance(ctx, out.now, setup, wall);
  res.ok = error.empty();
  res.error = error;
  res.exit_code = res.ok ? 0 : invariant_error.empty() ? 1 : 3;   // 1: an output could not be written
  j["status"] = res.ok ? "ok" : "error";
  if (!res.ok) j["error"] = error;
  res.json = std::move(j);
  if (opt.keep_network_until_exit) park_until_exit(std::move(net));
  return res;
}

}  // namespace wormcast::tb
