#include "testbenches/app/workloads/background_workload.h"

#include <queue>
#include <systemc>
#include <utility>
#include <vector>

#include "rtl_models/core/statistics.h"
#include "testbenches/app/config.h"

namespace wormcast::tb {

void BackgroundParams::visit(ParamVisitor& v) {
  v.real("load", load, "flits/cycle/node",
         "unicast flits each node creates per cycle beside the workload's own traffic: packets that share the "
         "node's channels and the network, not its software or NI firmware, counted in background.* statistics; "
         "0: none",
         0.0, 1.0);
  shape.visit_shape(v);
  v.count("source_queue", source_queue,
          "background packets of one node created and not yet delivered; a node that reaches it stops creating "
          "and the run is reported saturated",
          1, 1 << 24);
}

std::string BackgroundParams::problem() const {
  if (shape.header_flits > shape.packet_size)
    return "background.header_flits (" + std::to_string(shape.header_flits) + ") exceeds background.packet_size (" +
           std::to_string(shape.packet_size) + ")";
  return {};
}

struct BackgroundWorkload::Run {
  rtl::SimContext* ctx = nullptr;
  topo::NetworkModel* net = nullptr;
  std::vector<rtl::SyntheticSource> sources;   // by node
  std::vector<std::uint32_t> outstanding;      // by node: created, not yet delivered
  std::vector<char> stopped;                   // by node: reached source_queue, stopped for good
  using Due = std::pair<Cycle, rtl::NodeId>;
  std::priority_queue<Due, std::vector<Due>, std::greater<Due>> due;   // each node's next arrival
  std::uint32_t limit = 1;
  Cycle stop = UINT64_MAX;
  std::uint64_t created = 0, delivered = 0, measured_created = 0, measured_delivered = 0, stopped_nodes = 0;
  std::uint64_t window_flits_created = 0, window_flits_delivered = 0;   // in the window, while the load was on
  CycleSamples latency, network_latency;                           // measured packets

  void generate();
  void create(rtl::NodeId x, Cycle now);
  void received(const rtl::Packet& p, Cycle at);
  // Cycles the rates are over: the window's, or in trials those the load was on.
  double rate_cycles(Cycle now) const {
    const rtl::MeasureWindow& w = ctx->window;
    if (w.end != UINT64_MAX) return static_cast<double>(w.end - w.begin);
    return static_cast<double>(std::min(stop, now) - w.begin);
  }
};

// Each packet is queued a cycle before it is created (inject_background), so
// that it leaves in its own cycle whether the node's modules run before or
// after this thread in that cycle, as a packet endpoint's own source does.
// Arrivals at cycle 0 are queued before the simulation starts (attach).
void BackgroundWorkload::Run::generate() {
  while (!due.empty()) {
    const Cycle next = due.top().first;
    if (next >= stop) return;
    if (next - 1 > ctx->clock.now()) sc_core::wait(ctx->clock.until(next - 1));
    const Cycle now = ctx->clock.now();
    while (!due.empty() && due.top().first <= now + 1 && due.top().first < stop) {
      const auto [at, x] = due.top();
      due.pop();
      create(x, at);
    }
  }
}

void BackgroundWorkload::Run::create(rtl::NodeId x, Cycle at) {
  const auto i = static_cast<std::size_t>(x);
  if (outstanding[i] >= limit) {
    stopped[i] = 1;
    ++stopped_nodes;
    return;
  }
  auto p = std::make_shared<rtl::Packet>();
  sources[i].generate(*p);
  const int length = p->length;
  net->node(x).inject_background(p, at);
  ++outstanding[i];
  ++created;
  if (ctx->window.contains(at)) {   // what the packet's measured flag will say
    ++measured_created;
    window_flits_created += static_cast<std::uint64_t>(length);
  }
  if (sources[i].next_time() != UINT64_MAX) due.push({sources[i].next_time(), x});
}

void BackgroundWorkload::Run::received(const rtl::Packet& p, Cycle at) {
  --outstanding[static_cast<std::size_t>(p.src)];
  ++delivered;
  if (p.measured) {
    ++measured_delivered;
    latency.add(static_cast<std::uint32_t>(at - p.created));
    network_latency.add(static_cast<std::uint32_t>(at - p.injected));
  }
  if (ctx->window.contains(at) && at < stop) window_flits_delivered += static_cast<std::uint64_t>(p.length);
}

std::string BackgroundWorkload::node_count_problem(int nodes) const {
  if (nodes < 2) return "background traffic needs at least 2 nodes; the network has " + std::to_string(nodes);
  return rtl::pattern_problem(params_.shape, nodes, "background");
}

void BackgroundWorkload::attach(topo::NetworkModel& net, rtl::SimContext& ctx, const Rng& rng) {
  const int n = net.num_nodes();
  run_ = std::make_shared<Run>();
  Run& run = *run_;
  run.ctx = &ctx;
  run.net = &net;
  run.limit = static_cast<std::uint32_t>(params_.source_queue);
  rtl::TrafficParams shape = params_.shape;
  shape.load = params_.load;
  const Rng draws = rng.fork(kBackgroundRngStream);
  Run* r = run_.get();   // run_ outlives the simulation
  for (rtl::NodeId x = 0; x < n; ++x) {
    rtl::NodeHardware& node = net.node(x);
    if (!node.carries_background())
      throw ConfigError("background.load: node " + std::to_string(x) +
                        " cannot send background traffic (its node model has no packet path beside its own work)");
    run.sources.emplace_back(shape, x, n, draws.fork(static_cast<std::uint64_t>(x)));
    if (run.sources.back().next_time() != UINT64_MAX) run.due.push({run.sources.back().next_time(), x});
    node.set_background_sink([r](const rtl::Packet& p, Cycle at) { r->received(p, at); });
  }
  run.outstanding.assign(static_cast<std::size_t>(n), 0);
  run.stopped.assign(static_cast<std::size_t>(n), 0);
  while (!run.due.empty() && run.due.top().first == 0) {
    const rtl::NodeId x = run.due.top().second;
    run.due.pop();
    run.create(x, 0);
  }
  sc_core::sc_spawn([r] { r->generate(); }, "background_arrivals");
}

bool BackgroundWorkload::measured_pending(const rtl::SimContext& ctx) const {
  return run_ && (run_->stopped_nodes > 0 || measured_outstanding(ctx));
}

// Beside trials, what the background made while they ran does not hold the
// run: it is drained with the rest (and checked delivered) once they end.
bool BackgroundWorkload::measured_outstanding(const rtl::SimContext&) const {
  return run_ && !trials_ && run_->measured_delivered < run_->measured_created;
}

void BackgroundWorkload::stop_creating_at(Cycle c) {
  if (run_) run_->stop = std::min(run_->stop, c);
}

std::string BackgroundWorkload::pending_work(const rtl::SimContext&) const {
  if (!run_) return {};
  std::string s = std::to_string(run_->measured_created - run_->measured_delivered) + " of " +
                  std::to_string(run_->measured_created) + " measured background packets undelivered";
  if (run_->stopped_nodes > 0)
    s += "; " + std::to_string(run_->stopped_nodes) + " nodes reached background.source_queue (" +
         std::to_string(params_.source_queue) + ") and stopped creating";
  return s;
}

WorkCount BackgroundWorkload::work_count(const rtl::SimContext&) const {
  return run_ ? WorkCount{run_->created, run_->delivered} : WorkCount{};
}

void BackgroundWorkload::register_statistics(rtl::StatsScope s) const {
  const std::shared_ptr<const Run> run = run_;
  if (!run) return;
  // Registered last (after the workload beside it): its own owner, for
  // what follows.
  s.stats.set_owner(kBackgroundOwner);
  const double us = s.ctx.clock.cycles_to_us(1.0);
  const Cycle& now = s.now;
  const auto per_node_cycle = [run, &now](std::uint64_t flits) {
    const double cycles = run->rate_cycles(now) * static_cast<double>(run->sources.size());
    return cycles > 0 ? static_cast<double>(flits) / cycles : 0.0;
  };
  const std::string when = "created in the window (beside a workload of trials: while the trials ran)";
  s.stats.add("background.latency_cycles", "cycles", "background packets " + when + ": creation to tail delivered",
              [run, us] { return summarize_cycles(run->latency, us); });
  s.stats.add("background.network_latency_cycles", "cycles",
              "background packets " + when + ": head injected to tail delivered",
              [run, us] { return summarize_cycles(run->network_latency, us); });
  const std::string over = "the window (beside trials: the cycles the load was on)";
  s.stats.add("background.offered_load", "flits/cycle/node", "background flits created per cycle per node over " + over,
              [run, per_node_cycle] { return per_node_cycle(run->window_flits_created); });
  s.stats.add("background.accepted_load", "flits/cycle/node",
              "background flits delivered per cycle per node over " + over,
              [run, per_node_cycle] { return per_node_cycle(run->window_flits_delivered); });
  s.stats.add("background.packets_created", "packets", "background packets created (all of the run)",
              [run] { return run->created; });
  s.stats.add("background.packets_delivered", "packets", "background packets delivered (all of the run)",
              [run] { return run->delivered; });
  s.stats.add("background.measured_created", "packets", "background packets " + when,
              [run] { return run->measured_created; });
  s.stats.add("background.measured_delivered", "packets", "of those, delivered",
              [run] { return run->measured_delivered; });
  s.stats.add("background.stopped_nodes", "nodes", "nodes whose background source reached background.source_queue",
              [run] { return run->stopped_nodes; });
}

}  // namespace wormcast::tb
