// Runs one experiment on the cycle-accurate model: the selected network kind
// builds the network with the selected node model at every node, the
// workload is attached, the run loop simulates warm-up + measurement, waits
// for the measured work (within sim.drain_limit), stops creating work and
// drains; then the invariants are checked (exactly-once delivery, flit
// conservation, no deadlock) and every registered statistic is collected.
// One run per SystemC kernel: the kernel is reset first, so runs can follow
// each other in one process.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rtl_models/core/statistics.h"
#include "testbenches/app/experiment.h"
#include "topologies/topology.h"

namespace wormcast::tb {

struct RunOptions {
  std::string vcd_path;          // empty: no waveform
  std::string vcd_filter = "*";  // glob on module names, e.g. "net.sw3" or "net.node*"
  bool progress = false;         // progress line on stderr
  // The process ends after this run (the CLI's `run`): leave the network and
  // its kernel alive, reachable, for the operating system to reclaim. SystemC
  // removes each destroyed module from flat registries by linear search, so
  // tearing down a 4096-node network costs more than a fifth of its setup.
  bool keep_network_until_exit = false;
  // Called once the simulation has ended, before the statistics are taken,
  // with the workload that ran (a testbench reads its per-trial state).
  std::function<void(const Workload&)> inspect;
};

struct RunResult {
  bool ok = false;               // invariants held and no deadlock
  int exit_code = 0;             // 0 ok, 3 simulation error (deadlock / invariant)
  std::string error;             // what went wrong, if !ok
  nlohmann::json json;           // full results document
};

RunResult run_experiment(const ExperimentConfig& cfg, const RunOptions& opt);

// The statistics an experiment would report (name, unit, meaning, owner),
// from its elaborated network and workload, without simulating: `out` is
// filled when the result is ok, else the result says why (as a run would).
RunResult list_statistics(const ExperimentConfig& cfg, std::vector<StatisticInfo>& out);

// A VCD filter must match a module `net` can trace (an empty waveform is no
// answer): else throws ConfigError naming the filter and one module of each
// kind the network traces ("net.router0 (net.router*), ...").
void require_vcd_matches(topo::NetworkModel& net, const std::string& filter);

// Which build of wormcast is running: the version, and the size and
// modification time of the running executable (a relink changes them; cheap
// enough for every run, unlike a hash of its content). Every results file
// records it as "build_id", so a sweep can tell runs cached by another build
// ("unknown" if the executable cannot be examined).
std::string build_id();

// The switch-level topology of a switch-network experiment (irregular or
// file kinds); throws ConfigError for other kinds.
topo::Topology build_topology(const ExperimentConfig& cfg);

}  // namespace wormcast::tb
