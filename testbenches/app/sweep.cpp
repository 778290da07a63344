#include "testbenches/app/sweep.h"
#include "testbenches/app/slurm.h"

#include "testbenches/app/atomic_file.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <spawn.h>
#include <sys/file.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cctype>
#include <cerrno>
#include <csignal>
#include <chrono>
#include <cmath>
#include <cstring>
#include <deque>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "testbenches/app/results.h"
#include "testbenches/app/runner.h"
#include "testbenches/app/suggest.h"
#include "testbenches/app/units.h"

extern char** environ;

namespace wormcast::tb {

namespace fs = std::filesystem;

std::string shell_quote(const std::string& s) {
  if (!s.empty() && s.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./=:+-,@%") ==
                        std::string::npos)
    return s;
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

namespace {

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.size() >= prefix.size() && s.compare(0, prefix.size(), prefix) == 0;
}

std::string line_of(const std::string& file, const YAML::Node& n) {
  return file + ":" + std::to_string(n.Mark().line + 1);
}

// A scalar sweep-file value (not a list, mapping or null).
std::string scalar(const std::string& file, const YAML::Node& n, const std::string& key) {
  if (!n || n.IsNull()) throw ConfigError(line_of(file, n) + ": " + key + ": missing value");
  if (!n.IsScalar())
    throw ConfigError(line_of(file, n) + ": " + key + ": expected a single value, found a " +
                      (n.IsMap() ? "mapping" : "list"));
  return n.Scalar();
}

std::int64_t integer_value(const std::string& file, const YAML::Node& n, const std::string& key, std::int64_t min,
                           std::int64_t max) {
  const std::string raw = scalar(file, n, key);
  std::int64_t v = 0;
  try {
    v = parse_integer(raw);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(line_of(file, n) + ": " + key + ": " + e.what());
  }
  if (v < min || v > max)
    throw ConfigError(line_of(file, n) + ": " + key + ": '" + raw + "' out of range " + std::to_string(min) + ".." +
                      std::to_string(max));
  return v;
}

// load_experiment names overrides as command-line --set options; in a sweep
// they come from the sweep file, so its errors are re-addressed to the sweep
// file's line and key. `grid_params` are the swept values of this point.
ExperimentConfig load_checked(const SweepSpec& spec, const std::vector<Override>& overrides,
                              const std::vector<std::pair<std::string, std::string>>& grid_params) {
  try {
    return load_experiment(spec.experiment, overrides);
  } catch (const ConfigError& e) {
    const std::string msg = e.what();
    for (const auto& o : overrides) {
      const std::string p1 = "command line (--set " + o.path + "=" + o.value + "): ";
      const std::string p2 = "command line: --set " + o.path + "=" + o.value + ": ";
      std::string reason;
      if (starts_with(msg, p1)) reason = msg.substr(p1.size());
      else if (starts_with(msg, p2)) reason = msg.substr(p2.size());
      else continue;
      if (starts_with(reason, o.path + ": ")) reason = reason.substr(o.path.size() + 2);
      for (const auto& a : spec.grid)
        if (a.key == o.path)
          throw ConfigError(spec.file + ":" + std::to_string(a.line) + (a.zipped ? ": zip: " : ": grid: ") + o.path +
                            ": value '" + o.value +
                            "': " + reason);
      for (const auto& a : spec.average)
        if (a.key == o.path)
          throw ConfigError(spec.file + ":" + std::to_string(a.line) + ": average: " + o.path + ": value '" + o.value +
                            "': " + reason);
      for (std::size_t i = 0; i < spec.set.size(); ++i)
        if (spec.set[i].path == o.path)
          throw ConfigError(spec.set_lines[i] == 0   // from the command line (apply_command_line_sets)
                                ? spec.file + ": command line: --set " + o.path + "=" + o.value + ": " + reason
                                : spec.file + ":" + std::to_string(spec.set_lines[i]) + ": set: " + o.path + ": " +
                                      reason);
    }
    std::string point;
    for (const auto& [k, v] : grid_params) point += (point.empty() ? "" : " ") + k + "=" + v;
    throw ConfigError(spec.file + ": " + (point.empty() ? std::string() : "grid point " + point + ": ") + msg);
  }
}

std::string hex16(std::uint64_t v) { return fmt::format("{:016x}", v); }

std::string csv_cell(const std::string& s) {
  if (s.find_first_of(",\"\n") == std::string::npos) return s;
  std::string q = "\"";
  for (char c : s) q += c == '"' ? std::string("\"\"") : std::string(1, c);
  return q + "\"";
}

std::string number(double v) { return fmt::format("{}", v); }


// Every numeric field of a run's results that the CSVs carry: the metrics
// (booleans as 0/1, so their mean is a fraction of trials) and the wall time.
std::map<std::string, double> numeric_fields(const nlohmann::json& results) {
  std::map<std::string, double> out;
  if (results.is_object() && results.contains("metrics")) {
    const auto flat = flatten(results.at("metrics"));
    for (auto it = flat.begin(); it != flat.end(); ++it) {
      if (it.value().is_number()) out["metrics." + it.key()] = it.value().get<double>();
      else if (it.value().is_boolean()) out["metrics." + it.key()] = it.value().get<bool>() ? 1.0 : 0.0;
    }
  }
  if (results.is_object() && results.contains("performance") && results["performance"].contains("wall_seconds") &&
      results["performance"]["wall_seconds"].is_number())
    out["performance.wall_seconds"] = results["performance"]["wall_seconds"].get<double>();
  return out;
}

std::vector<std::string> metric_columns(const std::vector<RunOutcome>& outcomes) {
  std::set<std::string> cols;
  for (const auto& o : outcomes)
    if (o.good())
      for (const auto& [k, v] : numeric_fields(o.results)) cols.insert(k);
  return {cols.begin(), cols.end()};
}

const char* status_text(const RunOutcome& o) {
  switch (o.state) {
    case RunOutcome::State::cached:
    case RunOutcome::State::ok: return "ok";
    case RunOutcome::State::error: return "error";
    case RunOutcome::State::failed: return "failed";
    case RunOutcome::State::pending: break;
  }
  return "not run";
}

std::string run_label(const SweepRun& r) {
  std::string averaged;
  for (const auto& [k, v] : r.averaged) averaged += " " + k + "=" + v;
  return fmt::format("point {}{} trial {} seed {}", describe_point(r), averaged, r.trial, r.seed);
}

std::string last_lines(const std::string& path, std::size_t n) {
  std::ifstream f(path);
  std::deque<std::string> lines;
  std::string line;
  while (std::getline(f, line)) {
    lines.push_back(line);
    if (lines.size() > n) lines.pop_front();
  }
  std::string out;
  for (const auto& l : lines) out += "      | " + l + "\n";
  return out;
}

// Reads a run's results file. Returns false (with the reason) when there is
// none, it is not valid JSON, or it belongs to another configuration.
bool read_results(const std::string& path, const std::string& hash, nlohmann::json& j, std::string& why) {
  std::ifstream f(path);
  if (!f) {
    why = "no results file " + path;
    return false;
  }
  try {
    j = nlohmann::json::parse(f);
  } catch (const std::exception& e) {
    why = path + ": not valid JSON (" + e.what() + ")";
    return false;
  }
  if (!j.is_object() || !j.contains("config") || config_hash(j["config"]) != hash) {
    why = path + ": results of a different configuration";
    return false;
  }
  return true;
}

struct Paths {
  fs::path out, runs;
  fs::path dir(const SweepRun& r) const { return runs / r.hash; }
  fs::path json(const SweepRun& r) const {
    return dir(r) / (r.experiment_name + "_seed" + std::to_string(r.seed) + ".json");
  }
  fs::path log(const SweepRun& r) const { return dir(r) / "log.txt"; }
};

std::vector<std::string> child_args(const SweepRun& r, const std::string& experiment, const std::string& dir) {
  std::vector<std::string> a = {"run", experiment};
  for (const auto& o : r.overrides) {
    a.push_back("--set");
    a.push_back(o.path + "=" + o.value);
  }
  a.insert(a.end(), {"--seed", std::to_string(r.seed), "--out", dir, "--no-progress"});
  return a;
}

std::string command_line(const std::string& exe, const std::vector<std::string>& args) {
  std::string s = shell_quote(exe);
  for (const auto& a : args) s += " " + shell_quote(a);
  return s;
}

// Starts `exe args...` with stdin from /dev/null and stdout+stderr appended
// to `log`. Returns the pid, or -errno.
pid_t spawn(const std::string& exe, const std::vector<std::string>& args, const std::string& log) {
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&fa, STDOUT_FILENO, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&fa, STDOUT_FILENO, STDERR_FILENO);
  std::vector<std::string> argv_s = {"wormcast"};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : argv_s) argv.push_back(s.data());
  argv.push_back(nullptr);
  pid_t pid = 0;
  const int rc = posix_spawn(&pid, exe.c_str(), &fa, nullptr, argv.data(), environ);
  posix_spawn_file_actions_destroy(&fa);
  return rc == 0 ? pid : -rc;
}

std::string exe_path(const std::string& exe) {
  std::error_code ec;
  if (exe == "/proc/self/exe") {
    const auto p = fs::read_symlink(exe, ec);
    if (!ec) return p.string();
  }
  return fs::absolute(exe, ec).string();
}

}  // namespace

// ---------------------------------------------------------------------------

namespace {

// The top level: a mapping of known keys, each given once.
void check_top_level(const std::string& path, const YAML::Node& root) {
  static const char* known_text = "average, experiment, grid, name, seed, set, trials, zip";
  if (!root.IsMap())
    throw ConfigError(path + ": a sweep file must be a YAML mapping with keys " + known_text);
  static const std::set<std::string> known = {"average", "experiment", "grid", "name", "seed", "set", "trials", "zip"};
  std::set<std::string> seen;
  for (const auto& kv : root) {
    const std::string k = kv.first.Scalar();
    if (!known.count(k))
      throw ConfigError(line_of(path, kv.first) + ": " + k + ": unknown key" +
                        did_you_mean(k, {known.begin(), known.end()}) + " (known: " + known_text + ")");
    if (!seen.insert(k).second) throw ConfigError(line_of(path, kv.first) + ": " + k + ": given twice");
  }
}

// `name:`, by default the sweep file's stem.
// It names the output folder's files (NAME_runs.csv, ...): no leading '.'
// (".", ".." and hidden files), and a `name:` of letters, digits, '_', '.'
// and '-' only.
std::string read_name(const std::string& path, const YAML::Node& root) {
  if (!root["name"]) {
    const std::string stem = fs::path(path).stem().string();
    if (stem.empty() || stem.front() == '.')
      throw ConfigError(path + ": the sweep is named after its file, '" + stem +
                        "', which starts with '.': give it a name: (letters, digits, '_', '.', '-')");
    return stem;
  }
  const std::string name = scalar(path, root["name"], "name");
  if (name.empty() || name.front() == '.' ||
      name.find_first_not_of("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-") != std::string::npos)
    throw ConfigError(line_of(path, root["name"]) + ": name: '" + name +
                      "' must be a file name (letters, digits, '_', '.', '-'; not starting with '.')");
  return name;
}

// `experiment:`, resolved against the sweep file's folder.
std::string read_experiment(const std::string& path, const YAML::Node& root) {
  if (!root["experiment"])
    throw ConfigError(path + ": experiment: required (the base experiment file, relative to the sweep file)");
  const std::string exp = scalar(path, root["experiment"], "experiment");
  fs::path ep(exp);
  if (ep.is_relative()) ep = fs::path(path).parent_path() / ep;
  ep = ep.lexically_normal();
  std::error_code ec;   // a name the file system cannot take (too long, ...) is an error of this key too
  if (!fs::is_regular_file(ep, ec))
    throw ConfigError(line_of(path, root["experiment"]) + ": experiment: '" + exp + "' not found (looked for " +
                      ep.string() + (ec ? ": " + ec.message() : std::string()) + ")");
  return ep.string();
}

// `trials:` and `seed:`.
void read_trials_and_seed(const std::string& path, const YAML::Node& root, SweepSpec& s) {
  if (root["trials"]) s.trials = static_cast<int>(integer_value(path, root["trials"], "trials", 1, 100000));
  if (root["seed"]) {
    s.has_seed = true;
    s.seed0 = static_cast<std::uint64_t>(integer_value(path, root["seed"], "seed", 0, INT64_MAX));
  }
}

// A parameter key under `set`, `grid` or `zip` (`section`); the run seed is
// not one of them.
std::string parameter_key(const std::string& path, const YAML::Node& k, const std::string& section) {
  const std::string key = k.Scalar();
  if (key == "seed")
    throw ConfigError(line_of(path, k) + ": " + section + ": seed: the run seed is set per trial (seed0, seed0+1, "
                      "...); use the sweep's `seed:` and `trials:` keys");
  return key;
}

// `set:` into s.set and s.set_lines. Returns its keys.
std::set<std::string> read_set(const std::string& path, const YAML::Node& root, SweepSpec& s) {
  std::set<std::string> set_keys;
  if (const YAML::Node set = root["set"]; set && !set.IsNull()) {
    if (!set.IsMap())
      throw ConfigError(line_of(path, set) + ": set: expected a mapping of dotted parameter keys to values");
    for (const auto& kv : set) {
      const std::string key = parameter_key(path, kv.first, "set");
      if (kv.second.IsMap())
        throw ConfigError(line_of(path, kv.first) + ": set: " + key +
                          ": expected a single value (write dotted keys, e.g. sim.measure: 2000)");
      if (!set_keys.insert(key).second) throw ConfigError(line_of(path, kv.first) + ": set: " + key + ": given twice");
      s.set.push_back(Override{key, scalar(path, kv.second, "set: " + key)});
      s.set_lines.push_back(kv.first.Mark().line + 1);
    }
  }
  return set_keys;
}

// Keys already used by `set` (fixed) and by the axes read so far.
struct AxisKeys {
  std::set<std::string> set, axes;
};

// "FILE:LINE: SECTION: KEY", the start of an error about an axis.
std::string axis_where(const std::string& path, const char* section, const GridAxis& a) {
  return path + ":" + std::to_string(a.line) + ": " + section + ": " + a.key;
}

// One key of `grid` or `zip` (`section`) and its list of values.
GridAxis read_axis(const std::string& path, const YAML::Node& key, const YAML::Node& list, const char* section,
                   bool zipped, AxisKeys& keys) {
  GridAxis a;
  a.key = parameter_key(path, key, section);
  a.line = key.Mark().line + 1;
  a.zipped = zipped;
  const std::string where = axis_where(path, section, a);
  if (!keys.axes.insert(a.key).second) throw ConfigError(where + ": given twice (in grid, zip or average)");
  if (keys.set.count(a.key)) throw ConfigError(where + ": also fixed under `set`; keep one of them");
  if (!list.IsSequence())
    throw ConfigError(where + ": expected a list of values, e.g. [0.02, 0.05] (a fixed value belongs under `set`)");
  if (list.size() == 0) throw ConfigError(where + ": empty list: give at least one value");
  std::set<std::string> vals;
  for (const auto& v : list) {
    const std::string text = scalar(path, v, std::string(section) + ": " + a.key);
    // Zipped lists may repeat a value (another key varies beside it).
    if (!vals.insert(text).second && !zipped) throw ConfigError(where + ": value '" + text + "' listed twice");
    a.values.push_back(text);
  }
  return a;
}

// The axes of `grid:` (zipped false), `zip:` (zipped true) or `average:`
// (zipped false), appended to `out`.
void read_axes(const std::string& path, const YAML::Node& root, const char* section, bool zipped, AxisKeys& keys,
               std::vector<GridAxis>& out) {
  const YAML::Node node = root[section];
  if (!node || node.IsNull()) return;
  if (!node.IsMap())
    throw ConfigError(line_of(path, node) + ": " + section +
                      ": expected a mapping of dotted parameter keys to lists of values");
  std::size_t zip_len = 0;
  for (const auto& kv : node) {
    GridAxis a = read_axis(path, kv.first, kv.second, section, zipped, keys);
    if (zipped) {
      if (zip_len != 0 && a.values.size() != zip_len)
        throw ConfigError(axis_where(path, section, a) + ": has " + std::to_string(a.values.size()) + " values but the keys before it have " +
                          std::to_string(zip_len) + "; zipped lists go together and must be equally long");
      zip_len = a.values.size();
    }
    out.push_back(std::move(a));
  }
}

}  // namespace

SweepSpec load_sweep(const std::string& path) {
  SweepSpec s;
  s.file = path;
  const YAML::Node root = load_yaml_file(path);
  check_top_level(path, root);
  s.name = read_name(path, root);
  s.experiment = read_experiment(path, root);
  read_trials_and_seed(path, root, s);
  AxisKeys keys;
  keys.set = read_set(path, root, s);
  read_axes(path, root, "grid", false, keys, s.grid);
  read_axes(path, root, "zip", true, keys, s.grid);
  read_axes(path, root, "average", false, keys, s.average);
  return s;
}

namespace {

using Params = std::vector<std::pair<std::string, std::string>>;

// Every combination of the axes' values, in odometer order: the zip axis
// (all zipped keys together) slowest, then each other axis in file order,
// the last fastest. No axes: one empty combination. `what` names the axes in
// the error when there are more than a million combinations.
std::vector<Params> expand_axes(const SweepSpec& spec, const std::vector<GridAxis>& axes, const char* what) {
  std::vector<std::vector<std::size_t>> dims;
  std::vector<std::size_t> zipped;
  for (std::size_t a = 0; a < axes.size(); ++a)
    if (axes[a].zipped) zipped.push_back(a);
  if (!zipped.empty()) dims.push_back(zipped);
  for (std::size_t a = 0; a < axes.size(); ++a)
    if (!axes[a].zipped) dims.push_back({a});
  auto dim_size = [&](std::size_t d) { return axes[dims[d].front()].values.size(); };
  std::size_t count = 1;
  for (std::size_t d = 0; d < dims.size(); ++d) {
    if (count > 1000000 / dim_size(d))
      throw ConfigError(spec.file + ": " + what + ": more than a million combinations; split the sweep");
    count *= dim_size(d);
  }
  std::vector<Params> out;
  out.reserve(count);
  std::vector<std::size_t> idx(dims.size(), 0), value_of(axes.size(), 0);
  for (std::size_t p = 0; p < count; ++p) {
    for (std::size_t d = 0; d < dims.size(); ++d)
      for (std::size_t a : dims[d]) value_of[a] = idx[d];
    Params params;
    for (std::size_t a = 0; a < axes.size(); ++a) params.emplace_back(axes[a].key, axes[a].values[value_of[a]]);
    out.push_back(std::move(params));
    for (std::size_t d = dims.size(); d-- > 0;) {
      if (++idx[d] < dim_size(d)) break;
      idx[d] = 0;
    }
  }
  return out;
}

}  // namespace

void apply_command_line_sets(SweepSpec& s, const std::vector<std::string>& sets) {
  std::string suffix;
  for (const std::string& text : sets) {
    const Override o = parse_override(text);
    if (o.path == "seed")
      throw ConfigError("--set seed: the run seed is set per trial; use the sweep file's `seed:` and `trials:` keys");
    for (const auto* axes : {&s.grid, &s.average})
      for (const GridAxis& a : *axes)
        if (a.key == o.path)
          throw ConfigError("--set " + text + ": " + s.file + ":" + std::to_string(a.line) + " varies " + o.path +
                            "; a sweep cannot also fix it (edit its list, or copy the sweep file)");
    bool replaced = false;
    for (std::size_t i = 0; i < s.set.size(); ++i)
      if (s.set[i].path == o.path) {
        s.set[i].value = o.value;
        s.set_lines[i] = 0;
        replaced = true;
      }
    if (!replaced) {
      s.set.push_back(o);
      s.set_lines.push_back(0);
    }
    std::string part = o.path + "-" + o.value;
    for (char& c : part)
      if (!std::isalnum(static_cast<unsigned char>(c)) && c != '.' && c != '-') c = '-';
    suffix += "_" + part;
  }
  if (suffix.size() > 80) suffix = "_set-" + hex16(fnv1a64(suffix)).substr(0, 8);
  s.name += suffix;
}

SweepPlan plan_sweep(const SweepSpec& spec) {
  SweepPlan plan;
  plan.spec = spec;
  const ExperimentConfig base = load_checked(spec, spec.set, {});
  const std::uint64_t seed0 = spec.has_seed ? spec.seed0 : base.seed;
  const std::vector<Params> points = expand_axes(spec, spec.grid, "grid");
  const std::vector<Params> replicates = expand_axes(spec, spec.average, "average");
  const std::size_t per_point = replicates.size() * static_cast<std::size_t>(spec.trials);
  if (per_point > 1000000 / points.size())
    throw ConfigError(spec.file + ": grid × average × trials: more than a million runs; split the sweep");
  // The run with index t within its point uses seed0 + t: the last one must
  // still be a valid seed.
  const auto last_trial = static_cast<std::uint64_t>(per_point - 1);
  if (seed0 > static_cast<std::uint64_t>(INT64_MAX) - last_trial)
    throw ConfigError(spec.file + ": seed: " + std::to_string(seed0) + " + " + std::to_string(last_trial) +
                      " (the last trial's seed) exceeds the largest seed, " + std::to_string(INT64_MAX));
  plan.points = points.size();
  plan.replicates = replicates.size();

  std::map<std::string, std::size_t> first_with_hash;
  for (std::size_t p = 0; p < points.size(); ++p) {
    for (std::size_t rep = 0; rep < replicates.size(); ++rep) {
      std::vector<Override> overrides = spec.set;
      Params swept = points[p];
      swept.insert(swept.end(), replicates[rep].begin(), replicates[rep].end());
      for (const auto& [k, v] : swept) overrides.push_back(Override{k, v});
      ExperimentConfig cfg = load_checked(spec, overrides, swept);
      for (int t = 0; t < spec.trials; ++t) {
        SweepRun r;
        r.point = p;
        r.params = points[p];
        r.averaged = replicates[rep];
        r.trial = static_cast<int>(rep) * spec.trials + t;
        r.seed = seed0 + static_cast<std::uint64_t>(r.trial);
        r.overrides = overrides;
        cfg.seed = r.seed;   // exactly what the child's --seed does
        r.hash = config_hash(cfg);
        r.experiment_name = cfg.name;
        const auto [it, fresh] = first_with_hash.emplace(r.hash, plan.runs.size());
        if (!fresh) r.same_as = it->second;
        plan.runs.push_back(std::move(r));
      }
    }
  }
  return plan;
}

std::string describe_point(const SweepRun& r) {
  if (r.params.empty()) return "(base)";
  std::string s;
  for (const auto& [k, v] : r.params) s += (s.empty() ? "" : " ") + k + "=" + v;
  return s;
}

std::uint64_t fnv1a64(std::string_view data) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (unsigned char c : data) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

std::string config_hash(const nlohmann::json& resolved_config) {
  nlohmann::json j = resolved_config;
  // A topology file is identified by its content, so editing the file is
  // seen and the path's spelling does not matter.
  if (j.is_object() && j.contains("topology") && j["topology"].value("kind", "") == "file" &&
      j["topology"].contains("file") && j["topology"]["file"].is_string()) {
    std::ifstream f(j["topology"]["file"].get<std::string>(), std::ios::binary);
    if (f) {
      const std::string content((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
      j["topology"]["file"] = "content-fnv1a64:" + hex16(fnv1a64(content));
    }
  }
  return hex16(fnv1a64(j.dump()));
}

std::string config_hash(const ExperimentConfig& cfg) {
  JsonParamWriter w;
  ExperimentConfig copy = cfg;
  copy.visit(w);
  return config_hash(w.out);
}

double t95(int df) {
  // Two-sided 95% quantiles t_{0.975, df} of Student's t distribution.
  static const double table[30] = {12.7062, 4.3027, 3.1824, 2.7764, 2.5706, 2.4469, 2.3646, 2.3060, 2.2622, 2.2281,
                                   2.2010,  2.1788, 2.1604, 2.1448, 2.1314, 2.1199, 2.1098, 2.1009, 2.0930, 2.0860,
                                   2.0796,  2.0739, 2.0687, 2.0639, 2.0595, 2.0555, 2.0518, 2.0484, 2.0452, 2.0423};
  if (df < 1) return 0.0;
  if (df <= 30) return table[df - 1];
  return 1.96;
}

SampleStats sample_stats(const std::vector<double>& xs) {
  SampleStats s;
  s.n = xs.size();
  if (xs.empty()) return s;
  double sum = 0;
  for (double x : xs) sum += x;
  s.mean = sum / static_cast<double>(s.n);
  if (s.n < 2) return s;
  double ss = 0;
  for (double x : xs) ss += (x - s.mean) * (x - s.mean);
  s.std = std::sqrt(ss / static_cast<double>(s.n - 1));
  s.ci95 = t95(static_cast<int>(s.n) - 1) * s.std / std::sqrt(static_cast<double>(s.n));
  return s;
}

void write_runs_csv(const SweepPlan& plan, const std::vector<RunOutcome>& outcomes, const std::string& path) {
  const auto cols = metric_columns(outcomes);
  AtomicFile f(path);
  std::string header;
  for (const auto& a : plan.spec.grid) header += csv_cell(a.key) + ",";
  for (const auto& a : plan.spec.average) header += csv_cell(a.key) + ",";
  header += "trial,seed,hash,status";
  for (const auto& c : cols) header += "," + csv_cell(c);
  f << header << "\n";
  for (std::size_t i = 0; i < plan.runs.size(); ++i) {
    const auto& r = plan.runs[i];
    const auto& o = outcomes[i];
    std::string row;
    for (const auto& [k, v] : r.params) row += csv_cell(v) + ",";
    for (const auto& [k, v] : r.averaged) row += csv_cell(v) + ",";
    row += fmt::format("{},{},{},{}", r.trial, r.seed, r.hash, status_text(o));
    const auto vals = o.good() ? numeric_fields(o.results) : std::map<std::string, double>{};
    for (const auto& c : cols) {
      const auto it = vals.find(c);
      row += "," + (it == vals.end() ? std::string() : number(it->second));
    }
    f << row << "\n";
  }
  f.commit();
}

void write_summary_csv(const SweepPlan& plan, const std::vector<RunOutcome>& outcomes, const std::string& path) {
  const auto cols = metric_columns(outcomes);
  AtomicFile f(path);
  std::string header;
  for (const auto& a : plan.spec.grid) header += csv_cell(a.key) + ",";
  header += "n";
  for (const auto& c : cols) header += "," + csv_cell(c + ".mean") + "," + csv_cell(c + ".ci95") + "," + csv_cell(c + ".std");
  f << header << "\n";
  std::size_t i = 0;
  for (std::size_t p = 0; p < plan.points; ++p) {
    const std::size_t begin = i;
    while (i < plan.runs.size() && plan.runs[i].point == p) ++i;
    if (begin == i) continue;
    std::map<std::string, std::vector<double>> samples;
    std::size_t n = 0;
    for (std::size_t k = begin; k < i; ++k) {
      if (!outcomes[k].good()) continue;
      ++n;
      for (const auto& [c, v] : numeric_fields(outcomes[k].results)) samples[c].push_back(v);
    }
    std::string row;
    for (const auto& [k, v] : plan.runs[begin].params) row += csv_cell(v) + ",";
    row += std::to_string(n);
    for (const auto& c : cols) {
      const auto it = samples.find(c);
      if (it == samples.end() || it->second.empty()) {
        row += ",,,";
        continue;
      }
      const SampleStats s = sample_stats(it->second);
      row += "," + number(s.mean) + "," + number(s.ci95) + "," + number(s.std);
    }
    f << row << "\n";
  }
  f.commit();
}

// ---------------------------------------------------------------------------

namespace {

Paths output_paths(const SweepSpec& spec, const SweepOptions& opt) {
  Paths paths;
  paths.out = opt.out_dir.empty() ? fs::path("results") / spec.name : fs::path(opt.out_dir);
  paths.runs = paths.out / "runs";
  return paths;
}

// What run_sweep works on: the plan, where its files go, what happened to
// each run, and the streams it reports on.
struct SweepState {
  const SweepOptions& opt;
  std::ostream& out;
  std::ostream& err;
  const SweepPlan plan;
  Paths paths;
  std::vector<RunOutcome> outcomes;    // parallel to plan.runs
  std::vector<std::size_t> distinct;   // runs of distinct configurations (same_as unset)
  std::vector<std::size_t> todo;       // the distinct runs not cached
  std::string counts;                  // "N points x T trials = R runs, ..." for the headers
  std::size_t reported = 0;            // distinct runs reported done so far ([k/total])
  std::size_t other_build = 0;         // cached runs whose results another build of wormcast computed

  SweepState(const SweepOptions& o, std::ostream& out_stream, std::ostream& err_stream, SweepPlan p)
      : opt(o), out(out_stream), err(err_stream), plan(std::move(p)), paths(output_paths(plan.spec, o)) {}
  std::size_t total() const { return distinct.size(); }
};

// Distinct configurations, and which of them are already done.
void find_cached_runs(SweepState& st) {
  st.outcomes.assign(st.plan.runs.size(), RunOutcome{});
  for (std::size_t i = 0; i < st.plan.runs.size(); ++i) {
    const auto& r = st.plan.runs[i];
    if (r.same_as != SIZE_MAX) continue;
    st.distinct.push_back(i);
    std::string why;
    nlohmann::json j;
    if (!st.opt.force && read_results(st.paths.json(r).string(), r.hash, j, why) && j.value("status", "") == "ok") {
      st.outcomes[i].state = RunOutcome::State::cached;
      if (j.value("build_id", std::string()) != build_id()) ++st.other_build;
      st.outcomes[i].results = std::move(j);
    } else {
      st.todo.push_back(i);
    }
  }
}

std::string count_text(const SweepState& st) {
  const SweepPlan& plan = st.plan;
  const std::size_t total = st.total();
  const std::string averaged =
      plan.spec.average.empty() ? std::string() : fmt::format(" x {} averaged", plan.replicates);
  return fmt::format("{} point{}{} x {} trial{} = {} runs", plan.points, plan.points == 1 ? "" : "s", averaged,
                     plan.spec.trials, plan.spec.trials == 1 ? "" : "s", plan.runs.size()) +
         (total != plan.runs.size() ? fmt::format(" ({} distinct configurations)", total) : std::string()) +
         fmt::format(", {} cached, {} to run", total - st.todo.size(), st.todo.size());
}

// --dry-run: every run and whether it is cached, to run, or a repeat.
void print_dry_run(const SweepState& st) {
  const SweepSpec& spec = st.plan.spec;
  st.out << "sweep '" << spec.name << "' (" << spec.file << ", experiment " << spec.experiment << "): " << st.counts
         << "; output " << st.paths.out.string() << "\n";
  for (std::size_t i = 0; i < st.plan.runs.size(); ++i) {
    const auto& r = st.plan.runs[i];
    const std::string state = r.same_as != SIZE_MAX ? fmt::format("same configuration as #{}", r.same_as + 1)
                              : st.outcomes[i].state == RunOutcome::State::cached ? "cached"
                                                                                  : "to run";
    st.out << fmt::format("  #{:<4} {}  hash {}  {}\n", i + 1, run_label(r), r.hash, state);
  }
  check_written(st.out, "standard output");
}

// A shell command line per run still to do: --emit-jobs prints them, --slurm
// makes them the tasks of a job array.
std::vector<std::string> job_lines(const SweepState& st) {
  // Absolute paths, so the lines work from any folder and on other hosts
  // that share the file system.
  const std::string exe = exe_path(st.opt.exe);
  const std::string experiment = fs::absolute(st.plan.spec.experiment).lexically_normal().string();
  std::vector<std::string> lines;
  for (std::size_t i : st.todo) {
    const auto& r = st.plan.runs[i];
    const std::string dir = fs::absolute(st.paths.dir(r)).lexically_normal().string();
    lines.push_back("mkdir -p " + shell_quote(dir) + " && " + command_line(exe, child_args(r, experiment, dir)) +
                    " > " + shell_quote(dir + "/log.txt") + " 2>&1");
  }
  return lines;
}

void print_jobs(const SweepState& st) {
  for (const std::string& line : job_lines(st)) st.out << line << "\n";
  check_written(st.out, "standard output");   // before saying the lines were printed
  st.err << "sweep '" << st.plan.spec.name << "': " << st.counts << "; printed " << st.todo.size()
         << " command lines. Run them (e.g. with GNU parallel), then run this sweep again to collect the CSVs.\n";
}

void report_cached_runs(SweepState& st) {
  for (std::size_t i : st.distinct)
    if (st.outcomes[i].state == RunOutcome::State::cached)
      st.err << fmt::format("[{}/{}] {} done (cached)\n", ++st.reported, st.total(), run_label(st.plan.runs[i]));
}

// A child still running: its run and when it started.
struct Running {
  std::size_t run;
  std::chrono::steady_clock::time_point start;
};

// Starts run i as a child process; a run that cannot start is reported failed.
void start_run(SweepState& st, std::size_t i, std::map<pid_t, Running>& running) {
  const auto& r = st.plan.runs[i];
  std::error_code ec;
  fs::create_directories(st.paths.dir(r), ec);
  fs::remove(st.paths.json(r), ec);   // never mistake an old result for this run's
  const auto args = child_args(r, st.plan.spec.experiment, st.paths.dir(r).string());
  {
    std::ofstream log(st.paths.log(r));
    log << "# " << command_line(exe_path(st.opt.exe), args) << "\n";
  }
  const pid_t pid = spawn(st.opt.exe, args, st.paths.log(r).string());
  if (pid < 0) {
    st.outcomes[i].state = RunOutcome::State::failed;
    st.outcomes[i].message = std::string("cannot start ") + st.opt.exe + ": " + std::strerror(-pid);
    st.err << fmt::format("[{}/{}] {} done (FAILED)\n    {}\n", ++st.reported, st.total(), run_label(r),
                          st.outcomes[i].message);
    return;
  }
  running[pid] = Running{i, std::chrono::steady_clock::now()};
}

// The outcome of a run whose child ended with wait status `status`, from
// that status and the run's results file.
void judge_run(const Paths& paths, const SweepRun& r, int status, RunOutcome& o) {
  std::string how;
  if (WIFEXITED(status)) {
    o.exit_code = WEXITSTATUS(status);
    how = fmt::format("exit code {}", o.exit_code);
  } else if (WIFSIGNALED(status)) {
    o.exit_code = 128 + WTERMSIG(status);
    how = fmt::format("killed by signal {} ({})", WTERMSIG(status), strsignal(WTERMSIG(status)));
  }
  std::string why;
  nlohmann::json j;
  const bool have = read_results(paths.json(r).string(), r.hash, j, why);
  if (have && o.exit_code == 0 && j.value("status", "") == "ok") {
    o.state = RunOutcome::State::ok;
  } else if (have && j.value("status", "") == "error") {
    o.state = RunOutcome::State::error;
    std::string e = j.value("error", "");
    o.message = how + ", simulation error: " + e.substr(0, e.find('\n'));
  } else {
    o.state = RunOutcome::State::failed;
    o.message = how + ", " + (have ? "results status '" + j.value("status", "") + "'" : why);
  }
  if (have) o.results = std::move(j);
}

// Records and reports run i, whose child ended after `seconds`.
void finish_run(SweepState& st, std::size_t i, int status, double seconds) {
  const auto& r = st.plan.runs[i];
  RunOutcome& o = st.outcomes[i];
  o.seconds = seconds;
  judge_run(st.paths, r, status, o);
  st.err << fmt::format("[{}/{}] {} done ({}) {:.1f} s\n", ++st.reported, st.total(), run_label(r),
                        o.state == RunOutcome::State::ok ? "ok" : "FAILED", seconds);
  if (o.state != RunOutcome::State::ok)
    st.err << "    " << o.message << "\n    " << st.paths.log(r).string() << " (last lines):\n"
           << last_lines(st.paths.log(r).string(), 10);
}

// Waits for a child to end and finishes its run (returns early on EINTR or
// a child that is not one of the runs).
void wait_for_one(SweepState& st, std::map<pid_t, Running>& running) {
  int status = 0;
  const pid_t pid = waitpid(-1, &status, 0);
  if (pid < 0) {
    if (errno == EINTR) return;
    throw std::runtime_error(std::string("waitpid: ") + std::strerror(errno));
  }
  const auto it = running.find(pid);
  if (it == running.end()) return;
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - it->second.start).count();
  const std::size_t i = it->second.run;
  running.erase(it);
  finish_run(st, i, status, seconds);
}

// SIGINT / SIGTERM while children run: remember it (waitpid returns EINTR,
// the handler is installed without SA_RESTART), forward it to every child,
// wait for them, and stop starting new runs.
volatile std::sig_atomic_t g_signal = 0;
extern "C" void remember_signal(int sig) { g_signal = sig; }

class SignalGuard {
 public:
  SignalGuard() {
    struct sigaction sa {};
    sa.sa_handler = remember_signal;
    sigemptyset(&sa.sa_mask);
    g_signal = 0;
    sigaction(SIGINT, &sa, &old_int_);
    sigaction(SIGTERM, &sa, &old_term_);
  }
  ~SignalGuard() {
    sigaction(SIGINT, &old_int_, nullptr);
    sigaction(SIGTERM, &old_term_, nullptr);
  }

 private:
  struct sigaction old_int_ {}, old_term_ {};
};

void stop_children(SweepState& st, std::map<pid_t, Running>& running) {
  const int sig = g_signal;
  st.err << fmt::format("sweep '{}': {} received: stopping {} running child{}\n", st.plan.spec.name, strsignal(sig),
                        running.size(), running.size() == 1 ? "" : "ren");
  for (const auto& [pid, r] : running) kill(pid, sig);
  while (!running.empty()) wait_for_one(st, running);
}

// Runs st.todo, at most opt.jobs children at once; then repeated
// configurations take the outcome of their first run. Returns the signal
// that interrupted it (0 if none).
int run_pool(SweepState& st) {
  const SignalGuard guard;
  std::map<pid_t, Running> running;
  std::size_t next = 0;
  while ((next < st.todo.size() || !running.empty()) && !g_signal) {
    while (running.size() < static_cast<std::size_t>(st.opt.jobs) && next < st.todo.size() && !g_signal)
      start_run(st, st.todo[next++], running);
    if (running.empty()) continue;
    wait_for_one(st, running);
  }
  if (g_signal) stop_children(st, running);
  for (std::size_t i = 0; i < st.plan.runs.size(); ++i)
    if (st.plan.runs[i].same_as != SIZE_MAX) st.outcomes[i] = st.outcomes[st.plan.runs[i].same_as];
  return g_signal;
}

// One sweep at a time per output folder: an advisory lock on <out>/.lock,
// held until the sweep ends (the kernel drops it if the process dies).
class FolderLock {
 public:
  explicit FolderLock(const fs::path& dir) {
    std::error_code ec;
    fs::create_directories(dir, ec);
    const std::string path = (dir / ".lock").string();
    fd_ = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd_ < 0) throw ConfigError(path + ": cannot create the sweep lock: " + std::strerror(errno));
    if (::flock(fd_, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd_);
      throw ConfigError(dir.string() + ": another sweep is running with this output folder (locked: " + path + ")");
    }
  }
  ~FolderLock() { ::close(fd_); }
  FolderLock(const FolderLock&) = delete;
  FolderLock& operator=(const FolderLock&) = delete;

 private:
  int fd_ = -1;
};

// Writes the CSVs and reports the totals and the failed runs. Returns the
// exit code of the sweep.
int final_report(SweepState& st, std::chrono::steady_clock::time_point t0) {
  const SweepSpec& spec = st.plan.spec;
  const std::string runs_csv = (st.paths.out / (spec.name + "_runs.csv")).string();
  const std::string summary_csv = (st.paths.out / (spec.name + "_summary.csv")).string();
  write_runs_csv(st.plan, st.outcomes, runs_csv);
  write_summary_csv(st.plan, st.outcomes, summary_csv);

  std::size_t n_ok = 0, n_cached = 0, n_failed = 0;
  for (std::size_t i : st.distinct) {
    if (st.outcomes[i].state == RunOutcome::State::ok) ++n_ok;
    else if (st.outcomes[i].state == RunOutcome::State::cached) ++n_cached;
    else ++n_failed;
  }
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  st.err << fmt::format("sweep '{}': {} runs in {:.1f} s: {} ok, {} cached, {} failed\n", spec.name, st.total(), wall,
                        n_ok, n_cached, n_failed);
  for (std::size_t i : st.distinct)
    if (!st.outcomes[i].good())
      st.err << "  FAILED: " << run_label(st.plan.runs[i]) << " (" << st.paths.dir(st.plan.runs[i]).string()
             << "): " << st.outcomes[i].message << "\n";
  st.out << "  runs:    " << runs_csv << "\n  summary: " << summary_csv << "\n";
  return n_failed ? 3 : 0;
}

// --slurm: the runs still to do as one Slurm job array; once it has left
// the queue, every run is collected as the cache finds it, and a run
// without results is reported failed with its log.
int run_on_slurm(SweepState& st) {
  const SweepSpec& spec = st.plan.spec;
  const FolderLock lock(st.paths.out);
  const auto t0 = std::chrono::steady_clock::now();
  if (!st.todo.empty()) {
    SlurmArray a;
    a.name = "wormcast-" + spec.name;
    a.dir = st.paths.out / "slurm";
    a.tasks = job_lines(st);
    a.sbatch_args = st.opt.slurm_args;
    std::error_code ec;
    for (std::size_t i : st.todo) fs::remove(st.paths.json(st.plan.runs[i]), ec);   // never an old result for a new run
    try {
      const std::string id = submit_slurm_array(a);
      st.err << "sweep '" << spec.name << "': " << st.counts << "; submitted " << st.todo.size()
             << " runs as Slurm job " << id << " (its task list and logs in " << a.dir.string() << ")\n";
      wait_for_slurm_job(id, a, st.err);
    } catch (const SlurmError& e) {
      st.err << "error: sweep '" << spec.name << "': " << e.what() << "\n";
      return 1;
    }
  }
  SweepOptions collect = st.opt;
  collect.force = false;   // what the tasks wrote is this sweep's result
  SweepState done(collect, st.out, st.err, st.plan);
  find_cached_runs(done);
  for (std::size_t i : done.todo) {
    done.outcomes[i].state = RunOutcome::State::failed;
    done.outcomes[i].message = "no results after the Slurm job: see " + done.paths.log(done.plan.runs[i]).string() +
                               " and " + (done.paths.out / "slurm").string();
  }
  return final_report(done, t0);
}

}  // namespace

int run_sweep(const std::string& sweep_file, const SweepOptions& opt, std::ostream& out, std::ostream& err) {
  if (opt.jobs < 1) throw ConfigError("-j " + std::to_string(opt.jobs) + ": must be at least 1");
  SweepSpec spec = load_sweep(sweep_file);
  apply_command_line_sets(spec, opt.sets);
  SweepState st(opt, out, err, plan_sweep(spec));
  find_cached_runs(st);
  st.counts = count_text(st);
  if (st.other_build > 0)   // the hash covers the configuration, not the code: say when that matters
    err << "sweep '" << st.plan.spec.name << "': warning: " << st.other_build << " of the cached runs were computed "
        << "by another build of wormcast; they are reused as they are (--force reruns them, if the model has "
        << "changed since)\n";

  if (opt.dry_run) {
    print_dry_run(st);
    return 0;
  }
  if (opt.emit_jobs) {
    print_jobs(st);
    return 0;
  }
  if (opt.slurm) return run_on_slurm(st);

  const FolderLock lock(st.paths.out);
  err << "sweep '" << st.plan.spec.name << "': " << st.counts << ", " << opt.jobs << " at a time; output "
      << st.paths.out.string() << "\n";
  const auto t0 = std::chrono::steady_clock::now();
  report_cached_runs(st);
  const int sig = run_pool(st);
  const int code = final_report(st, t0);
  if (!sig) return code;
  err << "sweep '" << st.plan.spec.name << "': interrupted; the runs that finished are kept, run it again to do the rest\n";
  return 128 + sig;
}

}  // namespace wormcast::tb
