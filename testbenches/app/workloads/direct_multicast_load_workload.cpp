#include "testbenches/app/workloads/direct_multicast_load_workload.h"

#include <algorithm>
#include <stdexcept>

#include "algorithms/plan_network.h"
#include "algorithms/scheme_options.h"
#include "rtl_models/core/statistics.h"
#include "rtl_models/node/processor_node.h"
#include "testbenches/app/config.h"
#include "topologies/networks/direct_network_kind.h"

namespace wormcast::tb {

using Run = DirectMulticastLoadWorkload::Run;

namespace {

const char* kKind = "traffic.kind direct_multicast_load";

// The schemes' whole-number options, as direct_multicast declares them.
const std::vector<algo::OptionHelp>& count_options() {
  static const std::vector<algo::OptionHelp> list =
      algo::option_helps(algo::direct_scheme_options(), "; 0 = not set", true);
  return list;
}

std::vector<rtl::NodeId> node_list(const topo::DirectNetwork& dn, const std::string& text, const std::string& key) {
  try {
    return algo::parse_node_list(algo::direct_network(dn.topology()), text, -1, key);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
}

}  // namespace

void DirectMulticastLoadWorkload::visit(ParamVisitor& v, const rtl::NodeModel&) {
  v.choice("scheme", scheme, algo::direct_schemes().names(),
           "the multicast scheme of every multicast (`wormcast plan --list` describes each; as traffic.kind "
           "direct_multicast)");
  for (const algo::OptionHelp& o : count_options())
    v.count(o.key.c_str(), scheme_counts[o.key], o.help.c_str(), 0, 1 << 20);
  v.count("degree", degree, "destinations per multicast, drawn uniformly per multicast (the source excluded)", 1,
          1 << 20);
  v.text("destinations", destinations,
         "a fixed group (node numbers or names such as (1,2)): every multicast goes to its members but the source; "
         "empty: random sets of `degree` nodes");
  v.text("sources", sources, "the nodes that create multicasts (node numbers or names); empty: every node");
  v.choice("arrivals", arrivals, {"bernoulli", "poisson"},
           "each source's arrival process: bernoulli (at most one multicast per cycle) or poisson (exponential gaps)");
  v.real("load", load, "flits/cycle/source",
         "message flits created per cycle per source (multicasts at load / message.size per cycle); the "
         "network delivers degree * load", 0.0, 1.0);
  v.count("source_queue", source_queue,
          "multicasts waiting at one source before it stops and the run counts as saturated", 1, 1 << 20);
}

void DirectMulticastLoadWorkload::visit_sections(ParamVisitor& v, const rtl::NodeModel&) {
  v.begin_section("message", "every multicast's message (one packet: header flits + 1 flit per byte)");
  message.visit(v);
  v.end_section();
}

std::map<std::string, std::string> DirectMulticastLoadWorkload::scheme_options() const {
  std::map<std::string, std::string> given;
  for (const auto& [key, value] : scheme_counts)
    if (value != 0) given[key] = std::to_string(value);
  return given;
}

void DirectMulticastLoadWorkload::validate(const rtl::ConfigFacts& f, const rtl::NodeModel& nodes) const {
  if (!dynamic_cast<const rtl::ProcessorModel*>(&nodes))
    throw std::invalid_argument(f.where + ": " + kKind + " needs node.model processor");
  try {
    algo::set_options(*algo::direct_schemes().make(scheme), scheme_options(), algo::experiment_keys(scheme));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(f.where + ": " + e.what());
  }
}

std::string DirectMulticastLoadWorkload::node_count_problem(int nodes) const {
  if (destinations.empty() && degree >= nodes)
    return "traffic.degree " + std::to_string(degree) + " needs more than the " + std::to_string(nodes) +
           " nodes of the network";
  return {};
}

void DirectMulticastLoadWorkload::attach(topo::NetworkModel& net, rtl::SimContext& ctx, const Rng& rng) {
  auto* dn = dynamic_cast<topo::DirectNetwork*>(&net);
  if (!dn)
    throw ConfigError(std::string(kKind) + " needs a direct network (topology.kind torus, mesh or hypercube); "
                      "on a switch network use traffic.kind multicast_load");
  run_ = std::make_shared<Run>();
  Run& run = *run_;
  run.ctx = &ctx;
  run.nodes = net.num_nodes();
  run.degree = degree;
  run.bytes = message.size;
  run.queue_limit = source_queue;
  if (!destinations.empty()) {
    run.group = node_list(*dn, destinations, "traffic.destinations");
    if (run.group.size() < 2 && !sources.empty())
      for (rtl::NodeId s : node_list(*dn, sources, "traffic.sources"))
        if (s == run.group.front())
          throw ConfigError("traffic.destinations: a group of one node, which is also a source in traffic.sources");
  }
  std::vector<rtl::NodeId> from;
  if (sources.empty()) {
    for (rtl::NodeId x = 0; x < run.nodes; ++x) from.push_back(x);
  } else {
    from = node_list(*dn, sources, "traffic.sources");
  }
  if (run.group.size() == 1) {
    from.erase(std::remove(from.begin(), from.end(), run.group.front()), from.end());
    if (from.empty()) throw ConfigError("traffic.sources: only the one member of traffic.destinations");
  }
  const ArrivalKind kind = arrival_kind(arrivals);
  const double rate = load / static_cast<double>(message.size);
  for (rtl::NodeId x : from)
    run.sources.push_back({x, ArrivalProcess(kind, rate, rng.fork(0x6d6c000000ULL + static_cast<std::uint64_t>(x))),
                           rng.fork(0x6d73000000ULL + static_cast<std::uint64_t>(x))});
  try {
    run.service = std::make_unique<DirectMulticastService>(net, ctx.clock, ServiceSite{kKind, "", ""}, scheme,
                                                           scheme_options());
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());   // names traffic.scheme and what the network lacks
  }
  Run* r = &run;   // a raw pointer: the thread may still be suspended when the run ends (run_ outlives it)
  run.service->on_delivery([r](const Multicast&, rtl::NodeId, Cycle at) { r->window_deliveries.add(r->ctx->window, at); });
  run.service->on_complete([r](const Multicast& m) { r->completed_one(m); });
  sc_core::sc_spawn([r] { r->generate(); }, "direct_multicast_arrivals");
}

Cycle Run::next_arrival() const {
  Cycle next = UINT64_MAX;
  for (const Source& s : sources)
    if (!s.overflowed) next = std::min(next, s.arrivals.peek());
  return next;
}

// One thread creates every source's multicasts at their arrival cycles.
void Run::generate() {
  for (;;) {
    const Cycle next = next_arrival();
    if (next >= stop) return;
    if (next > ctx->clock.now()) sc_core::wait(ctx->clock.until(next));
    const Cycle now = ctx->clock.now();
    if (now >= stop) return;
    for (Source& s : sources)
      while (!s.overflowed && s.arrivals.peek() <= now) create(s, s.arrivals.pop());
  }
}

void Run::create(Source& s, Cycle at) {
  if (service->waiting(s.node) >= static_cast<std::size_t>(queue_limit)) {
    s.overflowed = true;
    return;
  }
  std::vector<rtl::NodeId> dests;
  if (!group.empty()) {
    for (rtl::NodeId d : group)
      if (d != s.node) dests.push_back(d);
  } else {
    pool.clear();
    for (rtl::NodeId x = 0; x < nodes; ++x)
      if (x != s.node) pool.push_back(x);
    draw_to_front(s.rng, pool, static_cast<std::size_t>(degree));
    dests.assign(pool.begin(), pool.begin() + degree);
  }
  service->multicast(s.node, dests, bytes);
  ++created;
  window_created.add(ctx->window, at);
  if (ctx->window.contains(at)) {
    ++measured_created;
    ++measured_open;
  }
}

void Run::completed_one(const Multicast& m) {
  ++completed;
  messages += static_cast<std::uint64_t>(m.messages_sent());
  if (!ctx->window.contains(m.requested())) return;
  --measured_open;
  latency.push_back(static_cast<std::uint32_t>(m.latency()));
  double sum = 0;
  for (const Multicast::Delivery& d : m.deliveries()) sum += static_cast<double>(d.at - m.requested());
  mean_latency.push_back(sum / static_cast<double>(m.deliveries().size()));
}

bool DirectMulticastLoadWorkload::measured_pending(const rtl::SimContext& ctx) const {
  if (!run_) return false;
  for (const Run::Source& s : run_->sources)
    if (s.overflowed) return true;
  return measured_outstanding(ctx);
}

bool DirectMulticastLoadWorkload::measured_outstanding(const rtl::SimContext&) const {
  return run_ && run_->measured_open > 0;
}

void DirectMulticastLoadWorkload::stop_creating_at(Cycle c) {
  if (run_) run_->stop = c;
}

std::string DirectMulticastLoadWorkload::pending_work(const rtl::SimContext& ctx) const {
  if (!run_) return "";
  std::size_t waiting = 0, overflowed = 0;
  for (const Run::Source& s : run_->sources) {
    waiting += run_->service->waiting(s.node);
    overflowed += s.overflowed ? 1 : 0;
  }
  return std::to_string(run_->measured_open) + " of " + std::to_string(run_->measured_created) +
         " measured multicasts incomplete, " + std::to_string(waiting) + " waiting at their sources, " +
         std::to_string(ctx.messages.outstanding()) + " messages outstanding" +
         (overflowed ? "; " + std::to_string(overflowed) + " sources reached traffic.source_queue (saturated)" : "");
}

WorkCount DirectMulticastLoadWorkload::work_count(const rtl::SimContext&) const {
  if (!run_) return {};
  return {run_->created, run_->completed};
}

void DirectMulticastLoadWorkload::register_statistics(rtl::StatsScope s) const {
  auto run = run_;
  const rtl::SimContext& ctx = s.ctx;
  const double us = ctx.clock.cycles_to_us(1.0);
  const auto per = [run, &ctx] {   // window cycles x sources
    const Cycle w = ctx.window.end == UINT64_MAX ? 0 : ctx.window.end - ctx.window.begin;
    return static_cast<double>(w) * static_cast<double>(run->sources.size());
  };
  s.stats.add("multicast.latency_cycles", "cycles",
              "multicasts created in the window: creation at the source to the end of t_R at the last destination",
              [run, us] { return summarize_cycles(run->latency, us); });
  s.stats.add("multicast.mean_latency_cycles", "cycles",
              "multicasts created in the window: creation to the end of t_R, the mean over its destinations: count, "
              "mean over multicasts, min, max",
              [run, us] { return summarize_values(run->mean_latency, us); });
  s.stats.add("multicast.created", "multicasts", "multicasts created (all of the run)", [run] { return run->created; });
  s.stats.add("multicast.completed", "multicasts", "multicasts delivered to every destination (all of the run)",
              [run] { return run->completed; });
  s.stats.add("multicast.measured_created", "multicasts", "multicasts created in the window",
              [run] { return run->measured_created; });
  s.stats.add("multicast.measured_completed", "multicasts", "of those, delivered to every destination",
              [run] { return run->measured_created - run->measured_open; });
  s.stats.add("multicast.offered_rate", "multicasts/cycle/source", "multicasts created in the window per cycle per "
              "source (expected: load / message.size)",
              [run, per] { return per() > 0 ? static_cast<double>(run->window_created.value()) / per() : 0.0; });
  s.stats.add("multicast.delivered_rate", "deliveries/cycle/source", "destinations that received a multicast in the "
              "window, per cycle per source (expected below saturation: degree * offered_rate)",
              [run, per] { return per() > 0 ? static_cast<double>(run->window_deliveries.value()) / per() : 0.0; });
  s.stats.add("multicast.messages", "messages", "unicasts or worms sent by sources and relays, completed multicasts",
              [run] { return run->messages; });
  s.stats.add("multicast.sources", "nodes", "nodes creating multicasts", [run] { return run->sources.size(); });
}

}  // namespace wormcast::tb
