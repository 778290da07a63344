// Node model `processor` (node.model: processor): the processor of a
// direct-network node (rtl_models/node/direct_processor.h, seed001 §1.4/§1.8/§7.1)
// with one link pair per internal channel of its router: one (one-port) or
// one per external channel (router.ports: all_port). It runs software like
// host_ni (workloads give it programs through software()), without an NI
// or I/O bus: per-message overheads t_S / t_R on its one CPU. It can be
// used on switch networks too (one link pair).
#pragma once

#include <memory>
#include <string>

#include "rtl_models/node/direct_processor.h"
#include "rtl_models/node/node_model.h"

namespace wormcast::rtl {

class ProcessorNode : public NodeHardware {
 public:
  ProcessorNode(const std::string& name, NodeId id, int nodes, int pairs, const ProcessorParams& p, SimContext& ctx)
      : proc_(name.c_str(), id, nodes, pairs, p, ctx), credits_(p.rx_buffer_flits) {}
  FlitOutPort& link_out() override { return proc_.port(0).out; }
  FlitInPort& link_in() override { return proc_.port(0).in; }
  int receive_credits() const override { return credits_; }
  ProgramHost* software() override { return &proc_; }
  int link_pairs() const override { return proc_.ports(); }
  FlitOutPort& pair_out(int pair) override { return proc_.port(pair).out; }
  FlitInPort& pair_in(int pair) override { return proc_.port(pair).in; }
  void set_pair_selector(std::function<int(NodeId)> f) override { proc_.set_pair_selector(std::move(f)); }
  bool carries_background() const override { return true; }
  void inject_background(PacketPtr p, Cycle at) override { proc_.inject_background(std::move(p), at); }
  void set_background_sink(std::function<void(const Packet&, Cycle)> f) override {
    for (int i = 0; i < proc_.ports(); ++i) proc_.port(i).on_background = f;
  }
  int trace(sc_core::sc_trace_file* tf, const std::string& filter) override;
  std::string describe_blocked(Cycle now) const override;
  DirectProcessor& processor() { return proc_; }
  const DirectProcessor& processor() const { return proc_; }

 private:
  DirectProcessor proc_;
  int credits_;
};

class ProcessorModel : public NodeModel {
 public:
  ProcessorParams params;
  std::unique_ptr<NodeModel> clone() const override { return std::make_unique<ProcessorModel>(*this); }
  void visit(ParamVisitor& v) override;
  bool runs_software() const override { return true; }
  void packet_bound(ConfigFacts& f) const override;
  void validate(const ConfigFacts& f) const override;
  std::unique_ptr<NodeHardware> build(const std::string& name, NodeId id, int nodes, SimContext& ctx,
                                      bool) const override {
    return build_ports(name, id, nodes, ctx, 1);
  }
  bool multi_port() const override { return true; }
  std::unique_ptr<NodeHardware> build_ports(const std::string& name, NodeId id, int nodes, SimContext& ctx,
                                            int pairs) const override {
    return std::make_unique<ProcessorNode>(name, id, nodes, pairs, params, ctx);
  }
  void register_statistics(StatsScope s, const std::vector<NodeHardware*>& nodes) const override;
  std::string bottleneck(const std::vector<NodeHardware*>& nodes, Cycle now) const override;
};

}  // namespace wormcast::rtl
