// Background traffic (section background, testbenches/app/workloads/
// background_workload.h) beside the multicast workloads of every network
// kind: whole runs.
//
// Oracles: alone, the background is the unicast traffic that traffic.kind
// synthetic makes (the same processes and patterns), measured by that
// workload's own, independent path on the same network; beside a workload
// it draws from its own random stream, so the workload's multicasts are the
// same ones with and without it; every packet of the run is the workload's
// or the background's, so the run's packet count is the sum of the two.
#include <catch2/catch.hpp>

#include "testbenches/app/runner.h"
#include "tests/common/runs.h"

using namespace wormcast;
using namespace wormcast::tb;
using Catch::Matchers::Contains;
using test::metric;
using test::run_error;
using test::run_file;

namespace {

const char* kTorusLoad = "experiments/load/torus_multicast_load.yaml";
const char* kFatTreeLoad = "experiments/load/fat_tree_multicast_load.yaml";

// An 8x8 unidirectional torus, dimension-ordered (UTR), one-cycle hops,
// from the default experiment.
std::vector<Override> torus(std::vector<Override> more) {
  std::vector<Override> o = {{"topology.kind", "torus"},     {"topology.dims", "[8, 8]"},
                             {"topology.direction", "unidirectional"}, {"routing.function", "utr"},
                             {"router.buffer", "4flits"},   {"router.route_delay", "0"},
                             {"router.crossbar_delay", "0"}, {"sim.warmup", "2000"},
                             {"sim.measure", "20000"}};
  o.insert(o.end(), more.begin(), more.end());
  return o;
}

// The U-torus scheme under load on the all-port UTR torus of the load file.
std::vector<Override> utorus(std::vector<Override> more) {
  more.insert(more.begin(), {{"traffic.scheme", "utorus"}, {"routing.function", "utr"}, {"message.size", "16"}});
  return more;
}

double number(const RunResult& r, const std::string& key) { return metric(r, key).get<double>(); }

// Every packet delivered once, and each class's measured work complete.
void check_classes_complete(const RunResult& r) {
  test::check_delivered_exactly_once(r, 100);
  CHECK_FALSE(metric(r, "saturated").get<bool>());
  CHECK(metric(r, "background.measured_delivered") == metric(r, "background.measured_created"));
  CHECK(metric(r, "background.packets_delivered") == metric(r, "background.packets_created"));
  CHECK(metric(r, "background.stopped_nodes") == 0);
  CHECK(number(r, "background.measured_created") > 50);
}

}  // namespace

TEST_CASE("background: alone it is traffic.kind synthetic's unicast traffic, on processors too", "[background]") {
  // The same uniform 16-flit Bernoulli traffic at 0.06 flits/cycle/node:
  // once as the synthetic workload on packet endpoints, once as the
  // background of a multicast workload that creates no multicast, on
  // processor nodes (their port endpoints carry it, no software runs).
  // Six seeds each: one run's mean latency varies by about 1.3 % from seed
  // to seed, the mean of six by 0.5 %.
  double syn_sum = 0, bg_sum = 0;
  for (int seed = 1; seed <= 6; ++seed) {
    const std::string s = std::to_string(seed);
    const RunResult syn = test::run_with(torus({{"seed", s}, {"traffic.load", "0.06"}, {"traffic.packet_size", "16"}}));
    const RunResult bg = test::run_with(torus({{"seed", s},
                                               {"node.model", "processor"},
                                               {"traffic.kind", "direct_multicast_load"},
                                               {"traffic.scheme", "utorus"},
                                               {"traffic.load", "0"},
                                               {"background.load", "0.06"},
                                               {"background.packet_size", "16"}}));
    test::check_delivered_exactly_once(syn, 1000);
    check_classes_complete(bg);
    CHECK(metric(bg, "multicast.created") == 0);
    // 64 nodes x 20,000 cycles x 0.06 / 16: 4,800 packets expected (sd 69).
    CHECK(number(bg, "background.measured_created") == Approx(4800).margin(4 * 69));
    CHECK(number(bg, "background.offered_load") == Approx(0.06).epsilon(0.06));
    CHECK(number(bg, "background.accepted_load") == Approx(number(bg, "background.offered_load")).epsilon(0.03));
    // The uncontended packets of both: the same network, the same cost.
    CHECK(metric(bg, "background.latency_cycles").at("min") == metric(syn, "latency_cycles").at("min"));
    // Nothing else ran: the run-wide packet latency is the background's.
    CHECK(metric(bg, "latency_cycles").at("mean") == metric(bg, "background.latency_cycles").at("mean"));
    syn_sum += metric(syn, "latency_cycles").at("mean").get<double>();
    bg_sum += metric(bg, "background.latency_cycles").at("mean").get<double>();
  }
  CHECK(bg_sum / 6 == Approx(syn_sum / 6).epsilon(0.03));
}

TEST_CASE("background: beside multicasts on a torus each class is counted apart", "[background]") {
  const RunResult quiet = run_file(kTorusLoad, utorus({{"traffic.load", "0.01"}}));
  const RunResult busy =
      run_file(kTorusLoad, utorus({{"traffic.load", "0.01"}, {"background.load", "0.03"}, {"background.packet_size", "16"}}));
  test::check_delivered_exactly_once(quiet, 100);
  check_classes_complete(busy);
  // The background draws from its own stream: the same multicasts are created.
  CHECK(metric(busy, "multicast.measured_created") == metric(quiet, "multicast.measured_created"));
  CHECK(metric(busy, "multicast.measured_completed") == metric(busy, "multicast.measured_created"));
  // Every packet is a multicast's message (one packet each: a unicast or an
  // IR worm) or a background packet.
  CHECK(number(busy, "packets_created") ==
        number(busy, "multicast.messages") + number(busy, "background.packets_created"));
  // The background shares the network: the multicasts take longer.
  CHECK(metric(busy, "multicast.latency_cycles").at("mean").get<double>() >
        metric(quiet, "multicast.latency_cycles").at("mean").get<double>());
  CHECK(number(busy, "background.offered_load") == Approx(0.03).epsilon(0.08));
}

TEST_CASE("background: beside InfiniBand multicasts on a fat tree", "[background]") {
  const RunResult r = run_file(kFatTreeLoad, {{"traffic.load", "0.01"},
                                              {"sim.warmup", "5000"},
                                              {"sim.measure", "40000"},
                                              {"background.load", "0.005"},
                                              {"background.packet_size", "64"}});
  check_classes_complete(r);
  CHECK(metric(r, "multicast.measured_completed") == metric(r, "multicast.measured_created"));
  CHECK(number(r, "multicast.measured_created") > 10);
}

TEST_CASE("background: on host_ni nodes it bypasses the hosts and the NI firmware", "[background]") {
  // NI-based k-binomial multicasts relayed by smart NIs, with 128-flit
  // background packets through the same NIs' links.
  const RunResult r = run_file("experiments/seed000/multicast_load.yaml",
                               {{"traffic.scheme", "ni"},
                                {"sim.warmup", "100000"},
                                {"sim.measure", "300000"},
                                {"sim.drain_limit", "300000"},
                                {"background.load", "0.01"}});
  check_classes_complete(r);
  CHECK(metric(r, "multicast.completed") == metric(r, "multicast.created"));
  CHECK(metric(r, "multicast.latency_cycles").at("count").get<int>() > 10);
  // A background packet handed to an NI's firmware or a host would be a
  // message nobody sent: the message ledger refuses it and the run fails.
  CHECK(metric(r, "messages.measured_received") == metric(r, "messages.measured_expected"));
}

TEST_CASE("background: beside a workload of trials it stops with the trials", "[background]") {
  const RunResult r = run_file("experiments/seed001/path_torus.yaml",
                               {{"traffic.trials", "5"}, {"background.load", "0.02"}, {"background.packet_size", "16"}});
  check_classes_complete(r);
  CHECK(metric(r, "multicast.latency_cycles").at("count") == 5);
  // The run ends with its trials, long before sim.drain_limit.
  CHECK(number(r, "cycles_simulated") < 100000);
  CHECK(number(r, "background.offered_load") == Approx(0.02).epsilon(0.3));
}

TEST_CASE("background: beyond what the network carries the run says saturated, naming the background", "[background]") {
  const RunResult r = run_file(kTorusLoad, utorus({{"traffic.load", "0.005"},
                                                   {"background.load", "0.5"},
                                                   {"background.packet_size", "16"},
                                                   {"background.source_queue", "50"},
                                                   {"sim.drain_limit", "20000"}}));
  INFO(r.error);
  REQUIRE(r.ok);
  CHECK(metric(r, "saturated").get<bool>());
  CHECK_THAT(metric(r, "saturation_reason").get<std::string>(), Contains("background"));
  CHECK(number(r, "background.stopped_nodes") > 0);
}

TEST_CASE("background: bad settings are refused naming the key", "[background]") {
  CHECK_THAT(test::config_error({{"background.load", "0.1"}}), Contains("traffic.kind synthetic is unicast traffic"));
  CHECK_THAT(run_error(kTorusLoad, {{"background.load", "0.1"}, {"background.packet_size", "4"},
                                    {"background.header_flits", "5"}}),
             Contains("background.header_flits (5) exceeds background.packet_size (4)"));
  CHECK_THAT(run_error(kTorusLoad, utorus({{"background.load", "0.1"}, {"topology.dims", "[8, 4]"},
                                           {"background.pattern", "transpose"}})),
             Contains("background.pattern transpose needs a square number of nodes"));
  CHECK_THAT(run_error(kTorusLoad, {{"background.load", "1.5"}}), Contains("background.load"));
  CHECK_THAT(run_error(kTorusLoad, {{"background.rate", "0.1"}}), Contains("background.rate"));
}
