// `wormcast bench`: simulation speed on unicast uniform traffic (the 32-node
// default network and a 256-node, 64-switch irregular network at low, medium
// and near-saturation load) plus the cost of an idle 256-node network. Prints
// simulated cycles and flit-hops per wall second and peak memory.
#pragma once

#include <ostream>

namespace wormcast::tb {

struct BenchOptions {
  bool quick = false;   // shorter runs (smoke test of the benchmark itself)
};
int run_bench(const BenchOptions& opt, std::ostream& os);

}  // namespace wormcast::tb
