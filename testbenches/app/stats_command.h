// `wormcast stats`: the statistics a run reports, with unit, meaning and
// owner (the run itself, a network kind, a node model or a workload), as
// the modules and plug-ins register them (rtl_models/core/statistics.h).
//
//   wormcast stats EXPERIMENT.yaml [--set key=value]... [--json]
//       the statistics of that experiment, from its elaborated network and
//       workload (nothing is simulated)
//   wormcast stats [--json]
//       every statistic of every registered plug-in: each combination of
//       network kind, node model and workload that elaborates with its
//       default parameters is elaborated once, and the lists are merged
//       (a plug-in that no default combination reaches is named, with how
//       to see its statistics)
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "rtl_models/core/statistics.h"

namespace wormcast::tb {

struct StatsOptions {
  std::string file;                 // empty: every plug-in
  std::vector<std::string> sets;    // --set overrides (with a file)
  bool json = false;
};

// Statistics of every default combination of plug-ins, without duplicates
// (by owner and name), grouped by owner in registration order; `missing`
// gets the plug-ins ("workload 'x' (traffic.kind)") that no default
// combination reached, `silent` those reached that register none.
std::vector<StatisticInfo> every_statistic(std::vector<std::string>& missing, std::vector<std::string>& silent);

// Prints the listing; returns the exit code (1 with a message on stderr
// when the experiment does not elaborate or standard output fails).
int run_stats_command(const StatsOptions& opt, std::ostream& out);

}  // namespace wormcast::tb
