// Node model `endpoint` (node.model: endpoint): a packet Endpoint at the end
// of the node's link: synthetic packet sources and sinks, no software.
#pragma once

#include <memory>
#include <string>

#include "rtl_models/node/node_model.h"

namespace wormcast::rtl {

class EndpointNode : public NodeHardware {
 public:
  EndpointNode(const std::string& name, NodeId id, SimContext& ctx, bool vct, int credits)
      : ep_(name.c_str(), id, ctx, vct), credits_(credits) {}
  FlitOutPort& link_out() override { return ep_.out; }
  FlitInPort& link_in() override { return ep_.in; }
  int receive_credits() const override { return credits_; }
  Endpoint* endpoint() override { return &ep_; }
  bool carries_background() const override { return true; }
  void inject_background(PacketPtr p, Cycle at) override {
    p->background = true;
    ep_.inject_created_at(std::move(p), at);
  }
  void set_background_sink(std::function<void(const Packet&, Cycle)> f) override { ep_.on_background = std::move(f); }
  int trace(sc_core::sc_trace_file* tf, const std::string& filter) override;
  std::string describe_blocked(Cycle now) const override;

 private:
  Endpoint ep_;
  int credits_;
};

class EndpointModel : public NodeModel {
 public:
  EndpointParams params;
  std::unique_ptr<NodeModel> clone() const override { return std::make_unique<EndpointModel>(*this); }
  void visit(ParamVisitor& v) override;
  bool runs_software() const override { return false; }
  void packet_bound(ConfigFacts& f) const override;
  void validate(const ConfigFacts& f) const override;
  std::unique_ptr<NodeHardware> build(const std::string& name, NodeId id, int num_nodes, SimContext& ctx,
                                      bool vct) const override;
  void register_statistics(StatsScope, const std::vector<NodeHardware*>&) const override {}
};

}  // namespace wormcast::rtl
