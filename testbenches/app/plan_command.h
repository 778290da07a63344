// `wormcast plan`: prints the plan of one multicast scheme without
// simulating it (docs/plan.md). The planning itself is algorithms/plan.h;
// this file reads the command line into a PlanRequest and prints the result.
//
//   wormcast plan SCHEME [--topology SPEC | --switches S --ports P --nodes N
//                 --connectivity C --topo-seed X] [--source S]
//                 [--dests LIST | --random K [--seed X]] [scheme options] [--json]
//   wormcast plan --list
//
// Errors print "wormcast: error: ..." on stderr (naming the option) and exit 1.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "algorithms/plan.h"

namespace CLI { class App; }

namespace wormcast::tb {

// What the command line says; unset = not given.
struct PlanCliArgs {
  std::string scheme;
  bool list = false;                             // --list: the schemes and their options
  bool json = false;                             // --json: one JSON object on stdout
  std::optional<std::string> topology, source, dests;
  std::optional<long long> random;               // --random K
  std::optional<std::uint64_t> seed;             // --seed X (for --random; default 1)
  std::optional<int> switches, ports, nodes;     // irregular network without --topology
  std::optional<double> connectivity;
  std::optional<std::uint64_t> topo_seed;
  algo::PlanOptions options;
  std::vector<std::string> errors;               // values that did not convert ("--k: 'x' is not ...")
};

// The request the arguments describe. Throws std::invalid_argument naming the
// option, or topo::TopologyError for a bad topology file or generator values.
algo::PlanRequest make_plan_request(const PlanCliArgs& a);

// Plans and prints; returns the exit code (0, or 1 after "wormcast: error: ..." on err).
int run_plan(const PlanCliArgs& a, std::ostream& out, std::ostream& err);

// Adds the `plan` subcommand. Its callback runs the plan when parsed and ends
// parsing with CLI::RuntimeError(exit code), which CLI::App::exit returns
// without printing anything.
void add_plan_command(CLI::App& app);

}  // namespace wormcast::tb
