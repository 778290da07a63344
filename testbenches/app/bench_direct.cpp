#include "testbenches/app/bench_direct.h"

#include <fmt/format.h>

#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "testbenches/app/runner.h"

namespace wormcast::tb {

namespace {

struct Case {
  const char* net;
  const char* kind;
  const char* dims;
  const char* direction;   // torus only
  int packet, buffer, vcs;  // vcs 0: what the routing needs
  double load;
  const char* link_hold = nullptr;   // router.link_hold, when not the default
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
  if (c.link_hold) o.push_back({"router.link_hold", c.link_hold});
  cfg.set(o);
  return cfg;
}

// Runs `wormcast run` on case c in a child process (this executable, found
// by its /proc/self/exe path), so that its peak RSS is its own: in the bench
// process, earlier cases' parked networks and freed heap would blur a
// per-case memory figure. Returns the result JSON (empty on failure).
nlohmann::json run_child(const Case& c, double load, Cycle measure) {
  namespace fs = std::filesystem;
  const fs::path dir = fs::temp_directory_path() / fmt::format("wormcast_bench_{}", ::getpid());
  fs::remove_all(dir);
  fs::create_directories(dir);
  std::ofstream(dir / "scale.yaml") << "name: scale\nseed: 1\n";
  const std::string cmd = fmt::format(
      "'{}' run '{}' --set topology.kind={} --set topology.dims={} --set topology.direction={} "
      "--set router.buffer={} --set traffic.packet_size={} --set traffic.load={} --set sim.warmup={} "
      "--set sim.measure={} --out '{}' --no-progress > '{}' 2>&1",
      fs::read_symlink("/proc/self/exe").string(), (dir / "scale.yaml").string(), c.kind, c.dims, c.direction, c.buffer, c.packet, load, measure / 5, measure,
      dir.string(), (dir / "log.txt").string());
  nlohmann::json j;
  if (std::system(cmd.c_str()) == 0)
    for (const auto& e : fs::directory_iterator(dir))
      if (e.path().extension() == ".json") j = nlohmann::json::parse(std::ifstream(e.path()));
  fs::remove_all(dir);
  return j;
}

// Scale: a large torus, a short run at moderate load, in a child
// process; bytes per router = (its peak RSS - that of a 2x2 torus run) /
// routers: the router with its links, ports and node, plus the traffic.
bool run_scale_case(const Case& c, int routers, Cycle measure, std::ostream& os) {
  const nlohmann::json base = run_child(Case{"", "torus", "2x2", "bidirectional", c.packet, c.buffer, 0, 0}, 0.0, 1);
  const nlohmann::json r = run_child(c, c.load, measure);
  if (base.is_null() || r.is_null() || r.value("status", std::string("ok")) != "ok") {
    os << fmt::format("{:<20} ERROR: the child `wormcast run` failed\n", c.net);
    return false;
  }
  const auto& m = r.at("metrics");
  const auto& p = r.at("performance");
  const double peak = p.value("peak_rss_mb", 0.0);
  const double per_router = (peak - base.at("performance").value("peak_rss_mb", 0.0)) * 1024.0 * 1024.0 / routers;
  os << fmt::format("{:<20} {:>6.3f} {:>6} {:>10} {:>9.1f} {:>8.3f} {:>8.2f} {:>12.0f} {:>14.0f} {:>9.1f}"
                    "  ({}-flit packets, {}-flit VCs; {:.0f} bytes/router; own process)\n",
                    c.net, c.load, "-", m.value("cycles_simulated", 0), m["latency_cycles"].value("mean", 0.0),
                    p.value("setup_seconds", 0.0), p.value("simulation_seconds", 0.0),
                    p.value("cycles_per_second", 0.0), p.value("flit_hops_per_second", 0.0), peak, c.packet,
                    c.buffer, per_router);
  return true;
}

}  // namespace

int run_direct_bench_cases(const BenchOptions& opt, std::ostream& os) {
  const Case cases[] = {
      {"mesh 8x8 dor", "mesh", "8x8", nullptr, 8, 4, 0, 0.08},        // BookSim2 / Noxim figure
      {"mesh 8x8 dor", "mesh", "8x8", nullptr, 5, 20, 0, 0.10},       // CNSim (its 2nd VC: DOR uses one)
      {"mesh 8x8 dor", "mesh", "8x8", nullptr, 5, 20, 2, 0.10, "packet"},   // CNSim's VCs and link policy
      {"mesh 32x32 dor", "mesh", "32x32", nullptr, 5, 20, 0, 0.03},   // CNSim's other figure
      {"mesh 32x32 dor", "mesh", "32x32", nullptr, 5, 20, 2, 0.03, "packet"},   // its VCs and link policy
      {"torus 8x8 bi btr", "torus", "8x8", "bidirectional", 8, 4, 0, 0.08},
  };
  const Cycle measure = opt.quick ? 5000 : 50000;
  int failures = 0;
  for (const Case& c : cases)
    if (!run_bench_case(direct_config(c), measure, c.net, c.load, "-",
                        fmt::format("  ({}-flit packets, {} VCs of {} flits{})", c.packet,
                                    c.vcs ? std::to_string(c.vcs) : std::string("routing's"), c.buffer,
                                    c.link_hold ? fmt::format(", link_hold {}", c.link_hold) : std::string()),
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
