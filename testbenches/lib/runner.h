// Runs one experiment on the cycle-accurate model: builds the topology and
// routing, elaborates the network, simulates warm-up + measurement, waits for
// every measured packet (within sim.drain_limit), stops creating packets and
// drains the network, then checks the invariants (exactly-once delivery, flit
// conservation, no deadlock) and gathers metrics. One run per SystemC kernel:
// the kernel is reset first, so runs can follow each other in one process.
#pragma once

#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "testbenches/lib/experiment.h"
#include "topologies/topology.h"
#include "topologies/updown.h"

namespace wormcast::tb {

struct RunOptions {
  std::string vcd_path;          // empty: no waveform
  std::string vcd_filter = "*";  // glob on module names, e.g. "net.sw3" or "net.node*"
  bool progress = false;         // progress line on stderr
};

struct RunResult {
  bool ok = false;               // invariants held and no deadlock
  int exit_code = 0;             // 0 ok, 3 simulation error (deadlock / invariant)
  std::string error;             // what went wrong, if !ok
  nlohmann::json json;           // full results document
};

topo::Topology build_topology(const ExperimentConfig& cfg);
topo::RootRule parse_root_rule(const std::string& s);
RunResult run_experiment(const ExperimentConfig& cfg, const RunOptions& opt);

}  // namespace wormcast::tb
