#include "rtl_models/node/endpoint_node.h"

#include <fnmatch.h>

namespace wormcast::rtl {

int EndpointNode::trace(sc_core::sc_trace_file* tf, const std::string& filter) {
  if (fnmatch(filter.c_str(), ep_.name(), 0) != 0) return 0;
  if (tf) ep_.trace(tf);
  return 1;
}

std::string EndpointNode::describe_blocked(Cycle now) const {
  return ep_.queued_packets() > 0 || ep_.receiving() ? ep_.describe(now) : std::string();
}

void EndpointModel::visit(ParamVisitor& v) {
  v.begin_section("endpoint", "packet endpoint (node.model endpoint)");
  params.visit(v);
  v.end_section();
}

void EndpointModel::packet_bound(ConfigFacts& f) const {
  f.packet_flits = f.workload_packet_flits;
  f.packet_what = f.workload_packet_key;
}

void EndpointModel::validate(const ConfigFacts& f) const {
  if (f.whole_packet_admission && f.workload_packet_flits > 0 && params.rx_buffer_flits < f.workload_packet_flits)
    throw std::invalid_argument(f.where + ": endpoint.rx_buffer (" + std::to_string(params.rx_buffer_flits) +
                                ") is smaller than a packet; virtual cut-through could never deliver");
}

std::unique_ptr<NodeHardware> EndpointModel::build(const std::string& name, NodeId id, int, SimContext& ctx,
                                                   bool vct) const {
  return std::make_unique<EndpointNode>(name, id, ctx, vct, params.rx_buffer_flits);
}

std::unique_ptr<NodeModel> make_endpoint_node_model() { return std::make_unique<EndpointModel>(); }

}  // namespace wormcast::rtl
