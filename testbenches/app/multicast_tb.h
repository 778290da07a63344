// Helpers of the multicast testbenches (testbenches/*_multicast_tb.cpp): the
// multicast set named as `wormcast plan` names it, the plan's text for that
// set, and the check that every destination received the message once.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "algorithms/plan.h"
#include "algorithms/plan_network.h"
#include "testbenches/app/runner.h"

namespace CLI {
class App;
}

namespace wormcast::tb {

// The options every multicast testbench takes: the network, the multicast
// set, the waveform.
struct TbSetOptions {
  std::string topology, source, dests, vcd, vcd_filter = "*";
  int degree = 15;
  std::uint64_t seed = 1;
};

// Adds --topology, --source, --dests, --degree, --seed, --vcd and
// --vcd-filter to app; the texts name the testbench's network, an example
// list of nodes ("5,9,20") and an example filter ("net.sw0*").
void add_set_options(CLI::App& app, TbSetOptions& o, const std::string& topology_help, const std::string& nodes,
                     const std::string& vcd_filter_example);

// Runs cfg with o's waveform and hands the workload to `inspect` when the
// simulation has ended.
RunResult run_tb(const ExperimentConfig& cfg, const TbSetOptions& o, std::function<void(const Workload&)> inspect);

struct TbMulticast {
  std::shared_ptr<const algo::PlanNetwork> net;
  topo::NodeId source = 0;
  std::vector<topo::NodeId> dests;
  std::string names(const std::vector<topo::NodeId>& nodes) const;  // "(0,1),(2,3)"
};

// The network of o.topology (as `wormcast plan --topology`), the source
// (empty: node 0) and the destinations: o.dests as listed, or else o.degree
// nodes drawn as `wormcast plan --random K --seed S` draws them. Throws
// std::invalid_argument naming the option and the value.
TbMulticast tb_multicast(const TbSetOptions& o);

// The experiment settings of m's network (topology.kind and its keys, as
// topo::spec_settings gives them): the network `wormcast plan` names, built
// by `run`.
std::vector<Override> network_settings(const TbMulticast& m);

// Throws std::invalid_argument naming --topology unless m's network is a
// switch network (generated irregular or a topology file).
void require_switch_network(const TbMulticast& m, const TbSetOptions& o);

// The plan of `scheme` for m, as `wormcast plan` prints it, each line
// indented by two spaces.
std::string plan_text(const std::string& scheme, const TbMulticast& m, const algo::PlanOptions& options);

// Throws std::runtime_error unless `got` holds every destination exactly once
// and nothing else.
void check_exactly_once(const TbMulticast& m, std::vector<topo::NodeId> got);

}  // namespace wormcast::tb
