// `wormcast bench` cases on direct networks (docs/direct_networks.md): an
// 8x8 mesh with dimension-ordered routing at the loads of the peer
// comparisons (BookSim2: 8-flit packets at 0.08 flits/node/cycle; CNSim: 5-flit
// packets, 2 VCs of 20 flits, 0.1; and CNSim's 32x32 mesh at 0.03), an 8x8
// bidirectional torus (BTR), and two scale cases (64x64 and
// 16x16x16 tori, 4096 routers: set-up time, peak RSS, bytes per router;
// each in a child `wormcast run` process, so the memory figures are its own).
// Rows in the format of run_bench's table; returns the number of failed runs.
#pragma once

#include <ostream>

#include "testbenches/app/bench.h"

namespace wormcast::tb {

int run_direct_bench_cases(const BenchOptions& opt, std::ostream& os);

}  // namespace wormcast::tb
