// Loaded runs: every configuration holds the invariants (exactly-once
// delivery of every packet, flit conservation, no deadlock), and below
// saturation the accepted throughput equals the offered load.
#include <catch2/catch.hpp>

#include "testbenches/app/runner.h"
#include "tests/common/runs.h"

using namespace wormcast;
using namespace wormcast::tb;

namespace {
void check_invariants(const RunResult& r) {
  test::check_delivered_exactly_once(r, 1);
  const auto& inv = r.json.at("invariants");
  CHECK(inv.at("flits_injected").get<std::uint64_t>() == inv.at("flits_ejected").get<std::uint64_t>());
}

ExperimentConfig small(double load) {
  ExperimentConfig cfg;
  cfg.set({{"traffic.load", std::to_string(load)}});
  cfg.sim.warmup = 2000;
  cfg.sim.measure = 20000;
  return cfg;
}
}  // namespace

TEST_CASE("invariants hold under load for every routing and flow-control option") {
  struct Variant { const char* what; void (*apply)(ExperimentConfig&); };
  const Variant variants[] = {
      {"defaults", [](ExperimentConfig&) {}},
      {"random port selection", [](ExperimentConfig& c) { c.set({{"routing.selection", "random"}}); }},
      {"adaptive port selection", [](ExperimentConfig& c) { c.set({{"routing.selection", "adaptive"}}); }},
      {"round-robin port selection", [](ExperimentConfig& c) { c.set({{"routing.selection", "round_robin"}}); }},
      {"max-degree root", [](ExperimentConfig& c) { c.set({{"routing.root", "max_degree"}}); }},
      {"after_drain", [](ExperimentConfig& c) { c.set({{"switch.next_header", "after_drain"}}); }},
      {"virtual cut-through", [](ExperimentConfig& c) { c.set({{"switch.admission", "virtual_cut_through"}}); }},
      {"fixed priority", [](ExperimentConfig& c) { c.set({{"switch.arbitration", "fixed_priority"}}); }},
      {"poisson arrivals", [](ExperimentConfig& c) { c.set({{"traffic.process", "poisson"}}); }},
      {"small buffers and packets", [](ExperimentConfig& c) {
         c.set({{"switch.buffer", "20"}, {"switch.chunk", "3"}, {"traffic.packet_size", "16"}, {"endpoint.rx_buffer", "20"}}); }},
      {"slow links and credits", [](ExperimentConfig& c) { c.set({{"link.latency", "3"}, {"link.credit_delay", "2"}}); }},
  };
  for (const auto& v : variants) {
    for (std::uint64_t topo_seed : {1, 2}) {
      ExperimentConfig cfg = small(0.08);
      cfg.set({{"topology.seed", std::to_string(topo_seed)}});
      v.apply(cfg);
      INFO(v.what << ", topology seed " << topo_seed);
      check_invariants(run_experiment(cfg, RunOptions{}));
    }
  }
}

TEST_CASE("invariants hold on a 64-switch, 256-node network at medium load") {
  ExperimentConfig cfg = small(0.03);
  cfg.set({{"topology.switches", "64"}, {"topology.nodes", "256"}});
  cfg.sim.measure = 10000;
  check_invariants(run_experiment(cfg, RunOptions{}));
}

TEST_CASE("below saturation, accepted throughput matches the offered load") {
  for (double load : {0.02, 0.05, 0.08}) {
    ExperimentConfig cfg = small(load);
    cfg.sim.measure = 50000;
    const RunResult r = run_experiment(cfg, RunOptions{});
    check_invariants(r);
    const auto& m = r.json.at("metrics");
    const double offered = m.at("offered_load").get<double>();
    CHECK(offered == Approx(load).epsilon(0.15));   // Bernoulli sampling noise
    CHECK(m.at("accepted_throughput").get<double>() == Approx(offered).epsilon(0.05));
    CHECK_FALSE(m.at("saturated").get<bool>());
  }
}

TEST_CASE("beyond saturation the run reports saturation but still conserves flits") {
  ExperimentConfig cfg = small(0.4);
  cfg.sim.measure = 10000;
  cfg.sim.drain_limit = 5000;
  const RunResult r = run_experiment(cfg, RunOptions{});
  INFO(r.error);
  REQUIRE(r.ok);
  const auto& m = r.json.at("metrics");
  CHECK(m.at("saturated").get<bool>());
  CHECK(m.at("accepted_throughput").get<double>() < 0.25);   // seed000 §7.5: UD unicast saturates below ~0.18
  CHECK(r.json.at("invariants").at("flits_conserved").get<bool>());
  CHECK_FALSE(r.json.at("invariants").at("deadlock").get<bool>());
}

TEST_CASE("same seed, same results, another seed, other results") {
  auto latency = [](std::uint64_t seed) {
    ExperimentConfig cfg = small(0.06);
    cfg.seed = seed;
    const RunResult r = run_experiment(cfg, RunOptions{});
    REQUIRE(r.ok);
    return r.json.at("metrics").at("latency_cycles").at("mean").get<double>();
  };
  const double a = latency(5), b = latency(5), c = latency(6);
  CHECK(a == b);
  CHECK(a != c);
}

TEST_CASE("link utilisation covers the measured period with the load on, not warm-up and drain") {
  // Two nodes on a line: each one's packets all cross its one outgoing
  // channel. At 0.5 the measured period (the window, and until its last
  // packet is delivered) carries 0.5 flits per cycle on each. At 0.95 with
  // a 2-packet queue the sources overflow in their first cycles and stop
  // creating, so the period carries nothing: counted over the whole run,
  // the utilisation would show the first cycles' traffic (0.001).
  for (const bool overflow : {false, true}) {
    INFO((overflow ? "0.95, 2-packet queue" : "0.5"));
    std::vector<Override> o = {{"topology.dims", "[2]"},   {"traffic.load", overflow ? "0.95" : "0.5"},
                               {"sim.warmup", "5000"},     {"sim.measure", "10000"},
                               {"sim.drain_limit", "20000"}};
    if (overflow) o.push_back({"traffic.source_queue", "2"});
    const RunResult r = run_experiment(test::experiment("experiments/direct_mesh_8x8.yaml", o), RunOptions{});
    INFO(r.error);
    REQUIRE(r.ok);
    const auto& m = r.json.at("metrics");
    CHECK(m.at("saturated").get<bool>() == overflow);
    const double mean = m.at("link_utilization").at("mean").get<double>();
    const double max = m.at("link_utilization").at("max").get<double>();
    if (overflow) {
      CHECK(mean == 0.0);
      CHECK(max == 0.0);
    } else {
      CHECK(mean == Approx(0.5).margin(0.02));
      CHECK(max >= mean);
      CHECK(max <= Approx(0.5).margin(0.03));
    }
  }
  // A workload of trials measures them all (its window is its first cycle,
  // sim.measure 1): the period runs until the last trial is done.
  const RunResult t = run_experiment(
      test::experiment("experiments/seed004/sci_torus.yaml", {{"traffic.trials", "3"}}), RunOptions{});
  INFO(t.error);
  REQUIRE(t.ok);
  const auto& u = t.json.at("metrics").at("link_utilization");
  CHECK(u.at("mean").get<double>() > 0.0);
  CHECK(u.at("max").get<double>() > u.at("mean").get<double>());
}
