// Experiment files: units, overrides, validation and error messages.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>

#include "testbenches/app/experiment.h"
#include "testbenches/app/workloads/synthetic_workload.h"
#include "topologies/networks/switch_network_kind.h"
#include "testbenches/app/units.h"

using namespace wormcast::tb;

namespace {
std::string write_temp(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / "wormcast_test_config";
  std::filesystem::create_directories(dir);
  const auto p = (dir / name).string();
  std::ofstream(p) << text;
  return p;
}
}  // namespace

TEST_CASE("units: times, cycles, flits, bandwidths, percentages") {
  CHECK(parse_time_ps("5ns") == 5000);
  CHECK(parse_time_ps("2.5us") == 2500000);
  CHECK(parse_time_ps(" 5000ps ") == 5000);
  CHECK(parse_cycles("12", 5000) == 12);
  CHECK(parse_cycles("12cycles", 5000) == 12);
  CHECK(parse_cycles("5us", 5000) == 1000);   // t_hs = 5 us = 1000 cycles at 5 ns (seed000 §7.2)
  CHECK(parse_flits("128flits") == 128);
  CHECK(parse_bandwidth("266MB/s") == Approx(266e6));
  CHECK(parse_real("80%", true) == Approx(0.8));
  CHECK_THROWS_WITH(parse_time_ps("5"), Catch::Contains("needs a time unit"));
  CHECK_THROWS_WITH(parse_cycles("7ns", 5000), Catch::Contains("not a whole number of clock periods"));
  CHECK_THROWS_WITH(parse_cycles("1.5", 5000), Catch::Contains("whole number of cycles"));
  CHECK_THROWS_WITH(parse_flits("12bytes"), Catch::Contains("number of flits"));
  CHECK_THROWS_WITH(parse_real("80%", false), Catch::Contains("plain number"));
  CHECK_THROWS_WITH(parse_bandwidth("266"), Catch::Contains("bandwidth unit"));
}

TEST_CASE("an experiment file sets parameters, --set overrides win") {
  const auto f = write_temp("ok.yaml",
                            "name: t\nclock:\n  period: 2ns\nswitch:\n  buffer: 320flits\n  route_delay: 4ns\n"
                            "traffic:\n  load: 0.1\n");
  const auto cfg = load_experiment(f, {{"traffic.load", "0.02"}, {"topology.connectivity", "100%"}});
  CHECK(cfg.name == "t");
  CHECK(cfg.period_ps == 2000);
  CHECK(cfg.network_as<wormcast::topo::SwitchNetworkKind>().sw.buffer_flits == 320);
  CHECK(cfg.network_as<wormcast::topo::SwitchNetworkKind>().sw.route_delay == 2);   // 4 ns at a 2 ns clock
  CHECK(cfg.workload_as<SyntheticWorkload>().traffic.load == Approx(0.02));
  CHECK(cfg.network_as<wormcast::topo::IrregularKind>().gen.connectivity == Approx(1.0));
  CHECK(cfg.network_as<wormcast::topo::SwitchNetworkKind>().sw.chunk_flits == 8);   // default kept
}

TEST_CASE("errors name the file, line, key and reason") {
  SECTION("unknown key") {
    const auto f = write_temp("unknown.yaml", "name: t\nswitch:\n  bufer: 10\n");
    CHECK_THROWS_WITH(load_experiment(f, {}), Catch::Contains(f + ":3") && Catch::Contains("switch.bufer") &&
                                                  Catch::Contains("unknown key"));
  }
  SECTION("a second YAML document, which would be dropped") {
    const auto f = write_temp("two_docs.yaml", "name: t\nswitch:\n  buffer: 320flits\n---\ntraffic:\n  load: 0.5\n");
    CHECK_THROWS_WITH(load_experiment(f, {}), Catch::Contains(f + ":4") && Catch::Contains("a second YAML document"));
    // yaml-cpp loads this as an empty document (the defaults would run) and
    // loops on it when asked for the next one.
    const auto g = write_temp("comma.yaml", "# a comment\n, the rest of it\nname: t\n");
    CHECK_THROWS_WITH(load_experiment(g, {}), Catch::Contains(g + ":2") && Catch::Contains("starts no YAML node"));
  }
  SECTION("unknown section") {
    const auto f = write_temp("section.yaml", "routers:\n  x: 1\n");
    CHECK_THROWS_WITH(load_experiment(f, {}), Catch::Contains("routers") && Catch::Contains("unknown key"));
  }
  SECTION("bad value") {
    const auto f = write_temp("bad.yaml", "traffic:\n  load: lots\n");
    CHECK_THROWS_WITH(load_experiment(f, {}), Catch::Contains(f + ":2") && Catch::Contains("traffic.load") &&
                                                  Catch::Contains("not a number"));
  }
  SECTION("out of range") {
    const auto f = write_temp("range.yaml", "topology:\n  switches: 0\n");
    CHECK_THROWS_WITH(load_experiment(f, {}), Catch::Contains("topology.switches") && Catch::Contains("out of range"));
  }
  SECTION("choice") {
    const auto f = write_temp("choice.yaml", "switch:\n  arbitration: lottery\n");
    CHECK_THROWS_WITH(load_experiment(f, {}), Catch::Contains("switch.arbitration") &&
                                                  Catch::Contains("round_robin, fixed_priority"));
  }
  SECTION("malformed YAML") {
    const auto f = write_temp("malformed.yaml", "switch:\n  buffer: [1, 2\n");
    CHECK_THROWS_WITH(load_experiment(f, {}), Catch::Contains(f) && Catch::Contains("malformed YAML"));
  }
  SECTION("section given a scalar") {
    const auto f = write_temp("scalar.yaml", "switch: 4\n");
    CHECK_THROWS_WITH(load_experiment(f, {}), Catch::Contains("switch") && Catch::Contains("expected a mapping"));
  }
  SECTION("packet larger than the input buffer") {
    const auto f = write_temp("big.yaml", "switch:\n  buffer: 100\ntraffic:\n  packet_size: 128\n");
    CHECK_THROWS_WITH(load_experiment(f, {}), Catch::Contains("traffic.packet_size") &&
                                                  Catch::Contains("exceeds switch.buffer"));
  }
  SECTION("unknown override") {
    CHECK_THROWS_WITH(load_experiment("", {{"switch.size", "4"}}), Catch::Contains("--set switch.size=4") &&
                                                                       Catch::Contains("unknown parameter"));
  }
  SECTION("bad override value") {
    CHECK_THROWS_WITH(load_experiment("", {{"link.latency", "0"}}),
                      Catch::Contains("--set link.latency=0") && Catch::Contains("out of range"));
  }
  SECTION("missing file") {
    CHECK_THROWS_WITH(load_experiment("/nonexistent/x.yaml", {}), Catch::Contains("/nonexistent/x.yaml: file not found"));
  }
}

TEST_CASE("every parameter is listed with a description") {
  ExperimentConfig cfg;
  ParamLister lister;
  cfg.visit(lister);
  REQUIRE(lister.rows.size() > 25);
  bool has_buffer = false;
  for (const auto& r : lister.rows) {
    CHECK_FALSE(r.description.empty());
    if (r.key == "switch.buffer") {
      has_buffer = true;
      CHECK(r.default_value == "640");
      CHECK(r.type == "flits");
    }
  }
  CHECK(has_buffer);
}
