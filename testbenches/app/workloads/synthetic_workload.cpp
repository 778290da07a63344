#include "testbenches/app/workloads/synthetic_workload.h"

#include "rtl_models/core/statistics.h"
#include "testbenches/app/config.h"

namespace wormcast::tb {

void SyntheticWorkload::visit(ParamVisitor& v, const rtl::NodeModel&) {
  traffic.visit(v);
  v.count("source_queue", source_queue,
          "most packets (or messages, on hosts) waiting at one source; a source that reaches it stops "
          "creating and the run is reported saturated",
          1, 1 << 24);
}

void SyntheticWorkload::visit_sections(ParamVisitor& v, const rtl::NodeModel& nodes) {
  if (!nodes.runs_software()) return;   // packets at endpoints: no messages
  v.begin_section("message", "messages (node.model host_ni)");
  message.visit(v);
  v.end_section();
}

void SyntheticWorkload::describe_facts(rtl::ConfigFacts& f) const {
  f.workload_packet_flits = traffic.packet_size;
  f.workload_packet_key = "traffic.packet_size";
}

void SyntheticWorkload::validate(const rtl::ConfigFacts& f, const rtl::NodeModel& nodes) const {
  if (nodes.runs_software() && traffic.pattern != "uniform")
    throw std::invalid_argument(f.where + ": traffic.pattern " + traffic.pattern +
                                ": only uniform is implemented for message traffic on hosts (node.model host_ni)");
  if (traffic.header_flits > traffic.packet_size)
    throw std::invalid_argument(f.where + ": traffic.header_flits (" + std::to_string(traffic.header_flits) +
                                ") exceeds traffic.packet_size (" + std::to_string(traffic.packet_size) + ")");
}

std::string SyntheticWorkload::node_count_problem(int n) const {
  if (n < 2) return "traffic.kind synthetic: uniform traffic needs at least 2 nodes; the network has " + std::to_string(n);
  return rtl::pattern_problem(traffic, n);
}

void SyntheticWorkload::attach(topo::NetworkModel& net, rtl::SimContext& ctx, const Rng& rng) {
  const int n = net.num_nodes();   // enough for the pattern (node_count_problem)
  window_end_ = ctx.window.end;
  // A fresh record per run: a copied workload (ExperimentConfig copies
  // clone it) must not share its predecessor's vector.
  source_waits_ = std::make_shared<rtl::WindowedSamples>();
  const auto limit = static_cast<std::size_t>(source_queue);
  for (int i = 0; i < n; ++i) {
    rtl::NodeHardware& node = net.node(i);
    const auto id = static_cast<std::uint64_t>(i);
    if (rtl::ProgramHost* host = node.software()) {
      software_ = true;
      auto prog =
          std::make_shared<MessageTrafficProgram>(traffic, message.size, i, n, rng.fork(0x7200000000ULL + id), limit);
      prog->record_waits(&ctx.window, source_waits_.get());
      programs_.push_back(prog);
      host->set_program([prog](rtl::HostApi& h) { (*prog)(h); });
    } else if (rtl::Endpoint* ep = node.endpoint()) {
      ep->set_source(std::make_unique<rtl::SyntheticSource>(traffic, i, n, rng.fork(0x7100000000ULL + id)), limit);
      endpoints_.push_back(ep);
    } else {
      throw std::invalid_argument("traffic.kind synthetic: node " + std::to_string(i) +
                                  " has neither a packet endpoint nor a host");
    }
  }
}

bool SyntheticWorkload::measured_pending(const rtl::SimContext& ctx) const {
  for (const auto* ep : endpoints_)
    if (ep->source_overflowed()) return true;
  for (const auto& prog : programs_)
    if (prog->overflowed()) return true;
  return measured_outstanding(ctx);
}

// An overflowed program has stopped (its later arrivals are never created),
// so unsent_arrival_before sees only the messages it queued.
bool SyntheticWorkload::measured_outstanding(const rtl::SimContext& ctx) const {
  for (const auto& prog : programs_)
    if (prog->unsent_arrival_before(window_end_)) return true;
  return software_ ? ctx.msg_stats.measured_delivered < ctx.msg_stats.measured_expected
                   : ctx.stats.measured_delivered < ctx.stats.measured_created;
}

std::string SyntheticWorkload::pending_work(const rtl::SimContext& ctx) const {
  std::size_t overflowed = 0, unsent = 0;
  for (const auto* ep : endpoints_) overflowed += ep->source_overflowed();
  for (const auto& prog : programs_) {
    overflowed += prog->overflowed();
    unsent += prog->unsent_arrival_before(window_end_);
  }
  std::string s;
  if (software_)
    s = std::to_string(ctx.msg_stats.measured_expected - ctx.msg_stats.measured_delivered) + " of " +
        std::to_string(ctx.msg_stats.measured_expected) + " measured message deliveries incomplete";
  else
    s = std::to_string(ctx.stats.measured_created - ctx.stats.measured_delivered) + " of " +
        std::to_string(ctx.stats.measured_created) + " measured packets undelivered";
  if (unsent) s += "; " + std::to_string(unsent) + " hosts have not yet sent messages due in the window";
  if (overflowed)
    s += "; " + std::to_string(overflowed) + " sources reached traffic.source_queue (" +
         std::to_string(source_queue) + ") and stopped creating";
  return s;
}

// On hosts: messages, those waiting for the CPU included (sent = ids given).
WorkCount SyntheticWorkload::work_count(const rtl::SimContext& ctx) const {
  if (!software_) return Workload::work_count(ctx);
  const std::uint64_t sent = ctx.next_message_id - 1;
  WorkCount w{sent, sent - ctx.messages.outstanding()};
  for (const auto& prog : programs_) w.arrived += prog->waiting();
  return w;
}

void SyntheticWorkload::register_statistics(rtl::StatsScope s) const {
  if (!software_) return;
  auto waits = source_waits_;
  const rtl::SimContext& ctx = s.ctx;
  s.stats.add("messages.source_wait_cycles", "cycles",
              "measured messages: arrival (traffic process) to the send call, i.e. waiting for the host CPU; "
              "latency from arrival = this + messages.latency_cycles",
              [waits, &ctx] { return summarize_cycles(waits->samples(), ctx.clock.cycles_to_us(1.0)); });
}

void SyntheticWorkload::stop_creating_at(Cycle c) {
  for (auto* ep : endpoints_) ep->stop_creating_at(c);
  for (auto& prog : programs_) prog->stop_at(c);
}

}  // namespace wormcast::tb
