#include "testbenches/lib/bench_direct.h"

#include <fmt/format.h>

#include "rtl_models/process_memory.h"
#include "testbenches/lib/runner.h"

namespace wormcast::tb {

int run_direct_bench_cases(const BenchOptions& opt, std::ostream& os) {
  struct Case { const char* net; const char* kind; const char* direction; int packet, buffer; double load; };
  const Case cases[] = {
      {"mesh 8x8 dor", "mesh", nullptr, 8, 4, 0.08},
      {"mesh 8x8 dor", "mesh", nullptr, 5, 20, 0.10},
      {"torus 8x8 bi btr", "torus", "bidirectional", 8, 4, 0.08},
  };
  const Cycle measure = opt.quick ? 5000 : 50000;
  int failures = 0;
  for (const Case& c : cases) {
    ExperimentConfig cfg;
    cfg.name = "bench";
    std::vector<Override> o = {{"topology.kind", c.kind},
                               {"topology.dims", "8x8"},
                               {"traffic.packet_size", std::to_string(c.packet)},
                               {"router.buffer", std::to_string(c.buffer)},
                               {"traffic.load", fmt::format("{}", c.load)}};
    if (c.direction) o.push_back({"topology.direction", c.direction});
    cfg.set(o);
    cfg.sim.warmup = measure / 5;
    cfg.sim.measure = measure;
    reset_peak_rss();
    const RunResult r = run_experiment(cfg, RunOptions{});
    if (!r.ok) ++failures;
    const auto& m = r.json.at("metrics");
    const auto& p = r.json.at("performance");
    os << fmt::format("{:<20} {:>6.3f} {:>6} {:>10} {:>9.1f} {:>8.3f} {:>8.2f} {:>12.0f} {:>14.0f} {:>9.1f}  "
                      "({}-flit packets, {}-flit VCs){}\n",
                      c.net, c.load, "-", m.value("cycles_simulated", 0), m["latency_cycles"].value("mean", 0.0),
                      p.value("setup_seconds", 0.0), p.value("simulation_seconds", 0.0),
                      p.value("cycles_per_second", 0.0), p.value("flit_hops_per_second", 0.0),
                      p.value("peak_rss_mb", 0.0), c.packet, c.buffer, r.ok ? "" : "  ERROR: " + r.error.substr(0, 60));
  }
  return failures;
}

}  // namespace wormcast::tb
