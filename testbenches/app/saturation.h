// Whether a run saturated, judged from what the run saw, whatever its
// window. Three kinds of evidence, each reported by name:
//  * measured_incomplete: work created in the measurement window was not
//    complete within sim.drain_limit, or a source queue reached its limit
//    (the workload's own account);
//  * backlog_grew: the workload's backlog (work arrived at its sources and
//    not yet complete, in its own unit: packets, messages, multicasts) rose
//    steadily over the last stretch of the time the load was on, by more
//    than its scatter and 3 % of the work that arrived in that stretch:
//    accepted below offered (saturation.cpp has the test's constants);
//  * not_drained: work was still outstanding when sim.drain_limit ended the
//    run (without a deadlock).
// The backlog test looks at the end of the load period, not at the window
// alone: the load stays on until the measured work completes, so a stable
// network's backlog has long reached its level there even after a short
// warm-up, while a saturated one's still grows at the rate of the excess.
// SystemC-free: the run loop feeds it counts.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "rtl_models/core/params.h"

namespace wormcast::tb {

// A workload's work counted from the start of the run.
struct WorkCount {
  std::uint64_t arrived = 0;     // arrived at its sources (queued or sent)
  std::uint64_t completed = 0;   // reached every destination
  std::uint64_t backlog() const { return arrived - completed; }
};

struct BacklogSample {
  Cycle at = 0;
  WorkCount work;
};

// The backlog growth over the judged stretch [from, to] of the load period.
struct BacklogGrowth {
  Cycle from = 0, to = 0;
  std::uint64_t backlog_from = 0, backlog_to = 0, arrived = 0, completed = 0;
  std::size_t samples = 0;           // in [from, to]
  double rise = 0, scatter = 0;      // of the least-squares line through them (enough samples)
  bool grew = false;
};

// The stretch judged: the later half of the longer of the window and the
// time the load stayed on after it, ending where the load stopped.
// `samples` are in cycle order, taken while the load was on.
BacklogGrowth backlog_growth(const std::vector<BacklogSample>& samples, Cycle window_begin, Cycle window_end,
                             Cycle load_end);

struct SaturationEvidence {
  std::string name;     // measured_incomplete | backlog_grew | not_drained
  std::string detail;   // in words, with the numbers
};

struct SaturationInputs {
  bool measured_incomplete = false;   // measured work pending at the drain limit, or a source queue full
  std::string measured_detail;        // then: the workload's account of it
  std::vector<BacklogSample> backlog;
  std::string unit;                  // the workload's unit of work, plural
  Cycle window_begin = 0, window_end = 0, load_end = 0;
  bool ended_by_drain_limit = false;   // not drained, no deadlock, no error
  std::uint64_t packets_left = 0, messages_left = 0;
};

std::vector<SaturationEvidence> judge_saturation(const SaturationInputs& in);

}  // namespace wormcast::tb
