// The seed001 schemes as software on direct-network processors
// (traffic.kind direct_multicast, testbenches/app/workloads/direct_multicast_workload.h):
// whole runs of the experiment files in experiments/seed001/, with the
// separate-addressing baseline at the end.
//
// Golden latency by hand (docs/direct_networks.md, zero-load formula; the
// header comment of test_direct_allport.cpp): a message of B bytes is one
// worm of L = 1 + B flits; on an idle network a worm whose head leaves its
// node at cycle c over h hops has its tail at c + 1 + 3(h + 1) + (L - 1);
// the receiver's t_R follows. The source posts its first send at t_S.
#include <catch2/catch.hpp>

#include "testbenches/app/runner.h"
#include "tests/common/runs.h"

using namespace wormcast;
using namespace wormcast::tb;
using Catch::Matchers::Contains;
using test::run_file;
using test::run_error;

namespace {

// A metric by its dotted name.
const nlohmann::json& stat(const RunResult& r, const std::string& key) { return test::metric(r, key); }

// The run completed every trial, every message reached exactly its destinations.
void check_complete(const RunResult& r, int trials) {
  INFO(r.error);
  REQUIRE(r.ok);
  CHECK(stat(r, "multicast.latency_cycles").at("count") == trials);
  CHECK(stat(r, "multicast.mean_latency_cycles").at("count") == trials);
  const auto& inv = r.json.at("invariants");
  CHECK(inv.at("flits_conserved").get<bool>());
  CHECK_FALSE(inv.at("deadlock").get<bool>());
  CHECK(inv.at("flits_in_network_at_end").get<std::uint64_t>() == 0);
}

}  // namespace

TEST_CASE("direct_multicast: one destination one hop away is t_S + network + t_R", "[seed001]") {
  // t_S = 20, t_R = 16, 64 bytes. utorus (utorus.yaml, 3-cycle hops): a
  // unicast, 1 header flit, L = 65; one hop, two routers: tail at
  // 20 + 1 + 2 x 3 + 64 = 91, received at 107. storus, mdtorus
  // (path_torus.yaml, one-cycle hops): a compound worm, header (u, ω = 0,
  // terminator) = 3 flits, L = 67: tail at 20 + 1 + 2 x 1 + 66 = 89,
  // received at 105.
  for (const char* scheme : {"utorus", "storus", "mdtorus"}) {
    INFO(scheme);
    const int expect = std::string(scheme) == "utorus" ? 107 : 105;
    const char* file = std::string(scheme) == "utorus" ? "experiments/seed001/utorus.yaml"
                                                        : "experiments/seed001/path_torus.yaml";
    // (0,1) by name, and as node number 1 (tori take both, as `wormcast plan --dests`)
    for (const char* dest : {"(0,1)", "1"}) {
      const RunResult r1 = run_file(file, {{"traffic.scheme", scheme}, {"traffic.destinations", dest},
                                           {"traffic.trials", "1"}});
      check_complete(r1, 1);
      CHECK(stat(r1, "multicast.latency_cycles").at("max") == expect);
    }
    const RunResult r = run_file(file, {{"traffic.scheme", scheme}, {"traffic.destinations", "(0,1)"},
                                        {"traffic.trials", "3"}});
    check_complete(r, 3);
    CHECK(stat(r, "multicast.latency_cycles").at("max") == expect);
    CHECK(stat(r, "multicast.latency_cycles").at("min") == expect);
    CHECK(stat(r, "multicast.plan_link_visits").at("max") == 1.0);   // (0,0) -> (0,1): one link
    if (std::string(scheme) == "utorus") {   // one unicast, alone: one step with or without link sharing
      CHECK(stat(r, "multicast.shared_steps").at("max") == 1.0);
      CHECK(stat(r, "multicast.plan_mean_step").at("max") == 1.0);
      CHECK(stat(r, "multicast.type1_unicasts").at("max") == 0.0);
    }
  }
  // Hypercube 000000 -> 000011: two hops, tail at 20 + 1 + 9 + 64 = 94, received at 110.
  const RunResult c = run_file("experiments/seed001/hypercube.yaml",
                               {{"traffic.scheme", "ucube"}, {"traffic.destinations", "000011"}, {"traffic.trials", "2"}});
  check_complete(c, 2);
  CHECK(stat(c, "multicast.latency_cycles").at("max") == 110);
  CHECK(stat(c, "multicast.plan_link_visits").at("max") == 2.0);
}

TEST_CASE("direct_multicast: every scheme completes its trials on random sets, messages as planned", "[seed001]") {
  struct Case { const char* file; const char* scheme; const char* r; };
  const Case cases[] = {
      {"experiments/seed001/hypercube.yaml", "ucube", nullptr},
      {"experiments/seed001/hypercube.yaml", "maxport", nullptr},
      {"experiments/seed001/hypercube.yaml", "combine", nullptr},
      {"experiments/seed001/hypercube.yaml", "wsort", nullptr},
      {"experiments/seed001/utorus.yaml", "utorus", nullptr},
      {"experiments/seed001/path_torus.yaml", "storus", nullptr},
      {"experiments/seed001/path_torus.yaml", "mdtorus", nullptr},
      {"experiments/seed001/path_torus.yaml", "mutorus", "2"},
      {"experiments/seed001/path_torus.yaml", "mutorus", "4"},
  };
  for (const Case& c : cases) {
    INFO(c.scheme << (c.r ? std::string(" r=") + c.r : std::string()));
    std::vector<Override> o = {{"traffic.scheme", c.scheme}, {"traffic.trials", "6"}, {"traffic.set_size", "20"}};
    if (c.r) o.push_back({"traffic.r", c.r});
    const RunResult r = run_file(c.file, o);
    check_complete(r, 6);
    const std::uint64_t messages = stat(r, "multicast.messages");
    const std::string s = c.scheme;
    if (s == "storus") CHECK(messages == 6);   // one worm per trial
    else if (s == "mdtorus" || (c.r && std::string(c.r) == "4")) CHECK(messages < 6 * 19);
    else CHECK(messages == 6 * 19);            // unicast-based: one message per destination
    // A multicast takes at least its plan's steps of t_S each at the source's critical path.
    CHECK(stat(r, "multicast.plan_steps").at("count") == 6);
    CHECK(stat(r, "multicast.latency_cycles").at("min").get<double>() >= 20 + 16 + 20);
  }
}

TEST_CASE("direct_multicast: W-sort beats U-cube on the Fig. 3.9 set (2 steps against 4)", "[seed001]") {
  const std::vector<Override> set = {{"topology.dims", "[2, 2, 2, 2]"}, {"traffic.trials", "1"},
                                     {"traffic.destinations", "0001,0011,0101,0111,1011,1100,1110,1111"}};
  auto with = [&](const char* scheme) {
    std::vector<Override> o = set;
    o.push_back({"traffic.scheme", scheme});
    const RunResult r = run_file("experiments/seed001/hypercube.yaml", o);
    check_complete(r, 1);
    return r;
  };
  const RunResult w = with("wsort"), u = with("ucube");
  CHECK(stat(w, "multicast.plan_steps").at("max") == 2);
  CHECK(stat(u, "multicast.plan_steps").at("max") == 4);
  CHECK(stat(w, "multicast.latency_cycles").at("max") < stat(u, "multicast.latency_cycles").at("max"));
}

TEST_CASE("direct_multicast: wrong network, routing, ports or options are refused with the key", "[seed001]") {
  CHECK_THAT(run_error("experiments/seed001/path_torus.yaml", {{"traffic.scheme", "mutorus"}}),
             Contains("traffic.r"));
  CHECK_THAT(run_error("experiments/seed001/path_torus.yaml", {{"traffic.r", "3"}}),
             Contains("traffic.r applies only to traffic.scheme mutorus"));
  CHECK_THAT(run_error("experiments/seed001/path_torus.yaml", {{"router.ports", "one_port"}}),
             Contains("all-port") && Contains("router.ports"));
  CHECK_THAT(run_error("experiments/seed001/utorus.yaml", {{"traffic.scheme", "wsort"}}),
             Contains("needs a hypercube with routing.function ecube"));
  CHECK_THAT(run_error("experiments/seed001/hypercube.yaml", {{"traffic.scheme", "utorus"}}),
             Contains("needs a torus with routing.function utr or btr"));
  CHECK_THAT(run_error("experiments/seed001/utorus.yaml", {{"traffic.scheme", "storus"}}),
             Contains("routing.function utpr"));
  CHECK_THAT(run_error("experiments/seed001/utorus.yaml", {{"node.model", "endpoint"}}), Contains("node.model"));
  CHECK_THAT(run_error("experiments/seed001/utorus.yaml", {{"traffic.destinations", "(0,0)"}}),
             Contains("traffic.destinations") && Contains("is the source"));
  CHECK_THAT(run_error("experiments/seed001/utorus.yaml", {{"traffic.destinations", "(9,9)"}}),
             Contains("traffic.destinations"));
  CHECK_THAT(run_error("experiments/seed001/utorus.yaml", {{"traffic.destinations", "64"}}),
             Contains("traffic.destinations") && Contains("nodes 0..63"));
  CHECK_THAT(run_error("experiments/seed001/utorus.yaml", {{"traffic.destinations", "(0,1),1"}}),
             Contains("traffic.destinations") && Contains("listed twice"));
  CHECK_THAT(run_error("experiments/seed001/utorus.yaml", {{"traffic.set_size", "65"}}),
             Contains("traffic.set_size 65"));
}

// seed004 on the SCI torus (experiments/seed004/sci_torus.yaml, t_R = 150),
// here with t_S = 200, messages as one packet with one header flit, and
// 1-cycle routing and crossbar so the zero-load formula above holds: 2 bytes,
// L = 3 flits, one hop: tail at c + 9.
TEST_CASE("direct_multicast: seed004 store-and-forward chain and separate addressing, by hand", "[seed004]") {
  const std::vector<Override> base = {{"router.route_delay", "1"}, {"router.crossbar_delay", "1"}, {"processor.t_s", "200"},
                                      {"processor.packet_bytes", "0"},   {"processor.header_flits", "1"},
                                      {"traffic.source", "0"},      {"traffic.destinations", "(0,1),(0,2)"},
                                      {"traffic.trials", "2"},      {"message.size", "2"}};
  auto with = [&](const char* scheme) {
    std::vector<Override> o = base;
    o.push_back({"traffic.scheme", scheme});
    const RunResult r = run_file("experiments/seed004/sci_torus.yaml", o);
    check_complete(r, 2);
    return r;
  };
  // S-torus: Θ′ from (0,0) is (0,0), (0,1), (0,2) (labels 6, 7, then 4 after the wrap).
  // (0,0) -> (0,1): posted 200, tail 209, received 359; (0,1) -> (0,2): posted 559, tail 568, received 718.
  const RunResult s = with("sci-storus");
  CHECK(stat(s, "multicast.latency_cycles").at("max") == 718);
  CHECK(stat(s, "multicast.mean_latency_cycles").at("max") == Approx((359 + 718) / 2.0));
  CHECK(stat(s, "multicast.root_busy_cycles").at("max") == 209.0);   // the root's one send delivered
  CHECK(stat(s, "multicast.root_cpu_utilization").at("max") == Approx(209.0 / 718));
  CHECK(stat(s, "multicast.concurrency").at("max") == 1.0);
  CHECK(stat(s, "multicast.plan_link_visits").at("max") == 2.0);
  CHECK(stat(s, "multicast.plan_used_links").at("max") == 2.0);
  CHECK(stat(s, "multicast.plan_root_targets").at("max") == 1.0);
  // Separate addressing: the root's second send is posted at 2 t_S = 400 and
  // crosses 2 hops: tail at 400 + 1 + 9 + 2 = 412, received 562.
  const RunResult p = with("sci-separate");
  CHECK(stat(p, "multicast.latency_cycles").at("max") == 562);
  CHECK(stat(p, "multicast.root_busy_cycles").at("max") == 412.0);
  CHECK(stat(p, "multicast.plan_link_visits").at("max") == 3.0);
  CHECK(stat(p, "multicast.plan_used_links").at("max") == 2.0);
  CHECK(stat(p, "multicast.plan_link_utilization").at("max") == Approx(1.5));
}

TEST_CASE("direct_multicast: seed004 separate addressing pipelines large messages", "[seed004]") {
  // 1000 bytes to three nodes: the sends are posted at 200, 400 and 600; the
  // first tail arrives after 1000 flit cycles, so all three are in flight at once.
  const RunResult r = run_file("experiments/seed004/sci_torus.yaml",
                               {{"traffic.scheme", "sci-separate"}, {"traffic.source", "0"}, {"processor.t_s", "200"},
                                {"processor.packet_bytes", "0"}, {"processor.header_flits", "1"},
                                {"traffic.destinations", "(0,1),(1,0),(2,2)"}, {"traffic.trials", "1"},
                                {"message.size", "1000"}});
  check_complete(r, 1);
  CHECK(stat(r, "multicast.concurrency").at("max") == 3.0);
  CHECK(stat(r, "multicast.plan_concurrency").at("max") == 1.0);   // the step model: one send per step
  // The root's channel carries 3 x 1001 flits one after another: its last send is delivered after at least that.
  CHECK(stat(r, "multicast.root_busy_cycles").at("max").get<double>() >= 200 + 3 * 1001);
  CHECK(stat(r, "multicast.root_cpu_utilization").at("max").get<double>() <= 1.0);
}

TEST_CASE("direct_multicast: seed004 messages as 64-byte SCI packets", "[seed004]") {
  // 200 bytes in packets of 64 + 16 header flits: 80, 80, 80, 24 = 264 flits
  // back to back from cycle 40 (t_S). With no gap between packets the tail
  // would leave h hops away at 40 + 1 + 3(h + 1) + 263 (the zero-load
  // formula for one 264-flit worm); a packet boundary may cost the channel a
  // cycle, once, not once per hop. The message counts as received only with
  // its last packet.
  auto busy = [](const char* dest, const char* packet_bytes) {
    const RunResult r = run_file("experiments/seed004/sci_torus.yaml",
                                 {{"router.route_delay", "1"}, {"router.crossbar_delay", "1"},
                                  {"traffic.scheme", "sci-separate"}, {"traffic.source", "0"},
                                  {"traffic.destinations", dest}, {"traffic.trials", "1"}, {"message.size", "200"},
                                  {"processor.packet_bytes", packet_bytes}});
    check_complete(r, 1);
    return stat(r, "multicast.root_busy_cycles").at("max").get<double>();   // the tail's delivery
  };
  const double one = busy("(0,1)", "64"), five = busy("(2,3)", "64");
  CHECK(one >= 40 + 1 + 3 * 2 + 263);
  CHECK(one <= 40 + 1 + 3 * 2 + 263 + 3);
  CHECK(five - one == 3 * 4);   // four more hops: the pipeline's 3 cycles each, boundaries cost nothing more
  // As one packet, 216 flits (16 + 200): exactly the formula.
  CHECK(busy("(0,1)", "0") == 40 + 1 + 3 * 2 + 215);
}

TEST_CASE("direct_multicast: seed004 schemes complete random groups, messages as planned", "[seed004]") {
  for (const char* scheme : {"sci-separate", "sci-utorus", "sci-storus", "sci-mdtorus", "sci-mutorus"}) {
    for (const char* size : {"2", "300"}) {
      INFO(scheme << " " << size << " bytes");
      const RunResult r = run_file("experiments/seed004/sci_torus.yaml",
                                   {{"traffic.scheme", scheme}, {"traffic.trials", "5"}, {"traffic.set_size", "14"},
                                    {"message.size", size}});
      check_complete(r, 5);
      CHECK(stat(r, "multicast.messages") == 5 * 13);   // one unicast per destination
      const double util = stat(r, "multicast.root_cpu_utilization").at("max");
      CHECK(util > 0.0);
      CHECK(util <= 1.0);
      CHECK(stat(r, "multicast.plan_link_utilization").at("min").get<double>() >= 1.0);
    }
  }
}

TEST_CASE("direct_multicast: seed004 schemes refuse the wrong routing or r", "[seed004]") {
  CHECK_THAT(run_error("experiments/seed004/sci_torus.yaml", {{"routing.order", "descending"}}),
             Contains("routing.order ascending"));
  CHECK_THAT(run_error("experiments/seed004/sci_torus.yaml", {{"topology.dims", "[4, 8]"}}),
             Contains("regular k-ary torus"));
  CHECK_THAT(run_error("experiments/seed004/sci_torus.yaml", {{"traffic.scheme", "sci-mutorus"}, {"traffic.r", "1"}}),
             Contains("traffic.r must be at least 2"));
  CHECK_THAT(run_error("experiments/seed004/sci_torus.yaml", {{"traffic.r", "4"}}),
             Contains("traffic.r applies only"));
  // IR worms stay one packet. (Here, not after the simulations of the packet
  // test: a run refused at attach after finished simulations in one process
  // trips ASan's known false report on SystemC's coroutine stacks.)
  CHECK_THAT(run_error("experiments/seed001/path_torus.yaml", {{"processor.packet_bytes", "64"}}),
             Contains("processor.packet_bytes must be 0"));
  CHECK(run_error("experiments/seed004/sci_torus.yaml",
                 {{"topology.dims", "[4, 8]"}, {"traffic.scheme", "sci-utorus"}, {"traffic.trials", "1"}}) ==
        "no error");
}

// seed001's separate-addressing baseline (algorithms/separate_addressing.cpp)
// on the U-torus experiment (t_R = 16, 64 bytes: L = 65 flits), with t_S =
// 200 so that the source's sends never meet on its channel. From (0,0) the
// R-chain is (0,1), (0,2): the first unicast is posted at 200, one hop: tail
// at 200 + 1 + 6 + 64 = 271, received 287; the second is posted at 2 t_S =
// 400, two hops: tail at 400 + 1 + 9 + 64 = 474, received 490.
TEST_CASE("direct_multicast: seed001 separate addressing on a torus, by hand", "[seed001]") {
  const RunResult r = run_file("experiments/seed001/utorus.yaml",
                               {{"traffic.scheme", "separate"}, {"processor.t_s", "200"},
                                {"traffic.destinations", "(0,2),(0,1)"}, {"traffic.trials", "2"}});
  check_complete(r, 2);
  CHECK(stat(r, "multicast.latency_cycles").at("max") == 490);
  CHECK(stat(r, "multicast.latency_cycles").at("min") == 490);
  CHECK(stat(r, "multicast.mean_latency_cycles").at("max") == Approx((287 + 490) / 2.0));
  CHECK(stat(r, "multicast.root_busy_cycles").at("max") == 474.0);   // the source's last send delivered
  CHECK(stat(r, "multicast.messages") == 2 * 2);                     // one unicast per destination
  CHECK(stat(r, "multicast.plan_steps").at("max") == 2);             // one per destination, one-port
  CHECK(stat(r, "multicast.plan_link_visits").at("max") == 3.0);     // 1 + 2 hops
  CHECK(stat(r, "multicast.plan_used_links").at("max") == 2.0);      // (0,0)->(0,1) shared
}

TEST_CASE("direct_multicast: seed001 separate addressing on random sets, uni- and bidirectional", "[seed001]") {
  for (const bool bi : {false, true}) {
    INFO((bi ? "bidirectional, btr" : "unidirectional, utr"));
    std::vector<Override> o = {{"traffic.scheme", "separate"}, {"traffic.trials", "6"}, {"traffic.set_size", "20"}};
    if (bi) o.insert(o.end(), {{"topology.direction", "bidirectional"}, {"routing.function", "btr"}});
    const RunResult r = run_file("experiments/seed001/utorus.yaml", o);
    check_complete(r, 6);
    CHECK(stat(r, "multicast.messages") == 6 * 19);   // the source alone sends, once per destination
    CHECK(stat(r, "multicast.plan_steps").at("min") == 19);
    CHECK(stat(r, "multicast.plan_steps").at("max") == 19);
    // The source sends all 19 one after another: t_S each, then the last one's trip and t_R.
    CHECK(stat(r, "multicast.latency_cycles").at("min").get<double>() >= 19 * 20 + 16);
  }
  // Against U-torus on the same sets (same seed): more messages from the source, a longer multicast.
  const RunResult u = run_file("experiments/seed001/utorus.yaml", {{"traffic.trials", "6"}, {"traffic.set_size", "20"}});
  const RunResult p = run_file("experiments/seed001/utorus.yaml",
                               {{"traffic.scheme", "separate"}, {"traffic.trials", "6"}, {"traffic.set_size", "20"}});
  CHECK(stat(p, "multicast.latency_cycles").at("mean").get<double>() >
        stat(u, "multicast.latency_cycles").at("mean").get<double>());
}

TEST_CASE("direct_multicast: separate addressing refuses a network it cannot use, naming the key", "[seed001]") {
  CHECK_THAT(run_error("experiments/seed001/hypercube.yaml", {{"traffic.scheme", "separate"}}),
             Contains("traffic.scheme separate needs a torus with routing.function utr or btr"));
  CHECK_THAT(run_error("experiments/seed001/path_torus.yaml", {{"traffic.scheme", "separate"}}),
             Contains("traffic.scheme separate needs a torus") && Contains("with routing utpr"));
  CHECK_THAT(run_error("experiments/seed001/utorus.yaml", {{"traffic.scheme", "separate"}, {"traffic.r", "2"}}),
             Contains("traffic.r applies only to traffic.scheme mutorus, sci-mutorus (scheme is separate)"));
}
