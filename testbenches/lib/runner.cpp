#include "testbenches/lib/runner.h"

#include <spdlog/spdlog.h>
#include <sys/resource.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>

#include "rtl_models/kernel.h"
#include "rtl_models/sim_context.h"
#include "testbenches/lib/message_traffic.h"
#include "topologies/elaborator.h"
#include "topologies/topology_io.h"

namespace wormcast::tb {

topo::RootRule parse_root_rule(const std::string& s) {
  if (s == "lowest_id") return topo::RootRule::lowest_id;
  if (s == "max_degree") return topo::RootRule::max_degree;
  throw ConfigError("routing.root: unknown rule '" + s + "'");
}

topo::Topology build_topology(const ExperimentConfig& cfg) {
  if (cfg.topology.kind == "file") return topo::load_topology(cfg.topology.file);
  topo::IrregularParams ip;
  ip.switches = cfg.topology.switches;
  ip.ports = cfg.topology.ports;
  ip.nodes = cfg.topology.nodes;
  ip.connectivity = cfg.topology.connectivity;
  ip.seed = cfg.topology.seed;
  return topo::generate_irregular(ip);
}

namespace {

nlohmann::json summarize(std::vector<std::uint32_t> v, double us_per_cycle) {
  nlohmann::json j;
  j["count"] = v.size();
  if (v.empty()) return j;
  std::sort(v.begin(), v.end());
  double sum = 0;
  for (auto x : v) sum += x;
  auto pct = [&](double q) {   // nearest-rank percentile
    const auto rank = static_cast<std::size_t>(std::ceil(q * static_cast<double>(v.size())));
    return v[std::min(v.size() - 1, rank == 0 ? 0 : rank - 1)];
  };
  const double mean = sum / static_cast<double>(v.size());
  j["mean"] = mean;
  j["min"] = v.front();
  j["p50"] = pct(0.50);
  j["p95"] = pct(0.95);
  j["p99"] = pct(0.99);
  j["max"] = v.back();
  j["mean_us"] = mean * us_per_cycle;
  return j;
}

double peak_rss_mb() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;
}

}  // namespace

RunResult run_experiment(const ExperimentConfig& cfg, const RunOptions& opt) {
  RunResult res;
  rtl::fresh_kernel();

  const topo::Topology topology = build_topology(cfg);
  auto routing = std::make_shared<const topo::UpDownRouting>(topology, parse_root_rule(cfg.routing.root));
  spdlog::info("topology: {} ({} switches, {} nodes, {} links); up*/down* root {}, {} levels", topology.description,
               topology.num_switches(), topology.num_nodes(), topology.links().size(), routing->root(),
               routing->max_level() + 1);
  const auto problems = topo::check_updown(topology, *routing);
  if (!problems.empty()) {
    res.exit_code = 3;
    res.error = "up*/down* routing check failed: " + problems.front();
    return res;
  }

  rtl::SimContext ctx(cfg.period_ps);
  ctx.window = {cfg.sim.warmup, cfg.sim.warmup + cfg.sim.measure};
  const Rng run_rng(cfg.seed);

  topo::NetworkParams np;
  np.sw = cfg.sw;
  np.link = cfg.link;
  np.node_model = cfg.node.model;
  np.endpoint = cfg.endpoint;
  np.host = cfg.host;
  np.bus = cfg.iobus;
  np.ni = cfg.ni;
  np.selection = topo::parse_selection(cfg.routing.selection);
  np.watchdog = cfg.sim.watchdog;
  topo::Network net("net", topology, routing, np, ctx, run_rng);
  const bool host_ni = cfg.node.model == "host_ni";
  for (auto& ep : net.endpoints)
    ep->set_source(std::make_unique<rtl::SyntheticSource>(
        cfg.traffic, ep->id(), topology.num_nodes(),
        run_rng.fork(0x7100000000ULL + static_cast<std::uint64_t>(ep->id()))));
  std::vector<std::shared_ptr<MessageTrafficProgram>> programs;
  for (auto& node : net.nodes) {
    const auto id = static_cast<std::uint64_t>(node->host.node());
    auto prog = std::make_shared<MessageTrafficProgram>(cfg.traffic, cfg.message.size, node->host.node(),
                                                        topology.num_nodes(), run_rng.fork(0x7200000000ULL + id));
    programs.push_back(prog);
    node->host.set_program([prog](rtl::HostApi& h) { (*prog)(h); });
  }
  // Work measured in the window that has not completed yet.
  auto measured_pending = [&] {
    return host_ni ? ctx.msg_stats.measured_delivered < ctx.msg_stats.measured_expected
                   : ctx.stats.measured_delivered < ctx.stats.measured_created;
  };

  sc_core::sc_trace_file* tf = nullptr;
  if (!opt.vcd_path.empty()) {
    // SystemC does not report a trace file it cannot open (it crashes later),
    // so make sure the file can be written first.
    std::error_code ec;
    const auto parent = std::filesystem::path(opt.vcd_path).parent_path();
    if (!parent.empty()) std::filesystem::create_directories(parent, ec);
    if (!std::ofstream(opt.vcd_path)) throw ConfigError("--vcd " + opt.vcd_path + ": cannot create the file");
    std::string base = opt.vcd_path;
    if (base.size() > 4 && base.substr(base.size() - 4) == ".vcd") base.resize(base.size() - 4);
    tf = sc_core::sc_create_vcd_trace_file(base.c_str());
    // VCD timescales are powers of ten: the largest one dividing the period.
    std::uint64_t unit_ps = 1;
    while (cfg.period_ps % (unit_ps * 10) == 0) unit_ps *= 10;
    tf->set_time_unit(static_cast<double>(unit_ps), sc_core::SC_PS);
    const int n = net.trace(tf, opt.vcd_filter);
    if (n == 0) spdlog::warn("--vcd-filter '{}' matched no module (names look like net.sw0, net.node3)", opt.vcd_filter);
    else spdlog::info("tracing {} modules into {}", n, opt.vcd_path);
  }

  const auto wall0 = std::chrono::steady_clock::now();
  const Cycle measure_end = cfg.sim.warmup + cfg.sim.measure;
  const Cycle hard_end = measure_end + cfg.sim.drain_limit;
  const Cycle chunk = std::max<Cycle>(1000, (measure_end) / 100);
  Cycle now = 0;
  auto advance_to = [&](Cycle target) {
    if (target > now) sc_core::sc_start(ctx.clock.delay(target - now));
    now = target;
    if (opt.progress)
      std::fprintf(stderr, "\r[wormcast] cycle %llu / %llu (%3.0f%%)  packets delivered %llu   ",
                   static_cast<unsigned long long>(now), static_cast<unsigned long long>(measure_end),
                   100.0 * static_cast<double>(std::min(now, measure_end)) / static_cast<double>(measure_end),
                   static_cast<unsigned long long>(ctx.ledger.completed()));
  };
  std::string error;
  bool saturated = false, drained = false;
  try {
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    // Warm-up and measurement window.
    while (now < measure_end && !net.watchdog().tripped()) advance_to(std::min(measure_end, now + chunk));
    spdlog::debug("cycle {}: measurement window closed, {} of {} measured packets delivered", now,
                  ctx.stats.measured_delivered, ctx.stats.measured_created);
    // Keep the load on until every measured packet has arrived.
    while (!net.watchdog().tripped() && measured_pending() && now < hard_end)
      advance_to(std::min(hard_end, now + 1000));
    saturated = measured_pending();
    // Stop creating packets and drain what is left, so every packet can be
    // checked for delivery.
    spdlog::debug("cycle {}: measured packets {}; stopping packet creation, draining {} packets", now,
                  saturated ? "NOT all delivered (saturated)" : "all delivered", ctx.ledger.outstanding());
    for (auto& ep : net.endpoints) ep->stop_creating_at(now);
    for (auto& prog : programs) prog->stop_at(now);
    while (!net.watchdog().tripped() && !ctx.idle() && now < hard_end) advance_to(std::min(hard_end, now + 1000));
    drained = ctx.idle();
    spdlog::debug("cycle {}: {}", now, drained ? "network drained" : "drain limit reached");
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (opt.progress) std::fprintf(stderr, "\n");
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  if (tf) sc_core::sc_close_vcd_trace_file(tf);

  // Invariants.
  const std::uint64_t in_net = net.flits_in_network();
  const bool conserved = ctx.flits.injected + ctx.flits.extra_copies == ctx.flits.ejected + in_net;
  if (error.empty() && net.watchdog().tripped()) error = net.watchdog().report();
  if (error.empty() && !conserved)
    error = "flit conservation violated: injected " + std::to_string(ctx.flits.injected) + " + copies " +
            std::to_string(ctx.flits.extra_copies) + " != ejected " + std::to_string(ctx.flits.ejected) +
            " + in network " + std::to_string(in_net);
  if (error.empty() && drained && in_net != 0)
    error = "all packets delivered but " + std::to_string(in_net) + " flits remain in the network";

  const double us = ctx.clock.cycles_to_us(1.0);
  const double nodes = topology.num_nodes();
  const double window = static_cast<double>(cfg.sim.measure);
  nlohmann::json j;
  j["wormcast_version"] = WORMCAST_VERSION;
  j["experiment"] = cfg.name;
  j["config_file"] = cfg.source_file;
  j["seed"] = cfg.seed;
  JsonParamWriter w;
  ExperimentConfig copy = cfg;
  copy.visit(w);
  j["config"] = w.out;
  j["topology"] = {{"description", topology.description},
                   {"switches", topology.num_switches()},
                   {"nodes", topology.num_nodes()},
                   {"links", topology.links().size()},
                   {"root", routing->root()},
                   {"levels", routing->max_level() + 1}};
  auto& m = j["metrics"];
  m["cycles_simulated"] = now;
  m["measurement_window_cycles"] = {cfg.sim.warmup, measure_end};
  m["packets_created"] = ctx.ledger.created();
  m["packets_delivered"] = ctx.ledger.completed();
  m["measured_packets_created"] = ctx.stats.measured_created;
  m["measured_packets_delivered"] = ctx.stats.measured_delivered;
  m["latency_cycles"] = summarize(ctx.stats.latency, us);
  m["network_latency_cycles"] = summarize(ctx.stats.network_latency, us);
  m["offered_load"] = static_cast<double>(ctx.stats.window_flits_created) / (window * nodes);
  m["injected_load"] = static_cast<double>(ctx.stats.window_flits_injected) / (window * nodes);
  m["accepted_throughput"] = static_cast<double>(ctx.stats.window_flits_ejected) / (window * nodes);
  m["saturated"] = saturated;
  double util_sum = 0, util_max = 0;
  for (const auto& l : net.links) {
    const double u = now ? static_cast<double>(l->flits_sent()) / static_cast<double>(now) : 0.0;
    util_sum += u;
    util_max = std::max(util_max, u);
  }
  m["link_utilization"] = {{"mean", net.links.empty() ? 0.0 : util_sum / static_cast<double>(net.links.size())},
                           {"max", util_max}};
  int peak = 0;
  for (const auto& s : net.switches)
    for (int p = 0; p < s->ports(); ++p) peak = std::max(peak, s->buffer(p).peak_occupancy());
  m["input_buffer_peak_flits"] = peak;
  if (host_ni) {
    auto& mm = m["messages"];
    const double n = static_cast<double>(std::max<std::uint64_t>(1, ctx.msg_stats.measured_delivered));
    mm["sent"] = ctx.msg_stats.created;
    mm["received"] = ctx.msg_stats.delivered;
    mm["measured_expected"] = ctx.msg_stats.measured_expected;
    mm["measured_received"] = ctx.msg_stats.measured_delivered;
    mm["latency_cycles"] = summarize(ctx.msg_stats.latency, us);
    mm["breakdown_mean_cycles"] = {{"host_send", ctx.msg_stats.host_send / n},
                                   {"io_bus_send", ctx.msg_stats.io_bus_send / n},
                                   {"ni_send", ctx.msg_stats.ni_send / n},
                                   {"network", ctx.msg_stats.network / n},
                                   {"ni_receive", ctx.msg_stats.ni_receive / n},
                                   {"io_bus_receive", ctx.msg_stats.io_bus_receive / n},
                                   {"host_receive", ctx.msg_stats.host_receive / n}};
    double host_sum = 0, host_max = 0, ni_sum = 0, ni_max = 0, bus_sum = 0, bus_max = 0, occ_sum = 0;
    int ni_peak = 0;
    const double cyc = std::max<double>(1.0, static_cast<double>(now));
    for (const auto& node : net.nodes) {
      const double h = static_cast<double>(node->host.busy_cycles()) / cyc;
      const rtl::NiStats st = node->ni.stats();
      const double b = static_cast<double>(st.busy) / cyc;
      const double u = static_cast<double>(node->bus.busy_cycles()) / cyc;
      host_sum += h;
      host_max = std::max(host_max, h);
      ni_sum += b;
      ni_max = std::max(ni_max, b);
      bus_sum += u;
      bus_max = std::max(bus_max, u);
      occ_sum += st.occupancy_integral / cyc;
      ni_peak = std::max(ni_peak, st.peak_flits);
    }
    const double nn = std::max<double>(1.0, static_cast<double>(net.nodes.size()));
    m["nodes"] = {{"host_busy_fraction", {{"mean", host_sum / nn}, {"max", host_max}}},
                  {"ni_busy_fraction", {{"mean", ni_sum / nn}, {"max", ni_max}}},
                  {"io_bus_utilization", {{"mean", bus_sum / nn}, {"max", bus_max}}},
                  {"ni_memory_flits", {{"peak", ni_peak}, {"time_weighted_mean", occ_sum / nn}}}};
  }
  j["invariants"] = {{"exactly_once_checked_per_delivery", true},
                     {"messages_outstanding_at_end", ctx.messages.outstanding()},
                     {"all_packets_delivered", drained},
                     {"packets_outstanding_at_end", ctx.ledger.outstanding()},
                     {"flits_injected", ctx.flits.injected},
                     {"flits_ejected", ctx.flits.ejected},
                     {"flit_copies_from_replication", ctx.flits.extra_copies},
                     {"flits_in_network_at_end", in_net},
                     {"flits_conserved", conserved},
                     {"deadlock", net.watchdog().tripped()}};
  j["performance"] = {{"wall_seconds", wall},
                      {"cycles_per_second", wall > 0 ? static_cast<double>(now) / wall : 0.0},
                      {"flit_hops_per_second", wall > 0 ? static_cast<double>(ctx.flits.moves) / wall : 0.0},
                      {"flit_moves", ctx.flits.moves},
                      {"peak_rss_mb", peak_rss_mb()}};
  res.ok = error.empty();
  res.error = error;
  res.exit_code = res.ok ? 0 : 3;
  j["status"] = res.ok ? "ok" : "error";
  if (!res.ok) j["error"] = error;
  res.json = std::move(j);
  return res;
}

}  // namespace wormcast::tb
