// The run loop, written once for every network kind and workload: warm-up
// and measurement window, then the load stays on until the workload's
// measured work has completed (within sim.drain_limit), then creation stops
// and the network drains; the watchdog can end any phase (deadlock). A
// progress line on stderr is optional.
#pragma once

#include <string>

#include "rtl_models/core/sim_context.h"
#include "testbenches/app/experiment.h"
#include "testbenches/app/workloads/workload.h"
#include "topologies/networks/network_kind.h"

namespace wormcast::tb {

struct LoopOutcome {
  Cycle now = 0;             // cycles simulated
  bool saturated = false;    // measured work not complete within the drain limit
  std::string pending;       // if saturated: the workload's account of what is pending
  std::string saturation_reason;
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

  const SimSection& sim_;
  rtl::SimContext& ctx_;
  topo::NetworkModel& net_;
  Workload& workload_;
  bool progress_;
  Cycle now_ = 0, measure_end_ = 0;
};

}  // namespace wormcast::tb
