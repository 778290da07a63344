#include "testbenches/lib/bench.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <chrono>

#include "testbenches/lib/runner.h"

namespace wormcast::tb {

namespace {
double peak_rss_mb() {
  struct rusage ru {};
  getrusage(RUSAGE_SELF, &ru);
  return static_cast<double>(ru.ru_maxrss) / 1024.0;
}
}  // namespace

int run_bench(const BenchOptions& opt, std::ostream& os) {
  struct Case { const char* net; int switches, nodes; double load; const char* label; };
  const Case cases[] = {
      {"32 nodes / 8 sw", 8, 32, 0.02, "low"},      {"32 nodes / 8 sw", 8, 32, 0.06, "medium"},
      {"32 nodes / 8 sw", 8, 32, 0.10, "high"},     {"256 nodes / 64 sw", 64, 256, 0.01, "low"},
      {"256 nodes / 64 sw", 64, 256, 0.02, "medium"}, {"256 nodes / 64 sw", 64, 256, 0.03, "high"},
  };
  const Cycle measure = opt.quick ? 5000 : 50000;
  os << fmt::format("{:<20} {:>6} {:>6} {:>10} {:>9} {:>8} {:>12} {:>14} {:>9}\n", "network", "load", "level",
                    "cycles", "latency", "wall s", "cycles/s", "flit-hops/s", "rss MB");
  int failures = 0;
  for (const Case& c : cases) {
    ExperimentConfig cfg;
    cfg.name = "bench";
    cfg.set({{"topology.switches", std::to_string(c.switches)},
             {"topology.nodes", std::to_string(c.nodes)},
             {"traffic.load", fmt::format("{}", c.load)}});
    cfg.sim.warmup = measure / 5;
    cfg.sim.measure = measure;
    const RunResult r = run_experiment(cfg, RunOptions{});
    if (!r.ok) ++failures;
    const auto& m = r.json.at("metrics");
    const auto& p = r.json.at("performance");
    os << fmt::format("{:<20} {:>6.3f} {:>6} {:>10} {:>9.1f} {:>8.2f} {:>12.0f} {:>14.0f} {:>9.1f}{}\n", c.net, c.load,
                      c.label, m.value("cycles_simulated", 0), m["latency_cycles"].value("mean", 0.0),
                      p.value("wall_seconds", 0.0), p.value("cycles_per_second", 0.0),
                      p.value("flit_hops_per_second", 0.0), p.value("peak_rss_mb", 0.0),
                      r.ok ? "" : "  ERROR: " + r.error.substr(0, 60));
  }
  // Idle network: nothing is created, so nothing should wake.
  {
    ExperimentConfig cfg;
    cfg.set({{"topology.switches", "64"}, {"topology.nodes", "256"}, {"traffic.load", "0"}});
    cfg.sim.warmup = 0;
    cfg.sim.measure = 1000000;
    const auto t0 = std::chrono::steady_clock::now();
    const RunResult r = run_experiment(cfg, RunOptions{});
    const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    if (!r.ok) ++failures;
    os << fmt::format("{:<20} {:>6.3f} {:>6} {:>10} {:>9} {:>8.3f} {:>12.0f} {:>14} {:>9.1f}  (idle, incl. elaboration)\n",
                      "256 nodes / 64 sw", 0.0, "idle", r.json["metrics"].value("cycles_simulated", 0), "-", wall,
                      static_cast<double>(r.json["metrics"].value("cycles_simulated", 0)) / wall, "-", peak_rss_mb());
  }
  return failures == 0 ? 0 : 3;
}

}  // namespace wormcast::tb
