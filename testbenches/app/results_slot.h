// Where `wormcast run` writes a run's results (DIR/<name>_seed<S>.json and
// .csv), claimed before the simulation starts so that a finished run never
// replaces the results of another configuration silently. A file holding
// this very configuration (the same resolved parameters, the same topology
// file content) is simply rewritten: the simulator is deterministic, so a
// rerun reproduces it.
#pragma once

#include <string>

#include "testbenches/app/config.h"
#include "testbenches/app/experiment.h"

namespace wormcast::tb {

// Throws ConfigError when `json_path` exists and is not the results of
// `cfg` (another configuration, not JSON, not a results file), naming the
// file, the first parameter that differs and the two ways out (--out, or
// --force to replace it). With `force` it only returns.
void claim_results_slot(const std::string& json_path, const ExperimentConfig& cfg, bool force);

}  // namespace wormcast::tb
