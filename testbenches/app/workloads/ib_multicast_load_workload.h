// Workload `ib_multicast_load` (traffic.kind: ib_multicast_load; an
// InfiniBand fat tree, topology.kind fat_tree, switch.decoder ib, node.model
// endpoint): seed003's schemes under an offered load. One group and its
// senders are drawn once per run (traffic.group / traffic.sources, or the
// lists traffic.members / traffic.senders) and the subnet manager programs
// their tables once (tb::IbMulticastService); each sender then multicasts
// messages of message.size bytes to the group by its own arrival process
// (traffic.arrivals: bernoulli or poisson) at load / message.size per cycle,
// so that it creates `load` message bytes per cycle. The packets of a
// multicast enter the sender's HCA queue at once; traffic.source_queue
// packets waiting in one HCA stop that sender for good and mark the run
// saturated.
//
// Measured, for the multicasts created in the window: the latency from
// creation to the last member's reception of the last packet, the mean over
// the members, the multicasts created and completed, the rates per cycle
// per sender, and the copies discarded at senders that are not members
// (opensm's SendOnly joins).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "testbenches/app/workloads/ib_multicast_service.h"
#include "testbenches/app/workloads/multicast_stream.h"
#include "testbenches/app/workloads/synthetic_workload.h"
#include "testbenches/app/workloads/workload.h"

namespace wormcast::tb {

class IbMulticastLoadWorkload : public StreamWorkload {
 public:
  std::string scheme = "cyclic";
  std::map<std::string, std::string> scheme_texts;   // the scheme's own options (traffic.sender_ports)
  int sources = 8;
  int group = 16;
  std::string senders, members;   // fixed lists instead of random draws
  std::string arrivals = "bernoulli";
  double load = 0.01;             // message bytes created per cycle per sender
  int source_queue = 200;         // packets waiting in one HCA before it counts as saturated
  int header_flits = 1;
  int flit_bytes = 1;
  int mtu = 0;
  MessageSection message;

  std::unique_ptr<Workload> clone() const override { return std::make_unique<IbMulticastLoadWorkload>(*this); }
  void visit(ParamVisitor& v, const rtl::NodeModel& nodes) override;
  void visit_sections(ParamVisitor& v, const rtl::NodeModel& nodes) override;
  void describe_facts(rtl::ConfigFacts& f) const override;
  void validate(const rtl::ConfigFacts& f, const rtl::NodeModel& nodes) const override;
  std::string node_count_problem(int nodes) const override;
  void attach(topo::NetworkModel& net, rtl::SimContext& ctx, const Rng& rng) override;
  void register_statistics(rtl::StatsScope s) const override;

  struct Run {
    std::unique_ptr<IbMulticastService> service;
    std::shared_ptr<MulticastStream> stream = std::make_shared<MulticastStream>();
    std::vector<rtl::NodeId> senders, members;
    int bytes = 1;
  };

 private:
  const char* queue_unit() const override { return "packets"; }
  std::shared_ptr<Run> run_;
};

}  // namespace wormcast::tb
