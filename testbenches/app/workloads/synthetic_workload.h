// Workload `synthetic` (traffic.kind: synthetic): uniform random unicast at
// traffic.load flits/cycle/node with Bernoulli or Poisson arrivals. On
// packet endpoints it creates packets of traffic.packet_size flits; on nodes
// that run software (node.model host_ni) every host runs a program sending
// messages of message.size bytes and receiving all messages addressed to it.
#pragma once

#include <memory>
#include <vector>

#include "rtl_models/node/traffic.h"
#include "testbenches/app/workloads/message_traffic.h"
#include "testbenches/app/workloads/workload.h"

namespace wormcast::tb {

struct MessageSection {
  int size = 128;   // bytes (= flits) per message
  void visit(ParamVisitor& v) {
    v.flits("size", size, "message length (node.model host_ni); 1 flit = 1 byte, split into ni.packet_size packets");
  }
};

class SyntheticWorkload : public Workload {
 public:
  rtl::TrafficParams traffic;
  MessageSection message;
  int source_queue = 1000;   // packets (endpoints) or messages (hosts) waiting at one node

  std::unique_ptr<Workload> clone() const override { return std::make_unique<SyntheticWorkload>(*this); }
  void visit(ParamVisitor& v, const rtl::NodeModel&) override;
  void visit_sections(ParamVisitor& v, const rtl::NodeModel& nodes) override;
  void describe_facts(rtl::ConfigFacts& f) const override;
  void validate(const rtl::ConfigFacts& f, const rtl::NodeModel& nodes) const override;
  void attach(topo::NetworkModel& net, rtl::SimContext& ctx, const Rng& rng) override;
  bool measured_pending(const rtl::SimContext& ctx) const override;
  bool measured_outstanding(const rtl::SimContext& ctx) const override;
  void stop_creating_at(Cycle c) override;
  std::string pending_work(const rtl::SimContext& ctx) const override;
  std::string node_count_problem(int nodes) const override;
  std::string background_problem() const override {
    return "background.load: traffic.kind synthetic is unicast traffic itself (raise traffic.load); background "
           "traffic runs beside the other workloads";
  }
  void register_statistics(rtl::StatsScope s) const override;
  WorkCount work_count(const rtl::SimContext& ctx) const override;
  std::string work_unit() const override { return software_ ? "messages" : "packets"; }

 private:
  bool software_ = false;
  Cycle window_end_ = UINT64_MAX;
  std::vector<rtl::Endpoint*> endpoints_;
  std::vector<std::shared_ptr<MessageTrafficProgram>> programs_;
  // Arrival -> send call of the measured messages, all hosts (message traffic).
  std::shared_ptr<rtl::WindowedSamples> source_waits_ = std::make_shared<rtl::WindowedSamples>();
};

}  // namespace wormcast::tb
