#include "testbenches/lib/bench_direct.h"

#include <fmt/format.h>

#include <fstream>
#include <string>

#include "rtl_models/process_memory.h"
#include "testbenches/lib/runner.h"

namespace wormcast::tb {

namespace {

struct Case {
  const char* net;
  const char* kind;
  const char* dims;
  const char* direction;   // torus only
  int packet, buffer, vcs;  // vcs 0: what the routing needs
  double load;
};

ExperimentConfig direct_config(const Case& c) {
  ExperimentConfig cfg;
  cfg.name = "bench";
  std::vector<Override> o = {{"topology.kind", c.kind},
                             {"topology.dims", c.dims},
                             {"traffic.packet_size", std::to_string(c.packet)},
                             {"router.buffer", std::to_string(c.buffer)},
                             {"router.vcs", std::to_string(c.vcs)},
                             {"traffic.load", fmt::format("{}", c.load)}};
  if (c.direction) o.push_back({"topology.direction", c.direction});
  cfg.set(o);
  return cfg;
}

// Current resident set (VmRSS) in MB; 0 if /proc is unavailable.
double current_rss_mb() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;
  return 0.0;
}

// Scale (issue 11): a large torus, a short run at moderate load; the row
// adds the memory of this case per router: (peak RSS of the case - RSS
// before it) / routers, i.e. routers, links, nodes, routing tables and the
// traffic in flight, not the process's earlier cases.
bool run_scale_case(const Case& c, int routers, Cycle measure, std::ostream& os) {
  ExperimentConfig cfg = direct_config(c);
  cfg.sim.warmup = measure / 5;
  cfg.sim.measure = measure;
  reset_peak_rss();
  const double before = current_rss_mb();
  const RunResult r = run_experiment(cfg, RunOptions{});
  const auto& m = r.json.at("metrics");
  const auto& p = r.json.at("performance");
  const double peak = p.value("peak_rss_mb", 0.0);
  const double per_router = (peak - before) * 1024.0 * 1024.0 / routers;
  os << fmt::format("{:<20} {:>6.3f} {:>6} {:>10} {:>9.1f} {:>8.3f} {:>8.2f} {:>12.0f} {:>14.0f} {:>9.1f}"
                    "  ({}-flit packets, {}-flit VCs; {:.0f} bytes/router){}\n",
                    c.net, c.load, "-", m.value("cycles_simulated", 0), m["latency_cycles"].value("mean", 0.0),
                    p.value("setup_seconds", 0.0), p.value("simulation_seconds", 0.0),
                    p.value("cycles_per_second", 0.0), p.value("flit_hops_per_second", 0.0), peak, c.packet,
                    c.buffer, per_router, r.ok ? "" : "  ERROR: " + r.error.substr(0, 60));
  return r.ok;
}

}  // namespace

int run_direct_bench_cases(const BenchOptions& opt, std::ostream& os) {
  const Case cases[] = {
      {"mesh 8x8 dor", "mesh", "8x8", nullptr, 8, 4, 0, 0.08},        // BookSim2 / Noxim figure
      {"mesh 8x8 dor", "mesh", "8x8", nullptr, 5, 20, 0, 0.10},       // CNSim (its 2nd VC: DOR uses one)
      {"mesh 32x32 dor", "mesh", "32x32", nullptr, 5, 20, 0, 0.03},   // CNSim's other figure
      {"torus 8x8 bi btr", "torus", "8x8", "bidirectional", 8, 4, 0, 0.08},
  };
  const Cycle measure = opt.quick ? 5000 : 50000;
  int failures = 0;
  for (const Case& c : cases)
    if (!run_bench_case(direct_config(c), measure, c.net, c.load, "-",
                        fmt::format("  ({}-flit packets, {} VCs of {} flits)", c.packet,
                                    c.vcs ? std::to_string(c.vcs) : std::string("routing's"), c.buffer),
                        os))
      ++failures;
  const Case scale[] = {
      {"torus 64x64 bi btr", "torus", "64x64", "bidirectional", 8, 4, 0, 0.02},
      {"torus 16x16x16 btr", "torus", "16x16x16", "bidirectional", 8, 4, 0, 0.02},
  };
  for (const Case& c : scale)
    if (!run_scale_case(c, 4096, opt.quick ? 200 : 2000, os)) ++failures;
  return failures;
}

}  // namespace wormcast::tb
