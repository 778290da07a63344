// `wormcast params`: every experiment parameter with its type, default,
// unit and meaning, grouped as the core and each plug-in declare them
// (testbenches/app/experiment.h, parameter_groups), and the registries a
// parameter chooses from (switch.decoder, ni.firmware).
//
//   wormcast params [--section NAME]... [--json]
//       --section: only the parameters NAME.* (router, traffic, sim, ...),
//       in every group that has any; a name no parameter has is an error
//       with the closest section and the list.
//       --json: one JSON object on stdout:
//       {"groups": [{"title", "description", "parameters": [{"key", "type",
//       "default", "unit", "description"}]}], "registries": [{"key",
//       "entries": [{"name", "description"}]}]}
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace wormcast::tb {

struct ParamsOptions {
  std::vector<std::string> sections;   // empty: every parameter
  bool json = false;
};

// Prints the listing; throws ConfigError for a section no parameter has.
void run_params_command(const ParamsOptions& opt, std::ostream& out);

}  // namespace wormcast::tb
