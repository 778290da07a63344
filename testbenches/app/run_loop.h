// The run loop, written once for every network kind and workload: warm-up
// and measurement window, then the load stays on until the workload's
// measured work has completed (within sim.drain_limit), then creation stops
// and the network drains; the watchdog can end any phase (deadlock). Whether
// the run saturated is judged from its evidence (saturation.h). A progress
// line on stderr is optional.
#pragma once

#include <chrono>
#include <string>
#include <vector>

#include "rtl_models/core/sim_context.h"
#include "testbenches/app/experiment.h"
#include "testbenches/app/progress.h"
#include "testbenches/app/saturation.h"
#include "testbenches/app/workloads/workload.h"
#include "topologies/networks/network_kind.h"

namespace wormcast::tb {

struct LoopOutcome {
  Cycle now = 0;             // cycles simulated
  bool saturated = false;    // some evidence of saturation fired (saturation.h)
  std::vector<SaturationEvidence> saturation;   // the evidence that fired
  std::string saturation_reason;   // the evidence in words, with the busiest node resource (runner)
  bool drained = false;      // every packet and message delivered
  std::string error;         // an exception from the simulation, if any
};

class RunLoop {
 public:
  RunLoop(const SimSection& sim, rtl::SimContext& ctx, topo::NetworkModel& net, Workload& workload, bool progress)
      : sim_(sim), ctx_(ctx), net_(net), workload_(workload), progress_(progress) {}
  LoopOutcome run();

 private:
  void advance_to(Cycle target);
  bool stopped() { return net_.watchdog().tripped(); }
  void judge(LoopOutcome& out, Cycle load_end);
  void print_progress();

  const SimSection& sim_;
  rtl::SimContext& ctx_;
  topo::NetworkModel& net_;
  Workload& workload_;
  bool progress_;
  Cycle now_ = 0, measure_end_ = 0;
  bool load_on_ = true;
  RunPhase phase_ = RunPhase::warmup;
  std::chrono::steady_clock::time_point started_;
  std::vector<BacklogSample> backlog_;   // the workload's work at each stop while the load is on
};

}  // namespace wormcast::tb
