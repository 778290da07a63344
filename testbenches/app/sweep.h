// Parameter sweeps: a sweep file names a base experiment, fixed overrides, a
// grid of parameter lists and a number of trials; `wormcast sweep` expands
// the cartesian product × trials into runs, validates every point up front,
// runs each as its own `wormcast run` child process (SystemC allows one
// simulation per process), at most N at once, caches results by a hash of
// the fully resolved configuration, and writes one CSV row per run plus one
// per grid point with the mean and a Student-t 95% confidence interval of
// every numeric metric. See docs/sweeps.md.
#pragma once

#include <cstdint>
#include <nlohmann/json.hpp>
#include <ostream>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "testbenches/app/config.h"
#include "testbenches/app/experiment.h"

namespace wormcast::tb {

struct GridAxis {
  std::string key;                  // dotted parameter key, as in `wormcast params`
  std::vector<std::string> values;  // as written in the sweep file
  int line = 0;                     // 1-based line of the key in the sweep file
  bool zipped = false;              // from `zip:`: steps together with the other zipped keys
};

struct SweepSpec {
  std::string file;         // the sweep file, as given
  std::string name;         // `name:`, default the file's stem
  std::string experiment;   // base experiment path, resolved against the sweep file's folder
  int trials = 1;
  bool has_seed = false;    // `seed:` given; otherwise seed0 is the experiment's seed
  std::uint64_t seed0 = 0;
  std::vector<Override> set;      // fixed overrides for every run
  std::vector<int> set_lines;     // line of each `set` key
  // `grid:` axes in file order, then the `zip:` keys (which form one axis:
  // their i-th values go together). The zip axis varies slowest, the last
  // grid axis fastest.
  std::vector<GridAxis> grid;
  // `average:` axes (cartesian product, file order): every combination runs
  // at every grid point, `trials` times, and the summary averages over them
  // (e.g. topology.seed: the same point on several random topologies).
  std::vector<GridAxis> average;
};

// Reads and checks the sweep file itself (keys, types, lists); the
// parameters are checked by plan_sweep. Throws ConfigError naming the file,
// line, key and reason.
SweepSpec load_sweep(const std::string& path);

// `wormcast sweep --set key=value`: fixed overrides from the command line,
// after the file's `set:` (replacing its value of the same key); a key the
// sweep varies (grid, zip, average) is refused. The sweep's name, which
// names its CSVs and default folder, gets the overrides appended
// ("fig_6_3_router.vcs-2"), so its results never replace those of the
// sweep without them. Throws ConfigError.
void apply_command_line_sets(SweepSpec& s, const std::vector<std::string>& sets);

struct SweepRun {
  std::size_t point = 0;                                   // grid point index (expansion order)
  std::vector<std::pair<std::string, std::string>> params; // swept key -> value as written
  std::vector<std::pair<std::string, std::string>> averaged; // `average:` key -> value of this run
  int trial = 0;                                           // run index within its point; seed = seed0 + trial
  std::uint64_t seed = 0;
  std::vector<Override> overrides;   // `set` then the swept values (the seed is separate)
  std::string hash;                  // identity of the resolved configuration
  std::string experiment_name;       // the resolved `name` (results file stem)
  std::size_t same_as = SIZE_MAX;    // index of an earlier run with the same hash, if any
};

struct SweepPlan {
  SweepSpec spec;
  std::size_t points = 0;
  std::size_t replicates = 1;   // combinations of the `average:` values per point
  std::vector<SweepRun> runs;   // point-major, then `average:` combination, trials innermost
};

// Expands grid × average combinations × trials and validates every grid point with load_experiment
// before anything runs. Throws ConfigError naming the sweep file and key.
SweepPlan plan_sweep(const SweepSpec& spec);

// "traffic.load=0.05 topology.seed=2" (or "(base)" for an empty grid).
std::string describe_point(const SweepRun& r);

// FNV-1a, 64 bit.
std::uint64_t fnv1a64(std::string_view data);
// Identity of a resolved configuration (the `config` object of a results
// file, i.e. ExperimentConfig::visit through JsonParamWriter): FNV-1a of its
// canonical dump (nlohmann sorts keys), as 16 hex digits. A topology file is
// identified by its content rather than its path.
std::string config_hash(const nlohmann::json& resolved_config);
std::string config_hash(const ExperimentConfig& cfg);

// Two-sided 95% Student-t critical value for `df` degrees of freedom (table
// for 1..30, 1.96 beyond).
double t95(int df);

struct SampleStats {
  std::size_t n = 0;
  double mean = 0;
  double std = 0;    // sample standard deviation (n-1); 0 when n < 2
  double ci95 = 0;   // half-width t95(n-1)·std/sqrt(n); 0 when n < 2
};
SampleStats sample_stats(const std::vector<double>& xs);

// What happened to one run.
struct RunOutcome {
  enum class State { pending, cached, ok, error, failed };
  State state = State::pending;
  int exit_code = 0;
  std::string message;      // why it failed
  nlohmann::json results;   // the run's results document (when read)
  double seconds = 0;       // wall time of the child (0 when cached)
  bool good() const { return state == State::cached || state == State::ok; }
};

// <out>/<name>_runs.csv and <out>/<name>_summary.csv (outcomes parallel to plan.runs).
void write_runs_csv(const SweepPlan& plan, const std::vector<RunOutcome>& outcomes, const std::string& path);
void write_summary_csv(const SweepPlan& plan, const std::vector<RunOutcome>& outcomes, const std::string& path);

// One word for a POSIX shell: as it is when it needs no quoting, else in
// single quotes.
std::string shell_quote(const std::string& s);

struct SweepOptions {
  int jobs = 1;
  std::string out_dir;        // default results/<name>
  bool dry_run = false;       // print the runs, run nothing
  bool emit_jobs = false;     // print a shell command per run still to do, run nothing
  bool slurm = false;         // run what is still to do as a Slurm job array, then collect (slurm.h)
  std::string slurm_args;     // more sbatch options for --slurm
  bool force = false;         // ignore cached results
  std::vector<std::string> sets;   // --set key=value (apply_command_line_sets)
  std::string exe = "/proc/self/exe";   // the wormcast binary the children run
};

// The whole `wormcast sweep` command. Returns 0, or 3 when any run failed
// (the CSVs are written for the others). Throws ConfigError on bad input.
int run_sweep(const std::string& sweep_file, const SweepOptions& opt, std::ostream& out, std::ostream& err);

}  // namespace wormcast::tb
