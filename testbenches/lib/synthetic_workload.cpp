#include "testbenches/lib/synthetic_workload.h"

namespace wormcast::tb {

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

void SyntheticWorkload::validate(const rtl::ConfigFacts& f, const rtl::NodeModel&) const {
  if (traffic.header_flits > traffic.packet_size)
    throw std::invalid_argument(f.where + ": traffic.header_flits (" + std::to_string(traffic.header_flits) +
                                ") exceeds traffic.packet_size (" + std::to_string(traffic.packet_size) + ")");
}

void SyntheticWorkload::attach(topo::NetworkModel& net, rtl::SimContext&, const Rng& rng) {
  const int n = net.num_nodes();
  for (int i = 0; i < n; ++i) {
    rtl::NodeHardware& node = net.node(i);
    const auto id = static_cast<std::uint64_t>(i);
    if (rtl::HostProcessor* host = node.host()) {
      software_ = true;
      auto prog = std::make_shared<MessageTrafficProgram>(traffic, message.size, i, n, rng.fork(0x7200000000ULL + id));
      programs_.push_back(prog);
      host->set_program([prog](rtl::HostApi& h) { (*prog)(h); });
    } else if (rtl::Endpoint* ep = node.endpoint()) {
      ep->set_source(std::make_unique<rtl::SyntheticSource>(traffic, i, n, rng.fork(0x7100000000ULL + id)));
      endpoints_.push_back(ep);
    } else {
      throw std::invalid_argument("traffic.kind synthetic: node " + std::to_string(i) +
                                  " has neither a packet endpoint nor a host");
    }
  }
}

bool SyntheticWorkload::measured_pending(const rtl::SimContext& ctx) const {
  return software_ ? ctx.msg_stats.measured_delivered < ctx.msg_stats.measured_expected
                   : ctx.stats.measured_delivered < ctx.stats.measured_created;
}

void SyntheticWorkload::stop_creating_at(Cycle c) {
  for (auto* ep : endpoints_) ep->stop_creating_at(c);
  for (auto& prog : programs_) prog->stop_at(c);
}

}  // namespace wormcast::tb
