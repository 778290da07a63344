// Whole runs with the host/NI node model: invariants under load, message
// metrics, and configuration errors.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "rtl_models/node/host_ni_node.h"
#include "testbenches/app/runner.h"

using namespace wormcast;
using namespace wormcast::tb;

namespace {
ExperimentConfig node_cfg(double load) {
  ExperimentConfig cfg;
  cfg.set({{"node.model", "host_ni"}, {"traffic.load", std::to_string(load)}});
  cfg.sim.warmup = 5000;
  cfg.sim.measure = 40000;
  return cfg;
}
}  // namespace

TEST_CASE("host/NI runs deliver every message exactly once under load") {
  for (int variant = 0; variant < 4; ++variant) {
    ExperimentConfig cfg = node_cfg(0.01);
    if (variant == 1) cfg.set({{"message.size", "700"}});              // multi-packet messages
    if (variant == 2) cfg.set({{"ni.t_ns", "200"}, {"ni.t_nr", "200"}, {"traffic.load", "0.03"}});   // R = 5
    if (variant == 3) cfg.set({{"ni.receive_queue", "128"}, {"ni.send_queue", "1"}, {"message.size", "512"}});   // tight NI memory
    INFO("variant " << variant);
    const RunResult r = run_experiment(cfg, RunOptions{});
    INFO(r.error);
    REQUIRE(r.ok);
    const auto& inv = r.json.at("invariants");
    CHECK(inv.at("all_packets_delivered").get<bool>());
    CHECK(inv.at("messages_outstanding_at_end") == 0);
    CHECK(inv.at("flits_conserved").get<bool>());
    const auto& mm = r.json.at("metrics").at("messages");
    CHECK(mm.at("sent").get<std::uint64_t>() > 20);
    CHECK(mm.at("sent") == mm.at("received"));
    CHECK(mm.at("measured_received") == mm.at("measured_expected"));
    // Breakdown components add up to the mean latency.
    double sum = 0;
    for (auto& [k, v] : mm.at("breakdown_mean_cycles").items()) sum += v.get<double>();
    CHECK(sum == Approx(mm.at("latency_cycles").at("mean").get<double>()));
  }
}

TEST_CASE("at low load the message latency approaches the zero-load sum") {
  ExperimentConfig cfg = node_cfg(0.002);
  cfg.sim.measure = 200000;
  const RunResult r = run_experiment(cfg, RunOptions{});
  REQUIRE(r.ok);
  const auto& lat = r.json.at("metrics").at("messages").at("latency_cycles");
  // Zero load: 4 * 1000 + 2 * 97 + (1 + 1 + 3H + 127), H = 1..5 switches on this network.
  CHECK(lat.at("min").get<int>() >= 4000 + 194 + 129 + 3);
  CHECK(lat.at("p50").get<int>() <= 4000 + 194 + 129 + 15);
}

TEST_CASE("node-model configuration errors") {
  SECTION("packet larger than the switch input buffer") {
    CHECK_THROWS_WITH(load_experiment("", {{"node.model", "host_ni"}, {"ni.packet_size", "700"}}),
                      Catch::Contains("ni.packet_size") && Catch::Contains("switch.buffer"));
  }
  SECTION("negative overhead") {
    CHECK_THROWS_WITH(load_experiment("", {{"node.model", "host_ni"}, {"ni.t_ns", "-5"}}),
                      Catch::Contains("--set ni.t_ns=-5") && Catch::Contains("non-negative"));
    CHECK_THROWS_WITH(load_experiment("", {{"node.model", "host_ni"}, {"host.t_hs", "-1us"}}), Catch::Contains("host.t_hs"));
  }
  SECTION("zero-length message") {
    CHECK_THROWS_WITH(load_experiment("", {{"node.model", "host_ni"}, {"message.size", "0"}}),
                      Catch::Contains("message.size") && Catch::Contains("out of range"));
  }
  SECTION("bad bandwidth") {
    CHECK_THROWS_WITH(load_experiment("", {{"node.model", "host_ni"}, {"iobus.bandwidth", "fast"}}), Catch::Contains("iobus.bandwidth"));
    CHECK_THROWS_WITH(load_experiment("", {{"node.model", "host_ni"}, {"iobus.bandwidth", "0MB/s"}}), Catch::Contains("positive"));
  }
  SECTION("watchdog shorter than an overhead") {
    CHECK_THROWS_WITH(load_experiment("", {{"node.model", "host_ni"}, {"ni.t_ns", "30000"}}),
                      Catch::Contains("sim.watchdog (20000 cycles) must exceed") && Catch::Contains("30000"));
  }
  SECTION("overheads written as times are converted with the clock") {
    const auto cfg = load_experiment("", {{"node.model", "host_ni"}, {"host.t_hs", "5us"}, {"ni.t_ns", "2.5us"}});
    CHECK(cfg.node_as<rtl::HostNiModel>().host.t_hs == 1000);
    CHECK(cfg.node_as<rtl::HostNiModel>().ni.t_ns == 500);
  }
}

TEST_CASE("VCD of the NIs of selected nodes") {
  ExperimentConfig cfg = node_cfg(0.01);
  cfg.sim.measure = 20000;
  RunOptions opt;
  opt.vcd_path = (std::filesystem::temp_directory_path() / ("wormcast_ni_" + std::to_string(getpid()) + ".vcd")).string();
  opt.vcd_filter = "net.node[01]";
  const RunResult r = run_experiment(cfg, opt);
  REQUIRE(r.ok);
  std::ifstream f(opt.vcd_path);
  const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::filesystem::remove(opt.vcd_path);
  CHECK_THAT(text, Catch::Contains("$scope module node0 $end") && Catch::Contains("$scope module node1 $end"));
  CHECK_THAT(text, Catch::Contains(" memory_flits ") && Catch::Contains(" firmware_busy ") &&
                       Catch::Contains(" send_queue_packets "));
  CHECK_THAT(text, !Catch::Contains("module node2 "));
  CHECK(std::count(text.begin(), text.end(), '#') > 10);
}
