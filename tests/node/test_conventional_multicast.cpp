// The conventional-NI baseline of seed002 §2.2 (the hosts relay the
// k-binomial tree), compared with FPFS on the same tree; NI memory metrics
// (FCFS vs FPFS buffer use, seed002 §3.3), and NI memory bounded by its size
// (back-pressure, not loss).
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "testbenches/app/runner.h"

using namespace wormcast;
using namespace wormcast::tb;

namespace {

// Ordered (node.model before ni.*, topology.kind before its keys); a later
// entry with the same key replaces the earlier value in place.
using Overrides = std::vector<Override>;

void set(Overrides& o, const std::string& key, const std::string& value) {
  for (Override& e : o)
    if (e.path == key) {
      e.value = value;
      return;
    }
  o.push_back({key, value});
}

RunResult run_mc(const std::string& firmware, int m, int k, const Overrides& extra) {
  Overrides o = {{"node.model", "host_ni"},
                 {"ni.firmware", firmware},
                 {"traffic.kind", "single_multicast"},
                 {"traffic.source", "5"},
                 {"traffic.set_size", "16"},
                 {"traffic.k", std::to_string(k)},
                 {"traffic.repetitions", "2"},
                 {"message.size", std::to_string(m * 128)},
                 {"sim.warmup", "0"},
                 {"sim.measure", "1"},
                 {"sim.drain_limit", "5000000"}};
  for (const Override& e : extra) set(o, e.path, e.value);
  const RunResult r = run_experiment(load_experiment("", o), RunOptions{});
  INFO(r.error);
  REQUIRE(r.ok);
  return r;
}

const nlohmann::json& mc(const RunResult& r) { return r.json["metrics"]["multicast"]; }
double latency(const RunResult& r) { return mc(r)["latency_cycles"]["mean"]; }

// One 8-port switch with 8 nodes: every hop crosses the same single switch
// and no two tree edges share a link, so latencies can be worked out by hand.
const Overrides kOneSwitch = {{"topology.kind", "irregular"},
                              {"topology.switches", "1"},
                              {"topology.ports", "8"},
                              {"topology.nodes", "8"},
                              {"traffic.source", "0"},
                              {"traffic.ordering", "given"}};

Overrides one_switch(const Overrides& more) {
  Overrides o = kOneSwitch;
  for (const Override& e : more) set(o, e.path, e.value);
  return o;
}

}  // namespace

TEST_CASE("conventional NI host-relayed multicast delivers to every destination exactly once") {
  for (const auto& [m, k] : std::vector<std::pair<int, int>>{{1, 0}, {1, 1}, {3, 2}, {2, 4}, {4, 0}}) {
    INFO("m " << m << " k " << k);
    const RunResult r = run_mc("conventional", m, k, {});
    const auto& msgs = r.json["metrics"]["messages"];
    // One unicast message per tree edge: n - 1 per multicast.
    CHECK(msgs["sent"] == 15 * 2);
    CHECK(msgs["received"] == 15 * 2);
    CHECK(mc(r)["latency_cycles"]["count"] == 2);
  }
}

TEST_CASE("conventional NI vs FPFS on a binomial tree of 4 worked by hand") {
  // Chain 0,1,2,3, k = 2 (binomial), one packet of 128 bytes. Tree: 0 -> 2
  // (first), 0 -> 1, 2 -> 3. One hop = DMA in (D) + t_ns + wire (W) + t_nr +
  // DMA out (D). Conventional: each relay hop adds host overheads, so the
  // last destination (3) finishes at 2·(t_hs + D + t_ns + W + t_nr + D + t_hr);
  // FPFS: t_hs + D + 2·(t_ns + W + t_nr) + D + t_hr. The difference is
  // t_hs + t_hr + 2D whatever W is.
  const double t_hs = 1000, t_hr = 1000, t_ns = 1000, t_nr = 1000;
  const double D = std::ceil(128.0 / (266e6 / 200e6));   // 266 MB/s I/O bus, 200 MHz clock: 97 cycles
  const Overrides o = one_switch({{"traffic.destinations", "1,2,3"}, {"traffic.repetitions", "1"}});
  const double conv = latency(run_mc("conventional", 1, 2, o));
  const double fpfs = latency(run_mc("fpfs", 1, 2, o));
  CHECK(fpfs < conv);
  CHECK(conv - fpfs == t_hs + t_hr + 2 * D);
  CHECK(conv >= 2 * (t_hs + t_hr + t_ns + t_nr + 2 * D));
  CHECK(conv <= 2 * (t_hs + t_hr + t_ns + t_nr + 2 * D) + 2 * 300);   // W: 128 flits + a few cycles per hop
  // Seed000 §3: conventional = ceil(log2 n)·(t_hs + t_step + t_hr), smart =
  // t_hs + ceil(log2 n)·t_step + t_hr: the conventional tree is slower by
  // (ceil(log2 n) - 1)·(t_hs + t_hr) (plus a DMA each way per extra level).
  // Several packets: FPFS pipelines them, the hosts relay whole messages.
  const Overrides o3 = one_switch({{"traffic.destinations", "1,2,3"}, {"traffic.repetitions", "1"}});
  const double conv3 = latency(run_mc("conventional", 3, 2, o3));
  const double fpfs3 = latency(run_mc("fpfs", 3, 2, o3));
  CHECK(fpfs3 < conv3);
  CHECK(conv3 >= 2 * (t_hs + t_hr + 3 * t_ns + t_nr + 2 * D));
}

TEST_CASE("conventional NI is slower than FPFS on the same trees of the default network") {
  for (int k : {1, 2, 4}) {
    INFO("k " << k);
    CHECK(latency(run_mc("fpfs", 4, k, {})) < latency(run_mc("conventional", 4, k, {})));
  }
}

TEST_CASE("NI memory: FCFS holds the whole message at a relay with two children, FPFS one packet") {
  // n = 8, k = 3 on one switch: the full 3-binomial tree (N(3,3) = 8). Chain
  // position 4 relays to two children (blocks [6,7] and [5]). Under FPFS the
  // source sends each packet to 3 children, so position 4 gets one every
  // 3·t_ns = 3000 cycles and has it out of NI memory after t_nr + 2·t_ns +
  // one 128-flit injection ~ 2330 cycles: at most one packet (128 flits) is
  // ever held. Under FCFS it retains all m = 8 packets until the last has
  // come in: 8·128 = 1024 flits. The source holds the whole message in its
  // send queue under both (the send DMA outruns the NI processor).
  const Overrides o = one_switch({{"traffic.destinations", "1,2,3,4,5,6,7"},
                                  {"traffic.repetitions", "1"},
                                  {"ni.t_nr", "200"}});
  const RunResult fcfs = run_mc("fcfs", 8, 3, o), fpfs = run_mc("fpfs", 8, 3, o);
  const auto& a = mc(fcfs)["ni_memory"];
  const auto& b = mc(fpfs)["ni_memory"];
  CHECK(a["peak_flits"][4] == 8 * 128);
  CHECK(b["peak_flits"][4] == 128);
  CHECK(a["peak_flits"][0] == 8 * 128);
  CHECK(b["peak_flits"][0] == 8 * 128);
  CHECK(a["mean_flits"][4].get<double>() > b["mean_flits"][4].get<double>());
  CHECK(a["max_peak_flits"] == 1024);
  CHECK(b["max_peak_flits"] == 1024);
  // The older per-member peak list agrees.
  CHECK(mc(fcfs)["ni_memory_peak_flits"] == a["peak_flits"]);
}

TEST_CASE("NI memory never exceeds its size: a small NI memory back-pressures, nothing is lost") {
  // FPFS, 8 packets, k = 2 on the default network. With the default memory
  // some relay queues more than 2 packets (arrivals every 2·t_ns, work
  // t_nr + 2·t_ns per packet). With a 256-flit receive queue (2 packets) and
  // a 2-packet send queue every NI stays within 2·128 + 256 flits, relays
  // (which use only the receive queue) within 256, and all arrive once.
  const RunResult big = run_mc("fpfs", 8, 2, {});
  int big_relay_peak = 0;
  for (std::size_t i = 1; i < 16; ++i) big_relay_peak = std::max(big_relay_peak, mc(big)["ni_memory"]["peak_flits"][i].get<int>());
  CHECK(big_relay_peak > 256);
  const RunResult small = run_mc("fpfs", 8, 2, {{"ni.receive_queue", "256"}, {"ni.send_queue", "2"}});
  CHECK(small.json["metrics"]["messages"]["received"] == 15 * 2);
  const auto& peaks = mc(small)["ni_memory"]["peak_flits"];
  CHECK(peaks[0].get<int>() <= 2 * 128 + 256);
  for (std::size_t i = 1; i < 16; ++i) CHECK(peaks[i].get<int>() <= 256);
  CHECK(small.json["metrics"]["nodes"]["ni_memory_flits"]["peak"].get<int>() <= 2 * 128 + 256);
  CHECK(latency(small) >= latency(big));
}

TEST_CASE("separate NI send and receive engines overlap t_nr with sending (seed002 §9)") {
  // Linear chain 0 -> 1 -> 2 on one switch, FPFS, m = 8. The source sends a
  // packet every t_ns = 1000. With one NI processor the relay needs
  // t_nr + t_ns = 2000 per packet, so its last copy leaves 7·1000 later than
  // with separate engines, where it keeps up (max(t_nr, t_ns) = 1000): the
  // latency differs by exactly (m - 1)·t_nr. One packet: no difference.
  const Overrides o = one_switch({{"traffic.destinations", "1,2"}, {"traffic.repetitions", "1"}});
  Overrides sep = o;
  set(sep, "ni.engines", "separate");
  const double single8 = latency(run_mc("fpfs", 8, 1, o));
  const double separate8 = latency(run_mc("fpfs", 8, 1, sep));
  CHECK(single8 - separate8 == 7 * 1000);
  CHECK(latency(run_mc("fpfs", 1, 1, o)) == latency(run_mc("fpfs", 1, 1, sep)));
  // The receive engine's time is not NI processor time: busy fractions stay <= 1.
  const RunResult r = run_mc("conventional", 8, 2, {{"ni.engines", "separate"}});
  CHECK(r.json["metrics"]["nodes"]["ni_busy_fraction"]["max"].get<double>() <= 1.0);
}

TEST_CASE("single_multicast with traffic.source -1 draws the source from the run seed") {
  const RunResult r = run_mc("fpfs", 2, 0, {{"traffic.source", "-1"}});
  const int src = mc(r)["tree"]["chain"][0];
  CHECK(src >= 0);
  CHECK(src < 32);
  CHECK(r.json["metrics"]["messages"]["received"] == 15 * 2);
}

// The NI-based baselines of multicast_load (seed000 Figs. 26-28 with
// conventional NIs): the hosts relay the k-binomial tree (host_tree), or the
// source NI sends each destination its own copy (separate), among the other
// nodes' multicasts. Every multicast completes, every destination gets one
// message (the run's ledger checks exactly once), and the smart NI (FPFS)
// beats the host-relayed tree on the same load.
TEST_CASE("conventional NI baselines under multicast load: exactly once, every multicast complete") {
  const auto run_load = [](const std::string& firmware, const std::string& conventional, int topo_seed) {
    const Overrides o = {{"node.model", "host_ni"},
                         {"topology.seed", std::to_string(topo_seed)},
                         {"traffic.kind", "multicast_load"},
                         {"traffic.scheme", "ni"},
                         {"traffic.conventional", conventional},
                         {"ni.firmware", firmware},
                         {"traffic.degree", "7"},
                         {"traffic.load", "0.002"},
                         {"message.size", "256"},
                         {"routing.selection", "adaptive"},
                         {"sim.warmup", "2000"},
                         {"sim.measure", "60000"},
                         {"sim.drain_limit", "2000000"}};
    RunResult r = run_experiment(load_experiment("", o), RunOptions{});
    INFO(r.error);
    REQUIRE(r.ok);
    return r;
  };
  for (int seed : {1, 3}) {
    double fpfs_latency = 0;
    for (const auto& [firmware, conventional] : std::vector<std::pair<std::string, std::string>>{
             {"fpfs", "host_tree"}, {"conventional", "host_tree"}, {"conventional", "separate"}, {"fcfs", "host_tree"}}) {
      INFO(firmware << " " << conventional << " topology seed " << seed);
      const RunResult r = run_load(firmware, conventional, seed);
      const auto& m = mc(r);
      const int created = m["created"];
      CHECK(created > 10);
      CHECK(m["completed"] == created);
      const auto& msgs = r.json["metrics"]["messages"];
      CHECK(msgs["sent"] == 7 * created);      // one message per destination, whoever sends it
      CHECK(msgs["received"] == 7 * created);
      CHECK(r.json["metrics"]["saturated"] == false);
      if (firmware == "fpfs") fpfs_latency = latency(r);
      if (firmware == "conventional" && conventional == "host_tree") CHECK(latency(r) > fpfs_latency);
    }
  }
}
