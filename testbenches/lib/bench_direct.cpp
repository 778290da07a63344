#include "testbenches/lib/bench_direct.h"

#include <fmt/format.h>

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
    if (!run_bench_case(cfg, measure, c.net, c.load, "-",
                        fmt::format("  ({}-flit packets, {}-flit VCs)", c.packet, c.buffer), os))
      ++failures;
  }
  return failures;
}

}  // namespace wormcast::tb
