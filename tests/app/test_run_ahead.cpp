// The scheduler's run-ahead (sim.run_ahead, cycle_scheduler.h,
// docs/performance.md "Cycles without the kernel"): one SystemC activation
// evaluates every cycle with work up to the kernel's next activity. It must
// change only the speed: the oracle is the same run with sim.run_ahead=off
// (one activation per cycle with work), whose metrics, invariants, flit
// counts and deadlock reports must be equal to the last bit. Where another
// process runs beside the scheduler (host/NI or processor software, "3-way"
// link arbiters, workload threads) or a VCD is traced, it must be off, and
// say why.
#include <catch2/catch.hpp>

#include <filesystem>
#include <string>
#include <vector>

#include "testbenches/app/runner.h"
#include "tests/common/runs.h"

using namespace wormcast;
using namespace wormcast::tb;

namespace {

struct Case {
  const char* what;
  const char* file;   // relative to the source tree; "" = default configuration
  std::vector<Override> overrides;
  const char* off_because;   // nullptr: it must run ahead; else a part of the reason it does not
};

RunResult run(const Case& c, const char* ahead, const RunOptions& opt = RunOptions{}) {
  std::vector<Override> o = c.overrides;
  o.push_back({"sim.run_ahead", ahead});
  const ExperimentConfig cfg = test::experiment(c.file, o);
  return run_experiment(cfg, opt);
}

void check_same(const Case& c) {
  INFO(c.what);
  const RunResult off = run(c, "off");
  const RunResult on = run(c, "on");
  REQUIRE(off.ok == on.ok);
  CHECK(off.error == on.error);   // a deadlock report included
  test::check_same_results(on.json, off.json);
  const auto& pon = on.json.at("performance");
  const auto& poff = off.json.at("performance");
  CHECK(pon.at("scheduler_evaluations") == poff.at("scheduler_evaluations"));   // the same evaluations
  CHECK_FALSE(poff.at("run_ahead").get<bool>());
  CHECK_THAT(poff.at("run_ahead_off").get<std::string>(), Catch::Contains("sim.run_ahead off"));
  if (c.off_because == nullptr) {
    CHECK(pon.at("run_ahead").get<bool>());
    CHECK_FALSE(pon.contains("run_ahead_off"));
    // Fewer kernel activations than cycles with work.
    CHECK(pon.at("scheduler_activations").get<std::uint64_t>() < poff.at("scheduler_activations").get<std::uint64_t>());
  } else {
    CHECK_FALSE(pon.at("run_ahead").get<bool>());
    CHECK_THAT(pon.at("run_ahead_off").get<std::string>(), Catch::Contains(c.off_because));
  }
}

}  // namespace

TEST_CASE("sim.run_ahead is a declared parameter, on by default, and refuses other values") {
  ExperimentConfig cfg;
  CHECK(cfg.sim.run_ahead == "on");
  CHECK_THROWS_WITH(cfg.set({{"sim.run_ahead", "sometimes"}}), Catch::Contains("sim.run_ahead"));
}

TEST_CASE("runs ahead of the kernel give the results of one activation per cycle exactly") {
  const std::vector<Case> cases = {
      {"32 nodes, 16-flit, light", "", test::short_run({{"traffic.load", "0.01"}, {"traffic.packet_size", "16flits"}}),
       nullptr},
      {"32 nodes, 128-flit, saturated", "", test::short_run({{"traffic.load", "0.2"}, {"sim.drain_limit", "3000"}}),
       nullptr},
      {"256 nodes, 16-flit, saturating", "",
       {{"topology.switches", "64"}, {"topology.nodes", "256"}, {"traffic.load", "0.04"},
        {"traffic.packet_size", "16flits"}, {"sim.warmup", "500"}, {"sim.measure", "2000"},
        {"sim.drain_limit", "3000"}},
       nullptr},
      {"streams off", "", test::short_run({{"traffic.load", "0.03"}, {"sim.streams", "off"}}), nullptr},
      {"a watchdog interval shorter than the run loop's steps", "",
       test::short_run({{"traffic.load", "0.05"}, {"sim.watchdog", "300"}}), nullptr},
      {"8x8 mesh, 5-flit, 2 VCs", "experiments/direct_mesh_8x8.yaml",
       test::short_run({{"traffic.packet_size", "5flits"}, {"router.buffer", "20flits"}, {"router.vcs", "2"},
             {"traffic.load", "0.1"}}),
       nullptr},
      {"8x8 torus, BTR, saturating", "experiments/direct_torus_8x8.yaml",
       test::short_run({{"traffic.load", "0.5"}, {"sim.drain_limit", "3000"}}), nullptr},
      {"a cyclic single-VC ring: the watchdog's deadlock report", "",
       {{"topology.kind", "torus"}, {"topology.dims", "[6]"}, {"topology.direction", "unidirectional"},
        {"routing.function", "broken_single_vc_ring"}, {"routing.check", "never"}, {"traffic.load", "0.95"},
        {"traffic.packet_size", "16"}, {"router.buffer", "1"}, {"sim.warmup", "200"}, {"sim.measure", "5000"},
        {"sim.watchdog", "500"}},
       nullptr},
      // The reference router keeps working on its blocked flits in every
      // cycle: no cycle may run ahead once the watchdog has stopped the run.
      {"a cyclic single-VC ring of reference routers: nothing runs after the watchdog's stop", "",
       {{"topology.kind", "torus"}, {"topology.dims", "[6]"}, {"topology.direction", "unidirectional"},
        {"routing.function", "broken_single_vc_ring"}, {"routing.check", "never"}, {"router.impl", "reference"},
        {"traffic.load", "0.8"}, {"traffic.packet_size", "8flits"}, {"router.buffer", "2flits"},
        {"sim.warmup", "0"}, {"sim.measure", "3000"}, {"sim.watchdog", "500"}},
       nullptr},
      {"host_ni nodes (software threads)", "",
       {{"node.model", "host_ni"}, {"traffic.load", "0.01"}, {"ni.t_ns", "200"}, {"ni.t_nr", "200"},
        {"message.size", "256"}, {"sim.warmup", "2000"}, {"sim.measure", "20000"}},
       "runs beside the scheduler"},
      {"processor nodes on a torus", "experiments/direct_torus_8x8.yaml",
       test::short_run({{"node.model", "processor"}, {"traffic.load", "0.02"}, {"message.size", "16"}}),
       "runs beside the scheduler"},
      {"3-way links", "experiments/direct_torus_8x8.yaml",
       test::short_run({{"router.link_sharing", "bidirectional"}, {"traffic.load", "0.05"}}),
       "runs beside the scheduler"},
      {"switch-based tree multicast (a workload thread)", "experiments/seed000/tree.yaml",
       {{"traffic.repetitions", "2"}}, "runs beside the scheduler"},
  };
  for (const Case& c : cases) check_same(c);
}

TEST_CASE("a VCD trace keeps one activation per cycle, so that it samples every cycle") {
  const auto dir = std::filesystem::temp_directory_path() / "wormcast_test_run_ahead";
  std::filesystem::create_directories(dir);
  RunOptions opt;
  opt.vcd_path = (dir / "trace.vcd").string();
  opt.vcd_filter = "net.sw0";
  const Case c{"VCD", "", test::short_run({{"traffic.load", "0.05"}}), nullptr};
  const RunResult r = run(c, "on", opt);
  REQUIRE(r.ok);
  CHECK_FALSE(r.json.at("performance").at("run_ahead").get<bool>());
  CHECK_THAT(r.json.at("performance").at("run_ahead_off").get<std::string>(), Catch::Contains("VCD trace of net.sw0"));
  std::filesystem::remove_all(dir);
}
