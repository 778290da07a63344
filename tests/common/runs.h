// Helpers for tests that run whole experiments: run a configuration given as
// overrides, check the delivery invariants of a finished run, and read the
// error a configuration is refused with.
#pragma once

#include <catch2/catch.hpp>

#include <cstdint>
#include <regex>
#include <string>
#include <vector>

#include "testbenches/app/runner.h"

namespace wormcast::test {

// The default experiment with `overrides` applied, run to the end.
inline tb::RunResult run_with(const std::vector<tb::Override>& overrides) {
  tb::ExperimentConfig cfg;
  cfg.set(overrides);
  return tb::run_experiment(cfg, {});
}

// The experiment file `file` (relative to the source tree; "" = the default
// experiment) with `overrides`: the configurations of the oracle tests, which
// run one twice with a switch that must change only the speed.
inline tb::ExperimentConfig experiment(const char* file, const std::vector<tb::Override>& overrides) {
  return tb::load_experiment(*file ? std::string(WORMCAST_SOURCE_DIR) + "/" + file : std::string(), overrides);
}

// The experiment file `file` with `overrides`, run to the end.
inline tb::RunResult run_file(const char* file, const std::vector<tb::Override>& overrides) {
  return tb::run_experiment(experiment(file, overrides), {});
}

// What running `file` with `overrides` fails with: the run's error, the
// error loading or building it throws, or "no error".
inline std::string run_error(const char* file, const std::vector<tb::Override>& overrides) {
  try {
    const tb::RunResult r = run_file(file, overrides);
    return r.ok ? "no error" : r.error;
  } catch (const std::exception& e) {
    return e.what();
  }
}

// `more` after a short warm-up and measurement window (1,000 + 6,000 cycles).
inline std::vector<tb::Override> short_run(const std::vector<tb::Override>& more) {
  std::vector<tb::Override> o = {{"sim.warmup", "1000"}, {"sim.measure", "6000"}};
  o.insert(o.end(), more.begin(), more.end());
  return o;
}

// Two runs of one configuration that differ only in how they are computed
// (a speed switch on and off): the same metrics, invariants and flit counts.
inline void check_same_results(const nlohmann::json& on, const nlohmann::json& off) {
  CHECK(on.at("metrics") == off.at("metrics"));
  CHECK(on.at("invariants") == off.at("invariants"));
  CHECK(on.at("performance").at("router_flit_hops") == off.at("performance").at("router_flit_hops"));
  CHECK(on.at("performance").at("flit_moves") == off.at("performance").at("flit_moves"));
}

// A metric of a finished run by its dotted name ("multicast.latency_cycles").
inline const nlohmann::json& metric(const tb::RunResult& r, const std::string& key) {
  return r.json.at("metrics").at(nlohmann::json::json_pointer("/" + std::regex_replace(key, std::regex("\\."), "/")));
}

// The run finished and every packet was delivered exactly once: flits
// conserved, no deadlock, nothing left in the network, as many packets
// delivered as created, and at least `min_packets` of them.
inline void check_delivered_exactly_once(const tb::RunResult& r, std::uint64_t min_packets) {
  INFO(r.error);
  REQUIRE(r.ok);
  const auto& inv = r.json.at("invariants");
  CHECK(inv.at("all_packets_delivered").get<bool>());
  CHECK(inv.at("flits_conserved").get<bool>());
  CHECK_FALSE(inv.at("deadlock").get<bool>());
  CHECK(inv.at("flits_in_network_at_end").get<std::uint64_t>() == 0);
  const auto& m = r.json.at("metrics");
  CHECK(m.at("packets_created").get<std::uint64_t>() == m.at("packets_delivered").get<std::uint64_t>());
  CHECK(m.at("packets_created").get<std::uint64_t>() >= min_packets);
}

// The message of the ConfigError that loading the default experiment with
// `overrides` raises, or "no error".
inline std::string config_error(const std::vector<tb::Override>& overrides) {
  try {
    tb::load_experiment("", overrides);
  } catch (const tb::ConfigError& e) {
    return e.what();
  }
  return "no error";
}

}  // namespace wormcast::test
