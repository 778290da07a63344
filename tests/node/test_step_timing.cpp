// Step-timing mode (ni.step_cycles): the cycle model, with sends aligned to
// steps of t_step = t_ns + propagation + t_nr and t_nr overlapping sending,
// reproduces the unit-step model's step count exactly (docs/design.md principle
// 5). Golden: the Fig. 9 tree (n = 16, k = 3, construction B) against
// algo::simulate_steps, for FPFS and FCFS and several m.
#include <catch2/catch.hpp>

#include <string>

#include "algorithms/kbinomial_tree.h"
#include "algorithms/step_model.h"
#include "testbenches/app/runner.h"

using namespace wormcast;
using namespace wormcast::tb;

namespace {
RunResult run_steps(const std::string& firmware, int m, int n, int k, const std::string& step_cycles) {
  std::string dests;
  for (int d = 0; d < 32 && n > 1; ++d)
    if (d != 5) {
      dests += (dests.empty() ? "" : ",") + std::to_string(d);
      if (--n == 1) break;
    }
  ExperimentConfig cfg = load_experiment(
      "", {{"node.model", "host_ni"}, {"ni.firmware", firmware}, {"ni.step_cycles", step_cycles},
           {"traffic.kind", "single_multicast"}, {"traffic.source", "5"}, {"traffic.destinations", dests},
           {"traffic.ordering", "given"}, {"traffic.k", std::to_string(k)}, {"traffic.repetitions", "1"},
           {"message.size", std::to_string(m * 128)}, {"sim.warmup", "0"}, {"sim.measure", "1"},
           {"sim.drain_limit", "3000000"}});
  return run_experiment(cfg, RunOptions{});
}
}  // namespace

TEST_CASE("step-timing mode reproduces the unit-step model's step count for the Fig. 9 tree") {
  const algo::KBinomialTree tree = algo::build_kbinomial_tree(16, 3);
  for (const char* fw : {"fpfs", "fcfs"}) {
    for (int m : {1, 2, 3, 5}) {
      const auto disc = std::string(fw) == "fpfs" ? algo::NiDiscipline::fpfs : algo::NiDiscipline::fcfs;
      const unsigned expected = algo::simulate_steps(tree.children, 0, static_cast<std::size_t>(m), disc).total_steps;
      const RunResult r = run_steps(fw, m, 16, 3, "4000");
      INFO(fw << " m " << m << ": " << r.error);
      REQUIRE(r.ok);
      const auto& mc = r.json["metrics"]["multicast"];
      CHECK(mc["step_overruns"] == 0);
      CHECK(mc["steps"] == expected);
      if (std::string(fw) == "fpfs") CHECK(mc["steps"] == mc["tree"]["pipelined_steps"]);   // T_1 + (m-1)k
    }
  }
  // Fig. 9: one packet reaches all 16 in T_1 = 5 steps.
  CHECK(algo::simulate_steps(tree.children, 0, 1).total_steps == 5);
}

TEST_CASE("step-timing mode counts overruns when a step is too short, and is refused below t_ns + t_nr") {
  // The refusal first: an exception thrown on the main stack after SystemC
  // has run coroutines in this process can trip ASan's coroutine-blind stack
  // bookkeeping (docs/testing.md), a false report unrelated to this check.
  CHECK_THROWS_WITH(run_steps("fpfs", 1, 4, 1, "2000"), Catch::Contains("ni.step_cycles"));
  const RunResult r = run_steps("fpfs", 2, 16, 3, "2050");   // 128-flit worms need more than 50 cycles
  REQUIRE(r.ok);
  CHECK(r.json["metrics"]["multicast"]["step_overruns"] > 0);
}
