// Background traffic: unicast packets that every node sends beside the
// workload's own work (section `background`, on with background.load > 0),
// as another device at the node would: they share the node's channels and
// the network with the workload's packets but not its software or NI
// firmware (NodeHardware::inject_background), and they are counted apart
// (background.* statistics) from the workload's (multicast.*, messages.*).
// The run-wide packet statistics (latency_cycles, offered_load, ...) count
// every packet of the run, both classes.
//
// Each node has its own arrival process and destinations, as traffic.kind
// synthetic's (pattern, process, packet_size, header_flits). A packet is
// measured when it is created in the measurement window; in a workload of
// trials (direct_multicast, ib_multicast, single_multicast) while the trials
// run, the rates then over the cycles the load was on.
#pragma once

#include <memory>
#include <string>

#include "rtl_models/node/traffic.h"
#include "testbenches/app/workloads/workload.h"

namespace wormcast::tb {

struct BackgroundParams {
  double load = 0;            // flits/cycle/node; 0: no background traffic
  rtl::TrafficParams shape;   // pattern, process, packet sizes (its own load unused)
  int source_queue = 1000;    // background packets of one node created and not yet delivered
  bool on() const { return load > 0; }
  void visit(ParamVisitor& v);
  // What of it the configuration cannot run, naming the keys ("" if it can).
  std::string problem() const;
};

class BackgroundWorkload : public Workload {
 public:
  // `trials`: the workload beside it is one of trials (Workload::of_trials).
  BackgroundWorkload(const BackgroundParams& p, bool trials) : params_(p), trials_(trials) {}
  std::unique_ptr<Workload> clone() const override { return std::make_unique<BackgroundWorkload>(*this); }
  void visit(ParamVisitor& v, const rtl::NodeModel&) override { params_.visit(v); }
  std::string node_count_problem(int nodes) const override;
  void attach(topo::NetworkModel& net, rtl::SimContext& ctx, const Rng& rng) override;
  bool measured_pending(const rtl::SimContext& ctx) const override;
  bool measured_outstanding(const rtl::SimContext& ctx) const override;
  void stop_creating_at(Cycle c) override;
  void register_statistics(rtl::StatsScope s) const override;
  std::string pending_work(const rtl::SimContext& ctx) const override;
  WorkCount work_count(const rtl::SimContext& ctx) const override;
  std::string work_unit() const override { return "background packets"; }

  struct Run;

 private:
  BackgroundParams params_;
  bool trials_;
  std::shared_ptr<Run> run_;
};

// The owner its statistics are listed under (wormcast stats).
inline const char* kBackgroundOwner = "background traffic (background.load)";

// The fork of the run's generator the background draws from (apart from
// the workload's, whose draws do not change when a background is added).
constexpr std::uint64_t kBackgroundRngStream = 0x6267000000ULL;

}  // namespace wormcast::tb
