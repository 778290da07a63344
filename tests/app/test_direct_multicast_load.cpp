// Multicast under load on direct networks (traffic.kind direct_multicast_load,
// testbenches/app/workloads/direct_multicast_load_workload.h): whole runs of
// experiments/load/torus_multicast_load.yaml and of the seed001 files.
//
// Golden values: the zero-load latency of one multicast is the
// direct_multicast trial's hand formula (test_direct_multicast.cpp): on the
// one-cycle-hop torus of path_torus.yaml a 64-byte S-torus worm to the next
// node is t_S 20 + 1 + 2 x 1 + 66 flits + t_R 16 = 105 cycles; below
// saturation every destination of every multicast is delivered, so the
// deliveries per cycle are degree times the multicasts created per cycle,
// which are load / message.size per source.
#include <catch2/catch.hpp>

#include <regex>

#include "testbenches/app/runner.h"
#include "tests/common/runs.h"

using namespace wormcast;
using namespace wormcast::tb;
using Catch::Matchers::Contains;
using test::run_file;
using test::run_error;

namespace {

const char* kLoad = "experiments/load/torus_multicast_load.yaml";

const nlohmann::json& stat(const RunResult& r, const std::string& key) { return test::metric(r, key); }

// The unicast-based U-torus on the same torus (UTR routing).
std::vector<Override> utorus(std::vector<Override> more) {
  more.insert(more.begin(), {{"traffic.scheme", "utorus"}, {"routing.function", "utr"}});
  return more;
}

}  // namespace

TEST_CASE("direct_multicast_load: an isolated multicast costs the zero-load trial's latency", "[load]") {
  // One source, one destination one hop away, a multicast every ~20,000
  // cycles: none waits for another.
  for (const char* arrivals : {"bernoulli", "poisson"}) {
    INFO(arrivals);
    const RunResult r = run_file(kLoad, {{"traffic.scheme", "storus"}, {"traffic.sources", "(0,0)"},
                                         {"traffic.destinations", "(0,1)"}, {"traffic.arrivals", arrivals},
                                         {"traffic.load", "0.0032"}, {"sim.warmup", "0"}, {"sim.measure", "200000"}});
    INFO(r.error);
    REQUIRE(r.ok);
    const auto& lat = stat(r, "multicast.latency_cycles");
    CHECK(lat.at("count").get<int>() >= 5);
    CHECK(lat.at("min") == 105);
    CHECK(lat.at("max") == 105);
    CHECK(stat(r, "multicast.measured_completed") == stat(r, "multicast.measured_created"));
    CHECK(stat(r, "multicast.sources") == 1);
    CHECK_FALSE(r.json.at("metrics").at("saturated").get<bool>());
  }
}

TEST_CASE("direct_multicast_load: below saturation every multicast is delivered at the offered rate", "[load]") {
  const RunResult r = run_file(kLoad, utorus({{"traffic.load", "0.01"}, {"message.size", "16"}}));
  INFO(r.error);
  REQUIRE(r.ok);
  const auto& m = r.json.at("metrics");
  CHECK_FALSE(m.at("saturated").get<bool>());
  CHECK(stat(r, "multicast.measured_completed") == stat(r, "multicast.measured_created"));
  const double offered = stat(r, "multicast.offered_rate").get<double>();
  const double created = stat(r, "multicast.measured_created").get<double>();
  // 64 sources x 20,000 cycles at 0.01 / 16 per cycle: 800 expected, sd 28.
  CHECK(created == Approx(800).margin(4 * 28.3));
  CHECK(offered == Approx(created / (64.0 * 20000)));
  // Deliveries in the window against 8 per multicast created in it: equal
  // but for the multicasts straddling the window's ends (a few latencies of
  // a 20,000-cycle window).
  CHECK(stat(r, "multicast.delivered_rate").get<double>() == Approx(8 * offered).epsilon(0.05));
  const auto& lat = stat(r, "multicast.latency_cycles");
  CHECK(lat.at("count") == stat(r, "multicast.measured_created"));
  CHECK(stat(r, "multicast.mean_latency_cycles").at("mean").get<double>() <= lat.at("mean").get<double>());
  CHECK(r.json.at("invariants").at("flits_conserved").get<bool>());
  CHECK(r.json.at("invariants").at("flits_in_network_at_end") == 0);
}

TEST_CASE("direct_multicast_load: beyond saturation the run says so and names the evidence", "[load]") {
  const RunResult r = run_file(kLoad, utorus({{"traffic.load", "0.06"}, {"sim.warmup", "2000"},
                                              {"sim.measure", "8000"}, {"sim.drain_limit", "40000"}}));
  const auto& m = r.json.at("metrics");
  REQUIRE(m.at("saturated").get<bool>());
  CHECK_THAT(m.at("saturation_reason").get<std::string>(), Contains("measured multicasts incomplete"));
  CHECK_FALSE(r.json.at("invariants").at("deadlock").get<bool>());
  CHECK(stat(r, "multicast.measured_completed").get<double>() < stat(r, "multicast.measured_created").get<double>());
}

TEST_CASE("direct_multicast_load: a fixed group and fixed sources", "[load]") {
  const RunResult r = run_file(kLoad, utorus({{"traffic.sources", "0,9,18"}, {"traffic.destinations", "9,20,33,47"},
                                              {"traffic.load", "0.02"}}));
  INFO(r.error);
  REQUIRE(r.ok);
  CHECK(stat(r, "multicast.sources") == 3);
  // Source 9 is a member: its multicasts go to the other three.
  const double created = stat(r, "multicast.measured_created").get<double>();
  const double per_cycle = stat(r, "multicast.delivered_rate").get<double>() * 3 * 20000;
  CHECK(per_cycle == Approx(created * (4 + 3 + 4) / 3.0).epsilon(0.15));
}

TEST_CASE("direct_multicast_load: concurrent IR worms deadlock on per-link ejection channels, not on per-VC ones",
          "[load]") {
  // docs/multicast_load.md: a worm copying to an intermediate destination
  // holds its input link's ejection channel while it waits downstream; a
  // worm on the link's other VC that must copy there too waits for it, a
  // dependency from an h channel back to a p channel that closes cycles
  // once several multicasts are on their way. The thesis's router copies
  // every incoming message at once (router.ejection per_vc).
  const RunResult r = run_file(kLoad, {{"traffic.scheme", "storus"}, {"traffic.load", "0.01"},
                                       {"router.ejection", "per_link"}, {"sim.watchdog", "3000"}});
  CHECK_FALSE(r.ok);
  CHECK(r.json.at("invariants").at("deadlock").get<bool>());
  CHECK_THAT(r.error, Contains("flits sat in the network (the nodes kept working)"));
  // A worm waits for an ejection channel held by another VC's worm: at its
  // last destination (its output is the ejection channel) or for a copy.
  CHECK(std::regex_search(r.error, std::regex("-> local[0-9]+ waiting for the VC \\(held by d[0-9]p_vc|"
                                               "waiting for the ejection channel local[0-9]+")));
  for (const char* scheme : {"storus", "mdtorus"}) {
    const RunResult v = run_file(kLoad, {{"traffic.scheme", scheme}, {"traffic.load", "0.01"},
                                         {"router.ejection", "per_vc"}});
    INFO(scheme << ": " << v.error);
    REQUIRE(v.ok);
    CHECK_FALSE(v.json.at("metrics").at("saturated").get<bool>());
    CHECK(stat(v, "multicast.measured_completed") == stat(v, "multicast.measured_created"));
  }
}

TEST_CASE("direct_multicast_load: per-VC ejection changes no single multicast (Theorem 6.1: contention-free)",
          "[load]") {
  // One multicast at a time: its worms share no channel, so none waits for
  // an ejection channel, and both ejection models give the same trials.
  for (const char* scheme : {"storus", "mdtorus", "mutorus"}) {
    INFO(scheme);
    std::vector<Override> o = {{"traffic.scheme", scheme}, {"traffic.trials", "6"}, {"traffic.set_size", "24"},
                               {"traffic.source", "-1"}};
    if (std::string(scheme) == "mutorus") o.push_back({"traffic.r", "4"});
    const RunResult a = run_file("experiments/seed001/path_torus.yaml", o);
    o.push_back({"router.ejection", "per_vc"});
    const RunResult b = run_file("experiments/seed001/path_torus.yaml", o);
    REQUIRE(a.ok);
    REQUIRE(b.ok);
    CHECK(stat(a, "multicast.latency_cycles") == stat(b, "multicast.latency_cycles"));
    CHECK(stat(a, "multicast.mean_latency_cycles") == stat(b, "multicast.mean_latency_cycles"));
  }
}

TEST_CASE("direct_multicast_load: bad configurations are refused naming the key", "[load]") {
  CHECK_THAT(run_error(kLoad, {{"traffic.scheme", "utorus"}}),
             Contains("traffic.scheme utorus needs a torus with routing.function utr or btr"));
  CHECK_THAT(run_error(kLoad, {{"node.model", "endpoint"}}), Contains("torus_multicast_load.yaml:") && Contains("node.model"));
  CHECK_THAT(run_error("", {{"traffic.kind", "direct_multicast_load"}, {"topology.kind", "torus"}, {"topology.dims", "[4, 4]"}}),
             Contains("traffic.kind direct_multicast_load needs node.model processor"));
  CHECK_THAT(run_error(kLoad, {{"traffic.degree", "64"}}), Contains("traffic.degree 64"));
  CHECK_THAT(run_error(kLoad, {{"traffic.sources", "(9,9)"}}), Contains("traffic.sources"));
  CHECK_THAT(run_error(kLoad, {{"traffic.sources", "3,3"}}), Contains("traffic.sources") && Contains("listed twice"));
  CHECK_THAT(run_error(kLoad, {{"traffic.destinations", "5"}, {"traffic.sources", "5"}}),
             Contains("traffic.destinations"));
  CHECK_THAT(run_error(kLoad, {{"traffic.arrivals", "uniform"}}), Contains("traffic.arrivals"));
  CHECK_THAT(run_error(kLoad, {{"traffic.r", "3"}}), Contains("traffic.r applies only to traffic.scheme mutorus"));
  CHECK_THAT(run_error(kLoad, {{"router.ejection", "per_vc"}, {"router.ports", "one_port"}}),
             Contains("router.ejection: per_vc needs router.ports: all_port"));
  CHECK_THAT(run_error("", {{"traffic.kind", "direct_multicast_load"}, {"node.model", "processor"}}),
             Contains("direct network"));
  CHECK_THAT(run_error("", {{"traffic.kind", "multicast_load"}, {"topology.kind", "torus"}, {"topology.dims", "[4, 4]"}}),
             Contains("use traffic.kind direct_multicast_load"));
}

// ---- ib_multicast_load: seed003's schemes under load on the IBFT(8,3) ------

namespace {
const char* kIb = "experiments/load/fat_tree_multicast_load.yaml";
}

TEST_CASE("ib_multicast_load: an isolated multicast costs the ib_multicast trial's completion", "[load]") {
  // One sender, a fixed group, a multicast every ~25,000 cycles: none meets
  // another, so each costs what one ib_multicast trial of the same sender
  // and group costs (the trial starts its sends in its first cycle, the
  // load workload's in the cycle after the request: one cycle more).
  for (const char* scheme : {"cyclic", "opensm", "unicast"}) {
    INFO(scheme);
    const RunResult load = run_file(kIb, {{"traffic.scheme", scheme}, {"traffic.senders", "000"},
                                          {"traffic.members", "100,201,312,733"}, {"traffic.load", "0.01"},
                                          {"sim.warmup", "0"}, {"sim.measure", "200000"}});
    INFO(load.error);
    REQUIRE(load.ok);
    const RunResult trial = run_file("experiments/seed003/ib_fat_tree.yaml",
                                     {{"traffic.scheme", scheme}, {"traffic.senders", "000"},
                                      {"traffic.members", "100,201,312,733"}, {"traffic.trials", "1"},
                                      {"message.size", "256"}, {"switch.buffer", "514flits"},
                                      {"endpoint.rx_buffer", "257flits"}});
    INFO(trial.error);
    REQUIRE(trial.ok);
    const auto& lat = stat(load, "multicast.latency_cycles");
    CHECK(lat.at("count").get<int>() >= 3);
    CHECK(lat.at("min") == lat.at("max"));
    CHECK(lat.at("min").get<double>() == stat(trial, "multicast.completion_cycles").at("max").get<double>() + 1);
  }
}

TEST_CASE("ib_multicast_load: below saturation every member gets every multicast, beyond it the run says so", "[load]") {
  const RunResult r = run_file(kIb, {{"traffic.load", "0.02"}});
  INFO(r.error);
  REQUIRE(r.ok);
  CHECK_FALSE(r.json.at("metrics").at("saturated").get<bool>());
  CHECK(stat(r, "multicast.measured_completed") == stat(r, "multicast.measured_created"));
  CHECK(stat(r, "multicast.sources") == 16);
  // 16 senders x 100,000 cycles at 0.02 / 256: 125 expected, sd 11.
  CHECK(stat(r, "multicast.measured_created").get<double>() == Approx(125).margin(45));
  // Each multicast reaches the 32 members less the sender when it is one.
  const double per = stat(r, "multicast.delivered_rate").get<double>() / stat(r, "multicast.offered_rate").get<double>();
  CHECK(per > 30.5);
  CHECK(per < 32.5);
  const RunResult over = run_file(kIb, {{"traffic.scheme", "unicast"}, {"traffic.load", "0.05"},
                                        {"sim.measure", "40000"}, {"sim.drain_limit", "300000"}});
  CHECK(over.json.at("metrics").at("saturated").get<bool>());
  CHECK_FALSE(over.json.at("invariants").at("deadlock").get<bool>());
}

TEST_CASE("ib_multicast_load: bad configurations are refused naming the key", "[load]") {
  CHECK_THAT(run_error(kIb, {{"traffic.scheme", "storus"}}), Contains("traffic.scheme"));
  CHECK_THAT(run_error(kIb, {{"traffic.sources", "200"}}), Contains("traffic.sources: 200 senders"));
  CHECK_THAT(run_error(kIb, {{"traffic.senders", "000,000"}}), Contains("traffic.senders") && Contains("twice"));
  CHECK_THAT(run_error(kIb, {{"traffic.senders", "000"}, {"traffic.members", "000"}}), Contains("traffic.members"));
  CHECK_THAT(run_error(kIb, {{"traffic.sender_ports", "out_of_tree"}}), Contains("sender_ports") && Contains("opensm"));
  CHECK_THAT(run_error("", {{"traffic.kind", "ib_multicast_load"}}), Contains("fat_tree"));
}
