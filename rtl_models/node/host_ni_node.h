// Node model `host_ni` (node.model: host_ni): a ComputeNode (host processor,
// I/O bus, NI coprocessor; seed000 §2.3, Fig. 2b) whose link ports are the
// NI's. It registers the message statistics (latency and its breakdown) and
// the per-node busy fractions and NI memory occupancy.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rtl_models/node/compute_node.h"
#include "rtl_models/node/node_model.h"

namespace wormcast::rtl {

// One component of a message's latency as a node model names it: its key in
// messages.breakdown_mean_cycles and the MessageStats sum it reads.
struct LatencyPart {
  const char* name;
  double MessageStats::*sum;
};

// The message statistics (messages.*: counts, latency and its breakdown),
// shared by the node models that run software. `parts` are the components
// the model has, in the order a message passes them; they sum to the
// latency, so a component the model does not name must stay zero (the
// statistic refuses to report otherwise rather than drop cycles).
void register_message_statistics(StatsScope s, std::vector<LatencyPart> parts);

class HostNiNode : public NodeHardware {
 public:
  HostNiNode(const std::string& name, NodeId id, int nodes, const HostParams& hp, const IoBusParams& bp,
             const NiParams& np, SimContext& ctx, bool vct)
      : node_(name.c_str(), id, nodes, hp, bp, np, ctx, vct), credits_(np.receive_queue) {}
  FlitOutPort& link_out() override { return node_.ni.out; }
  FlitInPort& link_in() override { return node_.ni.in; }
  int receive_credits() const override { return credits_; }
  HostProcessor* host() override { return &node_.host; }
  bool carries_background() const override { return true; }
  void inject_background(PacketPtr p, Cycle at) override { node_.ni.inject_background(std::move(p), at); }
  void set_background_sink(std::function<void(const Packet&, Cycle)> f) override {
    node_.ni.on_background = std::move(f);
  }
  int trace(sc_core::sc_trace_file* tf, const std::string& filter) override;
  std::string describe_blocked(Cycle now) const override;
  ComputeNode& node() { return node_; }
  const ComputeNode& node() const { return node_; }

 private:
  ComputeNode node_;
  int credits_;
};

// The node of HostNiModel with external_hosts: the NI and I/O bus only, the
// host being the user's (compute_node.h, NiNode).
class NiOnlyNode : public NodeHardware {
 public:
  NiOnlyNode(const std::string& name, NodeId id, const IoBusParams& bp, const NiParams& np, SimContext& ctx, bool vct)
      : node_(name.c_str(), id, bp, np, ctx, vct), credits_(np.receive_queue) {}
  FlitOutPort& link_out() override { return node_.ni.out; }
  FlitInPort& link_in() override { return node_.ni.in; }
  int receive_credits() const override { return credits_; }
  bool carries_background() const override { return true; }
  void inject_background(PacketPtr p, Cycle at) override { node_.ni.inject_background(std::move(p), at); }
  void set_background_sink(std::function<void(const Packet&, Cycle)> f) override {
    node_.ni.on_background = std::move(f);
  }
  int trace(sc_core::sc_trace_file* tf, const std::string& filter) override;
  std::string describe_blocked(Cycle now) const override;
  NiNode& node() { return node_; }
  const NiNode& node() const { return node_; }

 private:
  NiNode node_;
  int credits_;
};

class HostNiModel : public NodeModel {
 public:
  HostParams host;
  IoBusParams bus;
  NiParams ni;
  // Not a parameter: a network embedded in a user's model whose own CPUs and
  // memories drive the NIs (embed::NetworkOptions::user_hosts) builds
  // NiOnlyNodes, without wormcast's host processor.
  bool external_hosts = false;
  std::unique_ptr<NodeModel> clone() const override { return std::make_unique<HostNiModel>(*this); }
  void visit(ParamVisitor& v) override;
  bool runs_software() const override { return true; }
  void packet_bound(ConfigFacts& f) const override;
  void validate(const ConfigFacts& f) const override;
  std::unique_ptr<NodeHardware> build(const std::string& name, NodeId id, int nodes, SimContext& ctx,
                                      bool vct) const override {
    if (external_hosts) return std::make_unique<NiOnlyNode>(name, id, bus, ni, ctx, vct);
    HostParams hp = host;
    hp.packet_bytes = ni.packet_size;   // host.overheads: packet counts the NI's packets
    return std::make_unique<HostNiNode>(name, id, nodes, hp, bus, ni, ctx, vct);
  }
  void register_statistics(StatsScope s, const std::vector<NodeHardware*>& nodes) const override;
  std::string bottleneck(const std::vector<NodeHardware*>& nodes, Cycle now) const override;
};

}  // namespace wormcast::rtl
