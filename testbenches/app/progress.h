// The progress line of a run (`wormcast run --progress`, or stderr a
// terminal): the phase, where it is, the simulation rate and, while the
// end of the phase is known, how long it will take. SystemC-free.
#pragma once

#include <string>

#include "rtl_models/core/clock.h"
#include "testbenches/app/saturation.h"

namespace wormcast::tb {

enum class RunPhase { warmup, measuring, waiting, draining };

struct ProgressState {
  RunPhase phase = RunPhase::warmup;
  Cycle now = 0;
  Cycle measure_end = 0;     // warm-up + measurement: the end the percentage and ETA refer to
  double seconds = 0;        // wall time since the run loop started
  WorkCount work;            // the workload's, in `unit`
  std::string unit;          // "packets", "messages", "multicasts"
  std::uint64_t in_flight = 0;   // packets not yet delivered (draining)
  bool trials = false;       // a workload of trials (Workload::of_trials): they run while it waits
};

// One line, no newline. The percentage is of warm-up + measurement and is
// shown only in those phases, so it never passes 100 %; the rate is
// simulated cycles per wall second so far; the ETA is the rest of the
// window at that rate.
std::string progress_line(const ProgressState& s);

}  // namespace wormcast::tb
