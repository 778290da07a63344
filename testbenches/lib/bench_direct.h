// `wormcast bench` cases on direct networks (docs/direct_networks.md): an
// 8x8 mesh with dimension-ordered routing at the loads of the issue 11 peer
// figures (BookSim2: 8-flit packets at 0.08 flits/node/cycle; CNSim: 5-flit
// packets, 20-flit VC buffers, 0.1), and an 8x8 bidirectional torus (BTR).
// Rows in the format of run_bench's table; returns the number of failed runs.
#pragma once

#include <ostream>

#include "testbenches/lib/bench.h"

namespace wormcast::tb {

int run_direct_bench_cases(const BenchOptions& opt, std::ostream& os);

}  // namespace wormcast::tb
