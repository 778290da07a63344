// The stream step (sim.streams, docs/performance.md): a switch output that
// nothing can stop moves the rest of a packet as one record. It must change
// only the speed: the oracle is the per-flit path, i.e. the same run with
// sim.streams=off, whose metrics, invariants and flit counts must be equal
// to the last bit.
#include <catch2/catch.hpp>

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
  bool expect_streams;   // the case is one where streams must start
  bool expect_received = false;   // ... and be taken in one step by a receiver
};

nlohmann::json run(const Case& c, const char* streams) {
  std::vector<Override> o = c.overrides;
  o.push_back({"sim.streams", streams});
  const ExperimentConfig cfg = test::experiment(c.file, o);
  const RunResult r = run_experiment(cfg, RunOptions{});
  INFO(c.what << ", streams " << streams << ": " << r.error);
  REQUIRE(r.ok);
  return r.json;
}

// Streams on against off: metrics, invariants and flit counts equal.
void check_same(const Case& c) {
  INFO(c.what);
  const nlohmann::json off = run(c, "off");
  const nlohmann::json on = run(c, "on");
  test::check_same_results(on, off);
  CHECK_FALSE(off.at("performance").contains("streamed_flits"));
  CHECK_FALSE(off.at("performance").contains("received_stream_flits"));
  if (c.expect_streams) CHECK(on.at("performance").at("streamed_flits").get<std::uint64_t>() > 0);
  if (c.expect_received) CHECK(on.at("performance").at("received_stream_flits").get<std::uint64_t>() > 0);
}

}  // namespace

TEST_CASE("sim.streams is a declared parameter, on by default, and refuses other values") {
  ExperimentConfig cfg;
  CHECK(cfg.sim.streams == "on");
  CHECK_THROWS_WITH(cfg.set({{"sim.streams", "maybe"}}), Catch::Contains("sim.streams"));
}

TEST_CASE("runs with streams give the per-flit results exactly") {
  const std::vector<Case> cases = {
      {"32 nodes, 128-flit, light", "", test::short_run({{"traffic.load", "0.01"}}), true},
      {"32 nodes, 128-flit, medium", "", test::short_run({{"traffic.load", "0.05"}}), true},
      {"32 nodes, 128-flit, saturated", "",
       test::short_run({{"traffic.load", "0.2"}, {"sim.drain_limit", "3000"}}), true},
      {"32 nodes, 16-flit, medium", "", test::short_run({{"traffic.load", "0.04"}, {"traffic.packet_size", "16flits"}}),
       false},
      {"256 nodes, 128-flit, medium", "",
       {{"topology.switches", "64"}, {"topology.nodes", "256"}, {"traffic.load", "0.02"},
        {"sim.warmup", "500"}, {"sim.measure", "1500"}},
       true},
      {"256 nodes, 16-flit, medium", "",
       {{"topology.switches", "64"}, {"topology.nodes", "256"}, {"traffic.load", "0.03"},
        {"traffic.packet_size", "16flits"}, {"sim.warmup", "500"}, {"sim.measure", "1500"}},
       false},
      {"small buffers, 3-flit chunks, slow links", "",
       test::short_run({{"traffic.load", "0.08"}, {"switch.buffer", "40"}, {"switch.chunk", "3"},
             {"traffic.packet_size", "16"}, {"endpoint.rx_buffer", "20"}, {"link.latency", "3"},
             {"link.credit_delay", "2"}}),
       false},
      {"after_grant and virtual cut-through", "",
       test::short_run({{"traffic.load", "0.08"}, {"switch.next_header", "after_grant"},
             {"switch.admission", "virtual_cut_through"}}),
       false},
      {"adaptive port selection", "", test::short_run({{"traffic.load", "0.08"}, {"routing.selection", "adaptive"}}),
       true},
      {"host_ni node model", "",
       {{"node.model", "host_ni"}, {"traffic.load", "0.01"}, {"ni.t_ns", "200"}, {"ni.t_nr", "200"},
        {"message.size", "256"}, {"sim.warmup", "2000"}, {"sim.measure", "20000"}},
       true},
      {"smart NI multicast", "experiments/smart_ni_multicast.yaml", {{"traffic.repetitions", "2"}}, true},
      {"switch-based SSR multicast", "experiments/seed000/ssr.yaml", {{"traffic.repetitions", "2"}}, false},
      // Received streams (switch inputs and endpoints take the rest of a
      // packet in one step):
      {"streams cut by the measurement window and the run loop's stops", "",
       {{"traffic.load", "0.05"}, {"sim.warmup", "37"}, {"sim.measure", "1501"}}, true, true},
      {"slow pipeline: route 3, crossbar 2, link 3, credit delay 2", "",
       test::short_run({{"traffic.load", "0.03"}, {"switch.route_delay", "3"}, {"switch.crossbar_delay", "2"},
             {"link.latency", "3"}, {"link.credit_delay", "2"}}),
       true, true},
      {"contention at 256 nodes, 128-flit, saturating", "",
       {{"topology.switches", "64"}, {"topology.nodes", "256"}, {"traffic.load", "0.04"},
        {"sim.warmup", "300"}, {"sim.measure", "1200"}, {"sim.drain_limit", "3000"}},
       true, true},
      {"endpoint receive buffer smaller than a packet", "",
       test::short_run({{"traffic.load", "0.03"}, {"endpoint.rx_buffer", "20"}}), true, true},
      // Streams under contention: only flits with a credit by their cycle
      // (returns given in advance included) stream; the rest goes per flit.
      {"128-flit packets into 128-flit buffers, saturated (streams short of the tail)", "",
       test::short_run({{"traffic.load", "0.2"}, {"switch.buffer", "128"}, {"sim.drain_limit", "3000"}}), true},
      {"a watchdog interval shorter than a packet caps every stream", "",
       test::short_run({{"traffic.load", "0.2"}, {"sim.watchdog", "100"}, {"sim.drain_limit", "3000"}}), true},
      // Senders woken by credit returns only when blocked on credits
      // (Link::wake_blocked_sender_only) and credit ramps kept as one
      // record: endpoint buffers smaller than a packet and small switch
      // buffers make switches wait for ramps and chunk returns.
      {"16-flit packets, 10-flit endpoint and 24-flit switch buffers, 4-flit chunks", "",
       test::short_run({{"traffic.load", "0.06"}, {"traffic.packet_size", "16"}, {"endpoint.rx_buffer", "10"},
             {"switch.buffer", "24"}, {"switch.chunk", "4"}}),
       true, true},
      {"16-flit packets at 256 nodes, load 0.06", "",
       {{"topology.switches", "64"}, {"topology.nodes", "256"}, {"traffic.load", "0.06"},
        {"traffic.packet_size", "16"}, {"sim.warmup", "300"}, {"sim.measure", "1200"}, {"sim.drain_limit", "3000"}},
       true, true},
      {"tree multicast (replicating switches)", "experiments/seed000/tree.yaml", {{"traffic.repetitions", "2"}},
       false},
      {"path-based multicast, greedy", "experiments/seed000/path_greedy.yaml", {{"traffic.repetitions", "2"}},
       false},
  };
  for (const Case& c : cases) check_same(c);
}

TEST_CASE("direct networks: endpoints that defer receiving give the per-flit results exactly") {
  const std::vector<Case> cases = {
      // Endpoints defer taking body flits off the VC
      // router's ejection link to the tail (Link::allow_deferred_receive;
      // received_stream_flits counts the flits taken after their arrival).
      // Windows and run loop stops that cut packets, credits just above a
      // flit's round trip (allowed) and at it (per flit), a slow pipeline,
      // saturation (the routers' ejection order under contention).
      {"direct 8x8 mesh, 2 VCs, 5-flit, window and stops cutting packets", "experiments/direct_mesh_8x8.yaml",
       {{"router.vcs", "2"}, {"router.buffer", "20flits"}, {"routing.order", "ascending"},
        {"traffic.packet_size", "5flits"}, {"traffic.load", "0.1"}, {"sim.warmup", "37"}, {"sim.measure", "1501"}},
       false, true},
      {"direct 8x8 mesh, 4-flit endpoint buffer (round trip 3 cycles)", "experiments/direct_mesh_8x8.yaml",
       {{"endpoint.rx_buffer", "4"}, {"traffic.load", "0.1"}, {"sim.warmup", "300"}, {"sim.measure", "1200"}},
       false, true},
      {"direct 8x8 mesh, 3-flit endpoint buffer (no deferring)", "experiments/direct_mesh_8x8.yaml",
       {{"endpoint.rx_buffer", "3"}, {"traffic.load", "0.1"}, {"sim.warmup", "300"}, {"sim.measure", "1200"}},
       false},
      {"direct 8x8 torus, slow pipeline: crossbar 2, link 3, credit delay 2, 8-flit endpoint buffer",
       "experiments/direct_torus_8x8.yaml",
       {{"router.crossbar_delay", "2"}, {"link.latency", "3"}, {"link.credit_delay", "2"},
        {"endpoint.rx_buffer", "8"}, {"traffic.packet_size", "12flits"}, {"traffic.load", "0.05"},
        {"sim.warmup", "300"}, {"sim.measure", "1200"}},
       false, true},
      {"direct 8x8 mesh, saturated", "experiments/direct_mesh_8x8.yaml",
       {{"traffic.load", "0.5"}, {"sim.warmup", "300"}, {"sim.measure", "1200"}, {"sim.drain_limit", "3000"}},
       false, true},
  };
  for (const Case& c : cases) check_same(c);
}

TEST_CASE("direct networks: the VC router's receive folded into the send gives the per-flit results exactly") {
  // Routers take a flit from a VcLink into the downstream VC buffer when it
  // is sent (VcRouter::deposit; received_stream_flits counts those flits and
  // the endpoints' deferred ones). What must stay exact: the readable count
  // (1- and 2-flit VC buffers, where a flit leaves the cycle after it
  // arrives), several deposited flits per VC in flight (link latency 3,
  // crossbar 2), credit delays, VCs interleaved on one link, headers right
  // behind a tail (2-flit packets, saturated), class changes at the
  // dateline, the "3-way" shared wire, processor nodes, run loop stops
  // cutting worms, and links with flits both deposited and on the wire (a
  // flit sent while one is in flight goes on the wire and is received at its
  // arrival, behind the deposited ones).
  const std::vector<Override> cut = {{"sim.warmup", "37"}, {"sim.measure", "1501"}};
  auto more = [&](std::vector<Override> o) {
    o.insert(o.end(), cut.begin(), cut.end());
    return o;
  };
  const std::vector<Case> cases = {
      {"mesh, 1-flit VC buffers, 2 VCs", "experiments/direct_mesh_8x8.yaml",
       more({{"router.buffer", "1flits"}, {"router.vcs", "2"}, {"traffic.load", "0.3"}}), false, true},
      {"mesh, 2-flit VC buffers, 2-flit packets, saturated (headers behind tails)", "experiments/direct_mesh_8x8.yaml",
       more({{"router.buffer", "2flits"}, {"traffic.packet_size", "2flits"}, {"traffic.load", "0.6"},
             {"sim.drain_limit", "3000"}}),
       false, true},
      {"mesh, 4 VCs on each link, 3-flit packets", "experiments/direct_mesh_8x8.yaml",
       more({{"router.vcs", "4"}, {"traffic.packet_size", "3flits"}, {"traffic.load", "0.4"}}), false, true},
      {"torus, link latency 3, crossbar 2, credit delay 3, 3-flit buffers", "experiments/direct_torus_8x8.yaml",
       more({{"link.latency", "3"}, {"router.crossbar_delay", "2"}, {"link.credit_delay", "3"},
             {"router.buffer", "3flits"}, {"traffic.load", "0.2"}, {"router.route_delay", "2"}}),
       false, true},
      {"torus, dateline routing, 4 VCs, 2-flit buffers", "experiments/direct_torus_8x8.yaml",
       more({{"routing.function", "dateline"}, {"router.vcs", "4"}, {"router.buffer", "2flits"},
             {"traffic.load", "0.3"}}),
       false, true},
      {"unidirectional torus, UTR, saturated", "experiments/direct_torus_8x8.yaml",
       more({{"topology.direction", "unidirectional"}, {"routing.function", "utr"}, {"traffic.load", "0.5"},
             {"router.buffer", "2flits"}, {"sim.drain_limit", "3000"}}),
       false, true},
      // Many packets in one VC buffer: its front segment is in the input
      // VC's first line, the others in a ring that grows past its first
      // heap block (VcRouter::InputVc).
      {"mesh, 2-flit packets into 16-flit VC buffers, saturated (up to 8 packets per VC)",
       "experiments/direct_mesh_8x8.yaml",
       more({{"router.buffer", "16flits"}, {"traffic.packet_size", "2flits"}, {"traffic.load", "0.7"},
             {"sim.drain_limit", "3000"}}),
       false, true},
      {"torus, bidirectional link sharing (3-way)", "experiments/direct_torus_8x8.yaml",
       more({{"router.link_sharing", "bidirectional"}, {"traffic.load", "0.3"}}), false, true},
      // Each VC records its deposited flits' arrivals as bits of cycle mod
      // 32 (InputVc::arr_mask): a pipeline of 31 cycles fills
      // the record, one of 32 is not folded (flits on the wire); channels
      // from 64 on are not folded either, beside folded ones of one router.
      {"torus, crossbar 1 + link latency 30: 31 cycles of deposits per VC", "experiments/direct_torus_8x8.yaml",
       more({{"link.latency", "30"}, {"router.buffer", "64flits"}, {"traffic.packet_size", "16flits"},
             {"traffic.load", "0.3"}}),
       false, true},
      {"torus, crossbar 2 + link latency 30: not folded", "experiments/direct_torus_8x8.yaml",
       more({{"link.latency", "30"}, {"router.crossbar_delay", "2"}, {"router.buffer", "64flits"},
             {"traffic.packet_size", "16flits"}, {"traffic.load", "0.3"}}),
       false},
      {"mesh 4x4x4, 16 VCs (channels 64..95 not folded)", "experiments/direct_mesh_8x8.yaml",
       more({{"topology.dims", "[4,4,4]"}, {"router.vcs", "16"}, {"router.buffer", "2flits"},
             {"traffic.packet_size", "3flits"}, {"traffic.load", "0.4"}}),
       false, true},
      {"torus, processor nodes, all-port", "experiments/direct_torus_8x8.yaml",
       {{"node.model", "processor"}, {"router.ports", "all_port"}, {"traffic.load", "0.004"},
        {"message.size", "64"}, {"sim.warmup", "37"}, {"sim.measure", "3001"}},
       false, true},
  };
  for (const Case& c : cases) check_same(c);
}

TEST_CASE("direct networks: the worm-level hop (router.link_hold packet) gives the per-flit results exactly") {
  // With the link held per packet, a packet whose flits can all leave one
  // per cycle goes through a router in one step (VcRouter::try_run: a run to
  // the next router or the ejection link, credit ramps upstream, the release
  // at the tail's cycle or, unwatched, at the next evaluation), and the
  // routers count deposited flits lazily. What must stay exact: the buffer
  // peak (packets arriving behind a run: deep buffers, saturation), runs
  // refused for want of credits (4-flit buffers under 8-flit packets) and
  // downstream room, packets longer than a run can be (40 flits), credit
  // delays and latencies, routing and turn delays, run loop stops cutting
  // runs, one VC, hypercubes, and processor nodes (their own injection).
  const std::vector<Override> cut = {{"sim.warmup", "37"}, {"sim.measure", "1501"}, {"router.link_hold", "packet"}};
  auto more = [&](std::vector<Override> o) {
    o.insert(o.end(), cut.begin(), cut.end());
    return o;
  };
  const char* mesh = "experiments/direct_mesh_8x8.yaml";
  const std::vector<Case> cases = {
      {"mesh, CNSim's case (2 VCs of 20 flits, 5-flit packets, 0.1)", mesh,
       more({{"router.vcs", "2"}, {"router.buffer", "20flits"}, {"traffic.packet_size", "5flits"},
             {"traffic.load", "0.1"}}),
       true, true},
      {"mesh, 2 VCs, 4-flit buffers, 8-flit packets, saturated", mesh,
       more({{"router.vcs", "2"}, {"router.buffer", "4flits"}, {"traffic.packet_size", "8flits"},
             {"traffic.load", "0.6"}, {"sim.drain_limit", "4000"}}),
       false, true},
      {"mesh, 16-flit buffers, 3-flit packets, saturated (packets behind runs)", mesh,
       more({{"router.buffer", "16flits"}, {"traffic.packet_size", "3flits"}, {"traffic.load", "0.7"},
             {"sim.drain_limit", "4000"}}),
       true, true},
      {"mesh, 40-flit packets (longer than a run), 48-flit buffers", mesh,
       more({{"router.buffer", "48flits"}, {"traffic.packet_size", "40flits"}, {"traffic.load", "0.2"}}), false, true},
      {"mesh, latency 3, crossbar 2, credit delay 3, route delay 2, turn delay 2", mesh,
       more({{"link.latency", "3"}, {"router.crossbar_delay", "2"}, {"link.credit_delay", "3"},
             {"router.route_delay", "2"}, {"router.turn_delay", "2"}, {"router.buffer", "12flits"},
             {"traffic.packet_size", "6flits"}, {"traffic.load", "0.3"}}),
       true, true},
      {"hypercube, e-cube, 2 VCs, transpose-free uniform at 0.3", mesh,
       more({{"topology.kind", "hypercube"}, {"topology.dims", "2x2x2x2x2x2"}, {"routing.function", "ecube"},
             {"router.vcs", "2"}, {"router.buffer", "8flits"}, {"traffic.load", "0.3"}}),
       true, true},
      {"mesh, processor nodes, all-port", mesh,
       {{"node.model", "processor"}, {"router.ports", "all_port"}, {"traffic.load", "0.004"},
        {"message.size", "16"}, {"sim.warmup", "37"}, {"sim.measure", "3001"}, {"router.link_hold", "packet"},
        {"router.buffer", "24flits"}},
       true, true},
  };
  for (const Case& c : cases) {
    check_same(c);
    const nlohmann::json on = run(c, "on");
    INFO(c.what);
    if (c.expect_streams) CHECK(on.at("performance").at("worm_hops").get<std::uint64_t>() > 0);
  }
  // Without the hold, no worm-level hops.
  const nlohmann::json flit = run(Case{"mesh, links shared flit by flit", mesh, {{"traffic.load", "0.2"}}, false}, "on");
  CHECK(flit.at("performance").at("worm_hops").get<std::uint64_t>() == 0);
}

// The same-cycle rule (HostApi, docs/architecture.md): a host program that
// resumes in the cycle a DMA completion lands sees it, whichever of the I/O
// bus's and the program's processes the kernel runs first. Before the rule,
// these runs (found by tests/fuzz/oracle_soak.py) gave different results
// with streams on and off: the host received first in one and sent first in
// the other, since streams change which processes run in a cycle.
TEST_CASE("host software sees a message completed in the cycle its CPU frees (streams on and off)") {
  const std::vector<Case> cases = {
      {"host_ni unicast, 8-byte messages in 8-flit packets, a busy receiver", "",
       {{"node.model", "host_ni"}, {"traffic.load", "0.005"}, {"message.size", "8"}, {"ni.packet_size", "8flits"},
        {"sim.warmup", "0"}, {"sim.measure", "20000"}},
       true},
      {"path-based multicast under load, 16-byte messages", "experiments/seed000/multicast_load.yaml",
       {{"topology.switches", "11"}, {"topology.nodes", "29"}, {"topology.seed", "19"},
        {"routing.selection", "deterministic"}, {"traffic.scheme", "path-lg"}, {"traffic.degree", "5"},
        {"traffic.load", "0.002"}, {"message.size", "16"}, {"ni.packet_size", "64flits"},
        {"sim.warmup", "0"}, {"sim.measure", "20000"}, {"sim.drain_limit", "50000"}},
       true},
  };
  for (const Case& c : cases) check_same(c);
}
