#include "testbenches/app/bench.h"

#include <fmt/format.h>

#include <chrono>

#include "rtl_models/core/process_memory.h"
#include "testbenches/app/bench_direct.h"
#include "testbenches/app/runner.h"

namespace wormcast::tb {

bool run_bench_case(ExperimentConfig cfg, Cycle measure, const std::string& net, double load,
                    const std::string& level, const std::string& note, std::ostream& os) {
  cfg.sim.warmup = measure / 5;
  cfg.sim.measure = measure;
  reset_peak_rss();
  const RunResult r = run_experiment(cfg, RunOptions{});
  const auto& m = r.json.at("metrics");
  const auto& p = r.json.at("performance");
  os << fmt::format("{:<20} {:>6.3f} {:>6} {:>10} {:>9.1f} {:>8.3f} {:>8.2f} {:>12.0f} {:>14.0f} {:>9.1f}{}{}\n", net,
                    load, level, m.value("cycles_simulated", 0), m["latency_cycles"].value("mean", 0.0),
                    p.value("setup_seconds", 0.0), p.value("simulation_seconds", 0.0),
                    p.value("cycles_per_second", 0.0), p.value("flit_hops_per_second", 0.0),
                    p.value("peak_rss_mb", 0.0), note, r.ok ? "" : "  ERROR: " + r.error.substr(0, 60));
  return r.ok;
}

int run_bench(const BenchOptions& opt, std::ostream& os) {
  struct Case { const char* net; int switches, nodes; double load; const char* label; };
  const Case cases[] = {
      {"32 nodes / 8 sw", 8, 32, 0.02, "low"},      {"32 nodes / 8 sw", 8, 32, 0.06, "medium"},
      {"32 nodes / 8 sw", 8, 32, 0.10, "high"},     {"256 nodes / 64 sw", 64, 256, 0.01, "low"},
      {"256 nodes / 64 sw", 64, 256, 0.02, "medium"}, {"256 nodes / 64 sw", 64, 256, 0.03, "high"},
  };
  const Cycle measure = opt.quick ? 5000 : 50000;
  // Router flit-hops: flits crossing a switch (injection and ejection links
  // do not count). Set-up and simulation are timed apart; the peak RSS is
  // each case's own (reset before it, after the allocator has handed back
  // what earlier cases freed).
  os << "allocator: " << allocator_name() << "\n";
  os << fmt::format("{:<20} {:>6} {:>6} {:>10} {:>9} {:>8} {:>8} {:>12} {:>14} {:>9}\n", "network", "load", "level",
                    "cycles", "latency", "setup s", "sim s", "cycles/s", "router hops/s", "rss MB");
  int failures = 0;
  for (const Case& c : cases) {
    ExperimentConfig cfg;
    cfg.name = "bench";
    cfg.set({{"topology.switches", std::to_string(c.switches)},
             {"topology.nodes", std::to_string(c.nodes)},
             {"traffic.load", fmt::format("{}", c.load)}});
    if (!run_bench_case(cfg, measure, c.net, c.load, c.label, "", os)) ++failures;
  }
  failures += run_direct_bench_cases(opt, os);   // direct networks (bench_direct.cpp)
  // Idle network: nothing is created, so nothing should wake.
  {
    ExperimentConfig cfg;
    cfg.set({{"topology.switches", "64"}, {"topology.nodes", "256"}, {"traffic.load", "0"}});
    cfg.sim.warmup = 0;
    cfg.sim.measure = 1000000;
    reset_peak_rss();
    const RunResult r = run_experiment(cfg, RunOptions{});
    if (!r.ok) ++failures;
    const auto& p = r.json.at("performance");
    os << fmt::format("{:<20} {:>6.3f} {:>6} {:>10} {:>9} {:>8.3f} {:>8.3f} {:>12.0f} {:>14} {:>9.1f}  (idle)\n",
                      "256 nodes / 64 sw", 0.0, "idle", r.json["metrics"].value("cycles_simulated", 0), "-",
                      p.value("setup_seconds", 0.0), p.value("simulation_seconds", 0.0),
                      p.value("cycles_per_second", 0.0), "-", p.value("peak_rss_mb", 0.0));
  }
  return failures == 0 ? 0 : 3;
}

}  // namespace wormcast::tb
