// `wormcast bench`: simulation speed on unicast uniform traffic (the 32-node
// default network and a 256-node, 64-switch irregular network at low, medium
// and near-saturation load) plus the cost of an idle 256-node network. Prints
// simulated cycles and flit-hops per wall second and peak memory.
#pragma once

#include <ostream>
#include <string>

#include "testbenches/app/experiment.h"

namespace wormcast::tb {

struct BenchOptions {
  bool quick = false;   // shorter runs (smoke test of the benchmark itself)
};
int run_bench(const BenchOptions& opt, std::ostream& os);

// Runs one bench case (warm-up measure/5, then `measure` cycles) and prints
// its row of the table; `note` follows the figures. Returns false if the run
// failed (the row then ends with the error).
bool run_bench_case(ExperimentConfig cfg, Cycle measure, const std::string& net, double load,
                    const std::string& level, const std::string& note, std::ostream& os);

}  // namespace wormcast::tb
