// `wormcast sweep`: grid expansion, configuration hashes and caching, failing
// runs, the Student-t confidence interval, the CSV files, and bad sweep
// files. The library parts are tested in-process; running sweeps goes
// through the real binary (each run is a child process of it).
#include <catch2/catch.hpp>

#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "../common/shell.h"
#include "testbenches/app/sweep.h"

namespace fs = std::filesystem;
using namespace wormcast;

namespace {
using Out = test::CommandOutput;
using test::shell;

std::string bin() { return test::wormcast_bin(); }
Out sh(const std::string& cmd) { return shell(cmd); }

Out cli(const std::string& args) { return sh(bin() + " " + args); }

// A fresh folder per test case and process (ctest may run test cases, and
// several build folders, at once), removed at the end of the test case.
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& name)
      : path(fs::temp_directory_path() / ("wormcast_test_sweep_" + std::to_string(getpid())) / name) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path.parent_path(), ec);
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
};

std::string write(const fs::path& dir, const std::string& name, const std::string& text) {
  const auto p = (dir / name).string();
  std::ofstream(p) << text;
  return p;
}

// A small, fast base experiment: default network, tiny window.
const char* kBase = "name: small\nseed: 4\nsim:\n  warmup: 0\n  measure: 2000\n";

struct Csv {
  std::vector<std::string> header;
  std::vector<std::map<std::string, std::string>> rows;
  std::vector<std::size_t> widths;   // cells per data row
};

std::vector<std::string> split(const std::string& line) {
  std::vector<std::string> cells;
  std::stringstream ss(line);
  std::string c;
  while (std::getline(ss, c, ',')) cells.push_back(c);
  if (!line.empty() && line.back() == ',') cells.emplace_back();
  return cells;
}

Csv read_csv(const std::string& path) {
  Csv csv;
  std::ifstream f(path);
  REQUIRE(f);
  std::string line;
  std::getline(f, line);
  csv.header = split(line);
  while (std::getline(f, line)) {
    const auto cells = split(line);
    csv.widths.push_back(cells.size());
    std::map<std::string, std::string> row;
    for (std::size_t i = 0; i < cells.size() && i < csv.header.size(); ++i) row[csv.header[i]] = cells[i];
    csv.rows.push_back(row);
  }
  return csv;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t n = 0;
  for (auto p = text.find(what); p != std::string::npos; p = text.find(what, p + 1)) ++n;
  return n;
}
}  // namespace

TEST_CASE("sweep: grid x trials expand in a fixed order, each point validated, seeds per trial") {
  const TempDir tmp("expand");
  const fs::path& d = tmp.path;
  write(d, "base.yaml", kBase);
  const auto file = write(d, "s.yaml",
                          "name: ex\nexperiment: base.yaml\ntrials: 2\nset:\n  sim.measure: 3000\n"
                          "grid:\n  traffic.load: [0.02, 0.05, 0.08]\n  routing.selection: [deterministic, adaptive]\n");
  const tb::SweepPlan plan = tb::plan_sweep(tb::load_sweep(file));
  CHECK(plan.spec.name == "ex");
  CHECK(plan.spec.experiment == (d / "base.yaml").lexically_normal().string());
  CHECK(plan.points == 6);
  REQUIRE(plan.runs.size() == 12);
  // First grid key varies slowest, the last fastest, trials innermost.
  const std::vector<std::pair<std::string, std::string>> expect = {
      {"0.02", "deterministic"}, {"0.02", "adaptive"}, {"0.05", "deterministic"},
      {"0.05", "adaptive"},      {"0.08", "deterministic"}, {"0.08", "adaptive"}};
  std::set<std::string> hashes;
  for (std::size_t i = 0; i < plan.runs.size(); ++i) {
    const auto& r = plan.runs[i];
    INFO("run " << i);
    CHECK(r.point == i / 2);
    CHECK(r.trial == static_cast<int>(i % 2));
    CHECK(r.seed == 4 + i % 2);   // seed0 is the base experiment's seed
    REQUIRE(r.params.size() == 2);
    CHECK(r.params[0] == std::make_pair(std::string("traffic.load"), expect[i / 2].first));
    CHECK(r.params[1] == std::make_pair(std::string("routing.selection"), expect[i / 2].second));
    REQUIRE(r.overrides.size() == 3);
    CHECK(r.overrides[0].path == "sim.measure");
    CHECK(r.experiment_name == "small");
    CHECK(r.hash.size() == 16);
    CHECK(r.same_as == SIZE_MAX);
    hashes.insert(r.hash);
  }
  CHECK(hashes.size() == 12);
  CHECK(tb::describe_point(plan.runs[6]) == "traffic.load=0.05 routing.selection=adaptive");

  // Expanding again gives the same runs and hashes.
  const tb::SweepPlan again = tb::plan_sweep(tb::load_sweep(file));
  for (std::size_t i = 0; i < plan.runs.size(); ++i) CHECK(again.runs[i].hash == plan.runs[i].hash);

  // `seed:` in the sweep file replaces the experiment's seed as seed0; no grid means one point.
  const auto f2 = write(d, "s2.yaml", "experiment: base.yaml\nseed: 10\ntrials: 3\n");
  const tb::SweepPlan p2 = tb::plan_sweep(tb::load_sweep(f2));
  CHECK(p2.spec.name == "s2");
  CHECK(p2.points == 1);
  REQUIRE(p2.runs.size() == 3);
  CHECK(p2.runs[2].seed == 12);
  CHECK(tb::describe_point(p2.runs[0]) == "(base)");
}

TEST_CASE("sweep: zipped keys step together as one axis (slowest), crossed with the grid") {
  const TempDir tmp("zip");
  const fs::path& d = tmp.path;
  write(d, "base.yaml", std::string(kBase) + "node:\n  model: host_ni\n");   // NI overheads are in use
  // R = t_hs / t_ns with t_nr = t_ns (seed000 §7.2): both NI overheads move together.
  const auto file = write(d, "z.yaml",
                          "experiment: base.yaml\ngrid:\n  traffic.load: [0.02, 0.05]\n"
                          "zip:\n  ni.t_ns: [2000, 500, 200]\n  ni.t_nr: [2000, 500, 200]\n");
  const tb::SweepPlan plan = tb::plan_sweep(tb::load_sweep(file));
  CHECK(plan.points == 6);
  REQUIRE(plan.runs.size() == 6);
  const std::vector<std::array<std::string, 3>> expect = {{"0.02", "2000", "2000"}, {"0.05", "2000", "2000"},
                                                          {"0.02", "500", "500"},   {"0.05", "500", "500"},
                                                          {"0.02", "200", "200"},   {"0.05", "200", "200"}};
  for (std::size_t i = 0; i < plan.runs.size(); ++i) {
    INFO("run " << i);
    const auto& p = plan.runs[i].params;
    REQUIRE(p.size() == 3);   // every zipped key keeps its own column
    CHECK(p[0] == std::make_pair(std::string("traffic.load"), expect[i][0]));
    CHECK(p[1] == std::make_pair(std::string("ni.t_ns"), expect[i][1]));
    CHECK(p[2] == std::make_pair(std::string("ni.t_nr"), expect[i][2]));
  }
  // Zipped lists may repeat a value; they must be equally long.
  const auto rep = write(d, "rep.yaml", "experiment: base.yaml\nzip:\n  ni.t_ns: [100, 200]\n  host.t_hs: [1000, 1000]\n");
  CHECK(tb::plan_sweep(tb::load_sweep(rep)).points == 2);
  const auto bad = write(d, "bad.yaml", "experiment: base.yaml\nzip:\n  ni.t_ns: [100, 200]\n  ni.t_nr: [100]\n");
  CHECK_THROWS_WITH(tb::load_sweep(bad), Catch::Contains("bad.yaml:4") && Catch::Contains("zip: ni.t_nr") &&
                                             Catch::Contains("equally long"));
  const auto dup = write(d, "dup.yaml", "experiment: base.yaml\ngrid:\n  ni.t_ns: [1]\nzip:\n  ni.t_ns: [2]\n");
  CHECK_THROWS_WITH(tb::load_sweep(dup), Catch::Contains("dup.yaml:5") && Catch::Contains("given twice"));
  const auto val = write(d, "val.yaml", "experiment: base.yaml\nzip:\n  ni.t_ns: [100, -3]\n");
  CHECK_THROWS_WITH(tb::plan_sweep(tb::load_sweep(val)), Catch::Contains("val.yaml:3: zip: ni.t_ns: value '-3'"));
}

TEST_CASE("sweep: average keys run at every grid point with their own seeds, the summary pools them") {
  const TempDir tmp("average");
  const fs::path& d = tmp.path;
  write(d, "base.yaml", kBase);
  // Each point on three random topologies, two trials each: 6 runs per point.
  const auto file = write(d, "a.yaml",
                          "name: avg\nexperiment: base.yaml\ntrials: 2\ngrid:\n  traffic.load: [0.03, 0.06]\n"
                          "average:\n  topology.seed: [1, 2, 3]\n");
  const tb::SweepPlan plan = tb::plan_sweep(tb::load_sweep(file));
  CHECK(plan.points == 2);
  CHECK(plan.replicates == 3);
  REQUIRE(plan.runs.size() == 12);
  std::set<std::string> hashes;
  for (std::size_t i = 0; i < plan.runs.size(); ++i) {
    const auto& r = plan.runs[i];
    INFO("run " << i);
    CHECK(r.point == i / 6);
    REQUIRE(r.params.size() == 1);   // the grid only: what the summary groups by
    CHECK(r.params[0].second == (i < 6 ? "0.03" : "0.06"));
    REQUIRE(r.averaged.size() == 1);
    CHECK(r.averaged[0] == std::make_pair(std::string("topology.seed"), std::to_string(1 + (i % 6) / 2)));
    CHECK(r.trial == static_cast<int>(i % 6));
    CHECK(r.seed == 4 + i % 6);   // distinct run seeds within a point
    CHECK(r.overrides.back().path == "topology.seed");
    hashes.insert(r.hash);
  }
  CHECK(hashes.size() == 12);

  const auto out = d / "out";
  Out o = cli("sweep " + file + " -j 2 --out " + out.string());
  INFO(o.text);
  REQUIRE(o.code == 0);
  CHECK_THAT(o.text, Catch::Contains("2 points x 3 averaged x 2 trials = 12 runs"));
  CHECK_THAT(o.text, Catch::Contains("topology.seed=3 trial 5 seed 9"));
  Csv runs = read_csv((out / "avg_runs.csv").string());
  CHECK(std::vector<std::string>(runs.header.begin(), runs.header.begin() + 4) ==
        std::vector<std::string>{"traffic.load", "topology.seed", "trial", "seed"});
  REQUIRE(runs.rows.size() == 12);
  for (std::size_t i = 0; i < 12; ++i) {
    CHECK(runs.rows[i]["topology.seed"] == std::to_string(1 + (i % 6) / 2));
    // The run really used that topology: its results' config says so.
    std::ifstream jf(out / "runs" / plan.runs[i].hash / ("small_seed" + std::to_string(plan.runs[i].seed) + ".json"));
    const auto j = nlohmann::json::parse(jf);
    CHECK(j.at("config").at("topology").at("seed").dump() == runs.rows[i]["topology.seed"]);
  }
  // The summary has one row per grid point, no topology.seed column, and the
  // mean over all six runs of the point.
  Csv sum = read_csv((out / "avg_summary.csv").string());
  CHECK(sum.header[0] == "traffic.load");
  CHECK(sum.header[1] == "n");
  REQUIRE(sum.rows.size() == 2);
  for (std::size_t p = 0; p < 2; ++p) {
    CHECK(sum.rows[p]["n"] == "6");
    double total = 0;
    for (std::size_t i = 6 * p; i < 6 * p + 6; ++i) total += std::stod(runs.rows[i]["metrics.latency_cycles.mean"]);
    CHECK(std::stod(sum.rows[p]["metrics.latency_cycles.mean.mean"]) == Approx(total / 6));
  }

  // An average key may not also be swept or fixed; its values are checked per point.
  const auto twice = write(d, "twice.yaml", "experiment: base.yaml\ngrid:\n  topology.seed: [1]\naverage:\n  topology.seed: [2]\n");
  CHECK_THROWS_WITH(tb::load_sweep(twice), Catch::Contains("twice.yaml:5: average: topology.seed") &&
                                               Catch::Contains("given twice"));
  const auto fixed = write(d, "fixed.yaml", "experiment: base.yaml\nset:\n  topology.seed: 1\naverage:\n  topology.seed: [2]\n");
  CHECK_THROWS_WITH(tb::load_sweep(fixed), Catch::Contains("fixed.yaml:5: average: topology.seed") &&
                                               Catch::Contains("also fixed under `set`"));
  const auto bad = write(d, "bad.yaml", "experiment: base.yaml\naverage:\n  topology.seed: [1, x]\n");
  CHECK_THROWS_WITH(tb::plan_sweep(tb::load_sweep(bad)), Catch::Contains("bad.yaml:3: average: topology.seed: value 'x'"));
  const auto empty = write(d, "empty.yaml", "experiment: base.yaml\naverage:\n  topology.seed: []\n");
  CHECK_THROWS_WITH(tb::load_sweep(empty), Catch::Contains("empty.yaml:3: average: topology.seed: empty list"));
}

TEST_CASE("sweep: the hash identifies the resolved configuration") {
  tb::ExperimentConfig a = tb::load_experiment("", {{"clock.period", "5ns"}, {"traffic.load", "0.05"}});
  tb::ExperimentConfig b = tb::load_experiment("", {{"clock.period", "5000ps"}, {"traffic.load", "5e-2"}});
  CHECK(tb::config_hash(a) == tb::config_hash(b));   // spelled differently, resolved the same
  tb::JsonParamWriter w;
  a.visit(w);
  CHECK(tb::config_hash(w.out) == tb::config_hash(a));   // what a results file's "config" holds
  CHECK(tb::config_hash(a).size() == 16);
  b.set({{"traffic.load", "0.06"}});
  CHECK(tb::config_hash(a) != tb::config_hash(b));
  b = a;
  b.seed = a.seed + 1;
  CHECK(tb::config_hash(a) != tb::config_hash(b));
  // FNV-1a 64 reference values.
  CHECK(tb::fnv1a64("") == 0xcbf29ce484222325ULL);
  CHECK(tb::fnv1a64("a") == 0xaf63dc4c8601ec8cULL);

  // Two grid values that resolve to one configuration are one run.
  const TempDir tmp("samehash");
  const fs::path& d = tmp.path;
  write(d, "base.yaml", kBase);
  const auto file = write(d, "s.yaml", "experiment: base.yaml\ngrid:\n  clock.period: [5ns, 5000ps, 10ns]\n");
  const auto plan = tb::plan_sweep(tb::load_sweep(file));
  REQUIRE(plan.runs.size() == 3);
  CHECK(plan.runs[1].hash == plan.runs[0].hash);
  CHECK(plan.runs[1].same_as == 0);
  CHECK(plan.runs[2].same_as == SIZE_MAX);

  // A topology file counts by its content, not its path.
  const auto topo = write(d, "t.yaml",
                          "format: wormcast-topology/1\nports_per_switch: 4\nswitches: 2\nlinks:\n"
                          "  - {a: [0, 0], b: [1, 0]}\nnodes:\n  - {node: 0, at: [0, 1]}\n  - {node: 1, at: [1, 1]}\n");
  tb::ExperimentConfig t = tb::load_experiment("", {{"topology.kind", "file"}, {"topology.file", topo}});
  const std::string h1 = tb::config_hash(t);
  t.set({{"topology.file", (d / "." / "t.yaml").string()}});
  CHECK(tb::config_hash(t) == h1);
  std::ofstream(topo, std::ios::app) << "description: edited\n";
  CHECK(tb::config_hash(t) != h1);
}

TEST_CASE("sweep: Student-t 95% confidence interval on known numbers") {
  CHECK(tb::t95(1) == Approx(12.7062));
  CHECK(tb::t95(2) == Approx(4.3027));
  CHECK(tb::t95(10) == Approx(2.2281));
  CHECK(tb::t95(30) == Approx(2.0423));
  CHECK(tb::t95(31) == Approx(1.96));
  CHECK(tb::t95(1000) == Approx(1.96));

  auto s = tb::sample_stats({1, 2, 3});   // mean 2, s = 1, t(2) = 4.3027
  CHECK(s.n == 3);
  CHECK(s.mean == Approx(2.0));
  CHECK(s.std == Approx(1.0));
  CHECK(s.ci95 == Approx(4.3027 / std::sqrt(3.0)).epsilon(1e-9));
  CHECK(s.ci95 == Approx(2.4842).margin(1e-4));

  s = tb::sample_stats({2, 4, 4, 4, 5, 5, 7, 9});   // mean 5, sum of squares 32, s^2 = 32/7
  CHECK(s.mean == Approx(5.0));
  CHECK(s.std == Approx(std::sqrt(32.0 / 7.0)));
  CHECK(s.ci95 == Approx(2.3646 * std::sqrt(32.0 / 7.0) / std::sqrt(8.0)));

  s = tb::sample_stats({7.5});
  CHECK(s.n == 1);
  CHECK(s.mean == 7.5);
  CHECK(s.std == 0.0);
  CHECK(s.ci95 == 0.0);
  CHECK(tb::sample_stats({}).n == 0);
}

TEST_CASE("sweep: runs in parallel, writes the CSVs, and a second invocation is all cached") {
  const TempDir tmp("run");
  const fs::path& d = tmp.path;
  write(d, "base.yaml", kBase);
  const auto file =
      write(d, "s.yaml", "name: two\nexperiment: base.yaml\ntrials: 2\ngrid:\n  traffic.load: [0.03, 0.06]\n");
  const auto out = d / "out";
  Out o = cli("sweep " + file + " -j 2 --out " + out.string());
  INFO(o.text);
  REQUIRE(o.code == 0);
  CHECK(count(o.text, "done (ok)") == 4);
  CHECK_THAT(o.text, Catch::Contains("[4/4] point traffic.load="));
  CHECK_THAT(o.text, Catch::Contains("4 runs in") && Catch::Contains("4 ok, 0 cached, 0 failed"));

  // Each run has its own folder with its log and results.
  const auto plan = tb::plan_sweep(tb::load_sweep(file));
  REQUIRE(plan.runs.size() == 4);
  std::vector<fs::file_time_type> mtimes;
  for (const auto& r : plan.runs) {
    const auto dir = out / "runs" / r.hash;
    const auto json = dir / ("small_seed" + std::to_string(r.seed) + ".json");
    REQUIRE(fs::exists(json));
    mtimes.push_back(fs::last_write_time(json));
    std::ifstream jf(json);
    const auto j = nlohmann::json::parse(jf);
    CHECK(j.at("status") == "ok");
    CHECK(tb::config_hash(j.at("config")) == r.hash);
    std::ifstream lf(dir / "log.txt");
    const std::string log((std::istreambuf_iterator<char>(lf)), std::istreambuf_iterator<char>());
    CHECK_THAT(log, Catch::Contains("--set traffic.load=") && Catch::Contains("accepted throughput"));
  }

  // Runs CSV: one row per run, fixed columns first, every numeric metric, wall time.
  Csv runs = read_csv((out / "two_runs.csv").string());
  REQUIRE(runs.header.size() > 10);
  CHECK(std::vector<std::string>(runs.header.begin(), runs.header.begin() + 5) ==
        std::vector<std::string>{"traffic.load", "trial", "seed", "hash", "status"});
  for (const char* c : {"metrics.latency_cycles.mean", "metrics.accepted_throughput", "metrics.saturated",
                        "metrics.packets_delivered", "performance.wall_seconds"})
    CHECK(std::count(runs.header.begin(), runs.header.end(), c) == 1);
  CHECK(std::count(runs.header.begin(), runs.header.end(), "metrics.measurement_window_cycles") == 0);  // not a number
  REQUIRE(runs.rows.size() == 4);
  for (std::size_t i = 0; i < 4; ++i) {
    CHECK(runs.widths[i] == runs.header.size());
    CHECK(runs.rows[i]["traffic.load"] == (i < 2 ? "0.03" : "0.06"));
    CHECK(runs.rows[i]["trial"] == std::to_string(i % 2));
    CHECK(runs.rows[i]["seed"] == std::to_string(4 + i % 2));
    CHECK(runs.rows[i]["hash"] == plan.runs[i].hash);
    CHECK(runs.rows[i]["status"] == "ok");
  }

  // Summary CSV: one row per point; mean / ci95 / std of the runs' values.
  Csv sum = read_csv((out / "two_summary.csv").string());
  CHECK(sum.header[0] == "traffic.load");
  CHECK(sum.header[1] == "n");
  for (const char* c : {"metrics.latency_cycles.mean.mean", "metrics.latency_cycles.mean.ci95",
                        "metrics.latency_cycles.mean.std", "performance.wall_seconds.mean"})
    CHECK(std::count(sum.header.begin(), sum.header.end(), c) == 1);
  CHECK(sum.header.size() == 2 + 3 * (runs.header.size() - 5));
  REQUIRE(sum.rows.size() == 2);
  for (std::size_t p = 0; p < 2; ++p) {
    CHECK(sum.widths[p] == sum.header.size());
    CHECK(sum.rows[p]["n"] == "2");
    for (const std::string m : {"metrics.latency_cycles.mean", "metrics.accepted_throughput"}) {
      const double a = std::stod(runs.rows[2 * p][m]), b = std::stod(runs.rows[2 * p + 1][m]);
      const double mean = (a + b) / 2, sd = std::fabs(a - b) / std::sqrt(2.0);
      INFO(m);
      CHECK(std::stod(sum.rows[p][m + ".mean"]) == Approx(mean));
      CHECK(std::stod(sum.rows[p][m + ".std"]) == Approx(sd));
      CHECK(std::stod(sum.rows[p][m + ".ci95"]) == Approx(12.7062 * sd / std::sqrt(2.0)));
    }
  }

  // Again: everything cached, nothing rerun, same CSVs.
  o = cli("sweep " + file + " -j 2 --out " + out.string());
  INFO(o.text);
  REQUIRE(o.code == 0);
  CHECK(count(o.text, "done (cached)") == 4);
  CHECK(count(o.text, "done (ok)") == 0);
  CHECK_THAT(o.text, Catch::Contains("0 ok, 4 cached, 0 failed"));
  for (std::size_t i = 0; i < plan.runs.size(); ++i)
    CHECK(fs::last_write_time(out / "runs" / plan.runs[i].hash /
                              ("small_seed" + std::to_string(plan.runs[i].seed) + ".json")) == mtimes[i]);
  CHECK(read_csv((out / "two_summary.csv").string()).rows == sum.rows);

  // --dry-run says so too; a new grid value and a third trial are the only new runs.
  const auto file2 = write(d, "more.yaml",
                           "name: two\nexperiment: base.yaml\ntrials: 3\ngrid:\n  traffic.load: [0.03, 0.06, 0.09]\n");
  o = cli("sweep " + file2 + " --dry-run --out " + out.string());
  INFO(o.text);
  REQUIRE(o.code == 0);
  CHECK_THAT(o.text, Catch::Contains("3 points x 3 trials = 9 runs, 4 cached, 5 to run"));
  CHECK(count(o.text, " cached\n") == 4);
  CHECK(count(o.text, " to run\n") == 5);
  CHECK_THAT(o.text, Catch::Contains("point traffic.load=0.09 trial 2 seed 6  hash "));

  // No warning while the runs come from this build; a run computed by another build (its results
  // say so) is still reused, with a warning that names how many.
  CHECK_THAT(o.text, !Catch::Contains("another build"));
  {
    const auto json = out / "runs" / plan.runs[0].hash / ("small_seed" + std::to_string(plan.runs[0].seed) + ".json");
    std::ifstream jf(json);
    auto j = nlohmann::json::parse(jf);
    CHECK(j.at("build_id").get<std::string>().rfind(std::string(WORMCAST_VERSION) + "-", 0) == 0);
    j["build_id"] = "0.0.0-1-1";
    jf.close();
    std::ofstream(json) << j.dump(2);
  }
  o = cli("sweep " + file + " -j 2 --out " + out.string());
  INFO(o.text);
  REQUIRE(o.code == 0);
  CHECK(count(o.text, "done (cached)") == 4);
  CHECK_THAT(o.text, Catch::Contains("warning: 1 of the cached runs were computed by another build of wormcast"));

  // --force reruns cached ones.
  o = cli("sweep " + file + " -j 2 --force --out " + out.string());
  REQUIRE(o.code == 0);
  CHECK(count(o.text, "done (ok)") == 4);
}

TEST_CASE("sweep: --emit-jobs prints runnable command lines (for GNU parallel) and the sweep then collects them") {
  const TempDir tmp("emit");
  const fs::path& d = tmp.path;
  write(d, "base.yaml", kBase);
  const auto file =
      write(d, "s.yaml", "name: em\nexperiment: base.yaml\ngrid:\n  traffic.load: [0.03, 0.06]\n  link.latency: [1, 2]\n");
  const auto out = d / "out";
  const std::string cmd = bin() + " sweep " + file + " --emit-jobs --out " + out.string();
  const Out emitted = shell(cmd, /*merge_stderr=*/false);
  REQUIRE(emitted.code == 0);
  std::vector<std::string> lines;
  std::istringstream in(emitted.text);
  for (std::string l; std::getline(in, l);) lines.push_back(l + "\n");
  REQUIRE(lines.size() == 4);
  CHECK_THAT(lines[0], Catch::StartsWith("mkdir -p /") && Catch::Contains(" run /") &&
                           Catch::Contains("--set traffic.load=0.03 --set link.latency=1 --seed 4 --out /") &&
                           Catch::Contains("--no-progress > /") && Catch::EndsWith("log.txt 2>&1\n"));
  CHECK_FALSE(fs::exists(out));   // nothing was run
  // Run the lines (here with sh, as GNU parallel would), then the sweep finds them all cached.
  for (const auto& l : lines) REQUIRE(sh(l.substr(0, l.size() - 1)).code == 0);
  const Out o = cli("sweep " + file + " --out " + out.string());
  INFO(o.text);
  REQUIRE(o.code == 0);
  CHECK(count(o.text, "done (cached)") == 4);
  CHECK(read_csv((out / "em_runs.csv").string()).rows.size() == 4);
  // Nothing left to emit.
  CHECK(cli("sweep " + file + " --emit-jobs --out " + out.string()).text.find("mkdir") == std::string::npos);
}

TEST_CASE("sweep: failing runs are reported and the others kept with exit code 3") {
  // The failure passes up-front validation and happens at run time: a
  // topology file that does not exist (the child exits 1 and writes no
  // results). (A watchdog shorter than a hop would fail here with a false
  // deadlock, but is refused up front: see the next test case.)
  const TempDir tmp("fail");
  const fs::path& d = tmp.path;
  write(d, "tiny.yaml",
        "format: wormcast-topology/1\nports_per_switch: 4\nswitches: 2\nlinks:\n  - {a: [0, 0], b: [1, 0]}\n"
        "nodes:\n  - {node: 0, at: [0, 1]}\n  - {node: 1, at: [0, 2]}\n  - {node: 2, at: [1, 1]}\n"
        "  - {node: 3, at: [1, 2]}\n");
  write(d, "base.yaml",
        "name: tiny\ntopology:\n  kind: file\n  file: tiny.yaml\ntraffic:\n  load: 0.2\nsim:\n  warmup: 0\n"
        "  measure: 2000\n");
  const std::string good = (d / "tiny.yaml").string(), missing = (d / "missing.yaml").string();
  const auto file = write(d, "s.yaml",
                          "name: f\nexperiment: base.yaml\ngrid:\n  topology.file: [" + good + ", " + missing +
                              "]\n  sim.measure: [2000, 3000]\n");
  const auto out = d / "out";
  const Out o = cli("sweep " + file + " -j 2 --out " + out.string());
  INFO(o.text);
  CHECK(o.code == 3);
  CHECK(count(o.text, "done (ok)") == 2);
  CHECK(count(o.text, "done (FAILED)") == 2);
  CHECK_THAT(o.text, Catch::Contains("exit code 1, no results file"));
  CHECK_THAT(o.text, Catch::Contains("missing.yaml: cannot open file"));   // from the log's last lines
  CHECK_THAT(o.text, Catch::Contains("log.txt (last lines)"));
  CHECK_THAT(o.text, Catch::Contains("2 ok, 0 cached, 2 failed"));
  CHECK(count(o.text, "  FAILED: point ") == 2);

  Csv runs = read_csv((out / "f_runs.csv").string());
  REQUIRE(runs.rows.size() == 4);
  CHECK(runs.rows[0]["status"] == "ok");
  CHECK(runs.rows[1]["status"] == "ok");
  CHECK(runs.rows[2]["status"] == "failed");
  CHECK(runs.rows[3]["status"] == "failed");
  CHECK_FALSE(runs.rows[0]["metrics.latency_cycles.mean"].empty());
  CHECK(runs.rows[2]["metrics.latency_cycles.mean"].empty());
  Csv sum = read_csv((out / "f_summary.csv").string());
  REQUIRE(sum.rows.size() == 4);
  CHECK(sum.rows[0]["n"] == "1");
  CHECK(sum.rows[0]["metrics.latency_cycles.mean.ci95"] == "0");
  CHECK(sum.rows[1]["n"] == "1");
  CHECK(sum.rows[2]["n"] == "0");
  CHECK(sum.rows[2]["metrics.latency_cycles.mean.mean"].empty());
  for (std::size_t w : sum.widths) CHECK(w == sum.header.size());

  // The next invocation reruns only the failed ones.
  const Out again = cli("sweep " + file + " --dry-run --out " + out.string());
  CHECK_THAT(again.text, Catch::Contains("2 cached, 2 to run"));
}

TEST_CASE("sweep: bad sweep files are errors naming the file and key, exit 1, before anything runs") {
  const TempDir tmp("bad");
  const fs::path& d = tmp.path;
  write(d, "base.yaml", kBase);
  struct Case { std::string file, text; std::vector<std::string> expect; };
  const Case cases[] = {
      {"unknown.yaml", "experiment: base.yaml\ntrails: 3\n", {"unknown.yaml:2", "trails", "unknown key"}},
      {"badval.yaml", "experiment: base.yaml\ngrid:\n  traffic.load: [0.05, lots]\n",
       {"badval.yaml:3", "grid: traffic.load", "'lots'", "not a number"}},
      {"range.yaml", "experiment: base.yaml\ngrid:\n  traffic.load: [0.05]\n  switch.buffer: [0]\n",
       {"range.yaml:4", "switch.buffer", "out of range"}},
      {"badkey.yaml", "experiment: base.yaml\ngrid:\n  traffic.lod: [0.05]\n",
       {"badkey.yaml:3", "traffic.lod", "unknown parameter"}},
      {"badset.yaml", "experiment: base.yaml\nset:\n  sim.measure: 2000\n  sim.bogus: 1\n",
       {"badset.yaml:4", "set: sim.bogus", "unknown parameter"}},
      {"empty.yaml", "experiment: base.yaml\ngrid:\n  traffic.load: []\n",
       {"empty.yaml:3", "traffic.load", "empty list"}},
      {"notlist.yaml", "experiment: base.yaml\ngrid:\n  traffic.load: 0.05\n",
       {"notlist.yaml:3", "traffic.load", "expected a list"}},
      {"cross.yaml", "experiment: base.yaml\ngrid:\n  traffic.packet_size: [128, 1000]\n",
       {"cross.yaml", "grid point traffic.packet_size=1000", "exceeds switch.buffer"}},
      {"noexp.yaml", "experiment: nowhere.yaml\n", {"noexp.yaml:1", "experiment", "nowhere.yaml", "not found"}},
      {"seed.yaml", "experiment: base.yaml\ngrid:\n  seed: [1, 2]\n", {"seed.yaml:3", "seed", "trials"}},
      {"twice.yaml", "experiment: base.yaml\nset:\n  traffic.load: 0.1\ngrid:\n  traffic.load: [0.2]\n",
       {"twice.yaml:5", "traffic.load", "also fixed under `set`"}},
      {"trials.yaml", "experiment: base.yaml\ntrials: 0\n", {"trials.yaml:2", "trials", "out of range"}},
      {"malformed.yaml", "experiment: base.yaml\ngrid: [\n", {"malformed.yaml", "malformed YAML"}},
  };
  for (const auto& c : cases) {
    const auto f = write(d, c.file, c.text);
    const Out o = cli("sweep " + f + " --out " + (d / "out").string());
    INFO(c.file << ": " << o.text);
    CHECK(o.code == 1);
    CHECK_THAT(o.text, Catch::StartsWith("wormcast: error: "));
    for (const auto& e : c.expect) CHECK_THAT(o.text, Catch::Contains(e));
    CHECK_FALSE(fs::exists(d / "out"));   // nothing ran
  }
  const Out o = cli("sweep " + (d / "absent.yaml").string());
  CHECK(o.code == 1);
  CHECK_THAT(o.text, Catch::Contains("absent.yaml: file not found"));
}

TEST_CASE("sweep: every sweep file shipped under experiments/ expands and validates (--dry-run)", "[sweep]") {
  // Each documented reproduction command is `wormcast sweep FILE`: a file whose
  // keys, values or base experiment went stale must fail here, not for a user.
  TempDir d("shipped");
  int sweeps = 0;
  for (const auto& e : fs::recursive_directory_iterator(fs::path(WORMCAST_SOURCE_DIR) / "experiments")) {
    if (!e.is_regular_file() || e.path().extension() != ".yaml") continue;
    if (e.path().parent_path().filename() != "sweeps") continue;
    ++sweeps;
    const Out o = cli("sweep " + e.path().string() + " --dry-run --out " + (d.path / "out").string());
    INFO(e.path().string() << ": " << o.text);
    CHECK(o.code == 0);
    CHECK_THAT(o.text, Catch::Contains(" to run") || Catch::Contains(" cached"));
  }
  CHECK(sweeps >= 30);   // seed000-004 and the generic sweeps
}
