// The wormcast command line as a user meets it: real binary, real files.
// Bad input must give a clear message (file, key, reason) and a non-zero exit.
#include <catch2/catch.hpp>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include "../common/shell.h"

namespace fs = std::filesystem;

namespace {
using Out = wormcast::test::CommandOutput;

Out run(const std::string& args) { return wormcast::test::shell(wormcast::test::wormcast_bin() + " " + args); }

// One folder per test process, made when first used and removed when the
// process ends: ctest runs each case in a process of its own, in parallel,
// and a result left by an earlier build must not meet this one's.
struct TmpDir {
  fs::path path = fs::temp_directory_path() / ("wormcast_test_cli_" + std::to_string(::getpid()));
  TmpDir() {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TmpDir() {
    std::error_code ignored;
    fs::remove_all(path, ignored);
  }
};

fs::path tmpdir() {
  static const TmpDir d;
  return d.path;
}

std::string write(const std::string& name, const std::string& text) {
  const auto p = (tmpdir() / name).string();
  std::ofstream(p) << text;
  return p;
}
}  // namespace

TEST_CASE("bad input: each a clear error naming file and key, non-zero exit") {
  struct Case { std::string file, text; std::vector<std::string> expect; };
  const Case cases[] = {
      {"malformed.yaml", "topology:\n  switches: [8\n", {"malformed.yaml", "malformed YAML"}},
      {"unknown.yaml", "traffic:\n  loda: 0.1\n", {"unknown.yaml:2", "traffic.loda", "unknown key"}},
      {"zero.yaml", "topology:\n  switches: 0\n", {"zero.yaml:2", "topology.switches", "out of range"}},
      {"toomany.yaml", "topology:\n  switches: 2\n  ports: 4\n  nodes: 9\n", {"nodes", "9"}},
      {"bigpkt.yaml", "traffic:\n  packet_size: 1000\n", {"bigpkt.yaml", "traffic.packet_size", "switch.buffer"}},
      // The VC router holds the crossbar delay in 16 bits: refused as a key's range, not by a module.
      {"bigxbar.yaml", "topology:\n  kind: mesh\n  dims: [4, 4]\nrouter:\n  crossbar_delay: 70000\n",
       {"bigxbar.yaml:5", "router.crossbar_delay", "out of range", "65535"}},
      // ... and the route delay (VcRouter::route_delay_).
      {"bigroute.yaml", "topology:\n  kind: mesh\n  dims: [4, 4]\nrouter:\n  route_delay: 65536\n",
       {"bigroute.yaml:5", "router.route_delay", "out of range", "65535"}},
  };
  for (const auto& c : cases) {
    const auto f = write(c.file, c.text);
    const Out o = run("run " + f + " --no-progress");
    INFO(c.file << ": " << o.text);
    CHECK(o.code != 0);
    for (const auto& e : c.expect) CHECK_THAT(o.text, Catch::Contains(e));
    CHECK_THAT(o.text, !Catch::Contains("Segmentation"));
  }
}

TEST_CASE("bad input: disconnected user topology and missing experiment") {
  const auto topo = write("split.yaml",
                          "format: wormcast-topology/1\nports_per_switch: 2\nswitches: 2\nlinks: []\n"
                          "nodes:\n  - {node: 0, at: [0, 0]}\n  - {node: 1, at: [1, 0]}\n");
  const auto exp = write("usesplit.yaml", "topology:\n  kind: file\n  file: " + topo + "\n");
  Out o = run("run " + exp + " --no-progress");
  INFO(o.text);
  CHECK(o.code != 0);
  CHECK_THAT(o.text, Catch::Contains("split.yaml") && Catch::Contains("connected"));
  o = run("run /nonexistent.yaml");
  CHECK(o.code != 0);
  CHECK_THAT(o.text, Catch::Contains("/nonexistent.yaml: file not found"));
  o = run("run " + exp + " --set switch.nope=1");
  CHECK(o.code != 0);
  CHECK_THAT(o.text, Catch::Contains("switch.nope"));
}

TEST_CASE("run writes JSON and CSV results with the resolved configuration and seed") {
  const auto exp = write("small.yaml", "name: small\nseed: 9\nsim:\n  warmup: 1000\n  measure: 5000\n");
  const auto out = (tmpdir() / "out").string();
  fs::remove_all(out);
  const Out o = run("run " + exp + " --no-progress --set traffic.load=0.03 --out " + out);
  INFO(o.text);
  REQUIRE(o.code == 0);
  CHECK_THAT(o.text, Catch::Contains("accepted throughput") && Catch::Contains("small_seed9.json"));
  // How the run was computed: endpoints only, so the scheduler ran ahead of the kernel.
  CHECK_THAT(o.text, Catch::Contains("kernel activations") && Catch::Contains("(run ahead of the kernel)"));
  std::ifstream jf(out + "/small_seed9.json");
  REQUIRE(jf);
  const auto j = nlohmann::json::parse(jf);
  CHECK(j.at("seed") == 9);
  CHECK(j.at("config").at("traffic").at("load").get<double>() == Approx(0.03));
  CHECK(j.at("config").at("switch").at("buffer") == 640);
  CHECK(j.at("config").at("clock").at("period") == "5ns");
  CHECK(j.at("status") == "ok");
  CHECK(j.at("invariants").at("flits_conserved") == true);
  CHECK(j.contains("wormcast_version"));
  // The allocator the tool was linked with (CMake WORMCAST_JEMALLOC), named
  // because it decides how fast growing memory comes (docs/performance.md).
  CHECK(j.at("performance").at("allocator") == WORMCAST_TOOL_ALLOCATOR);
  std::ifstream cf(out + "/small_seed9.csv");
  std::string header, row;
  std::getline(cf, header);
  std::getline(cf, row);
  CHECK_THAT(header, Catch::Contains("metrics.latency_cycles.mean") && Catch::Contains("config.traffic.load"));
  CHECK(std::count(header.begin(), header.end(), ',') == std::count(row.begin(), row.end(), ','));
}

TEST_CASE("run never replaces another configuration's results silently") {
  const auto exp = write("slot.yaml", "name: slot\nsim:\n  warmup: 500\n  measure: 2000\n");
  const auto out = (tmpdir() / "slot").string();
  fs::remove_all(out);
  const std::string json = out + "/slot_seed1.json";
  const auto load_of = [&] { return nlohmann::json::parse(std::ifstream(json))["config"]["traffic"]["load"]; };
  const std::string base = "run " + exp + " --no-progress --out " + out;
  REQUIRE(run(base + " --set traffic.load=0.02").code == 0);
  // The same configuration again: rewritten (a rerun reproduces it).
  Out o = run(base + " --set traffic.load=0.02");
  INFO(o.text);
  CHECK(o.code == 0);
  // Another configuration at the same place: refused before simulating,
  // naming the file and the parameter; the first results are kept.
  o = run(base + " --set traffic.load=0.05");
  CHECK(o.code == 1);
  CHECK_THAT(o.text, Catch::Contains("slot_seed1.json already exists") &&
                         Catch::Contains("traffic.load: 0.02 there, 0.05 here") && Catch::Contains("--force") &&
                         Catch::Contains("--out DIR"));
  CHECK_THAT(o.text, !Catch::Contains("accepted throughput"));
  CHECK(load_of().get<double>() == Approx(0.02));
  // --force replaces it.
  o = run(base + " --set traffic.load=0.05 --force");
  CHECK(o.code == 0);
  CHECK(load_of().get<double>() == Approx(0.05));
  // A file that is not a results file is not replaced either.
  std::ofstream(json) << "{\"not\": \"results\"}\n";
  o = run(base + " --set traffic.load=0.05");
  CHECK(o.code == 1);
  CHECK_THAT(o.text, Catch::Contains("not a wormcast results file"));
  // Another seed is another file.
  CHECK(run(base + " --seed 2").code == 0);
  CHECK(fs::exists(out + "/slot_seed2.json"));
}

TEST_CASE("run prints a multicast workload's multicasts and their latency") {
  // seed004's S-torus from (0,0) to (0,1): one hop, one 2-byte message, three trials. The line's
  // numbers are tested in test_direct_multicast.cpp; here that the summary shows them.
  const auto out = (tmpdir() / "sci").string();
  const Out o = run("run " + std::string(WORMCAST_SOURCE_DIR) + "/experiments/seed004/sci_torus.yaml --no-progress "
                    "--set traffic.scheme=sci-storus --set traffic.source=0 --set 'traffic.destinations=(0,1)' "
                    "--set traffic.trials=3 --out " + out);
  INFO(o.text);
  REQUIRE(o.code == 0);
  CHECK_THAT(o.text, Catch::Contains("multicasts / latency mean / max (cycles) 3 / ") &&
                         Catch::Contains("root busy (cycles) / concurrency, mean"));
  CHECK_THAT(o.text, Catch::Contains(" / 1.00\n"));   // a chain of one: one transfer at a time
}

TEST_CASE("the summary names what the network has and measures every trial") {
  const std::string ex = std::string(WORMCAST_SOURCE_DIR) + "/experiments/";
  const auto read_json = [](const std::string& path) {
    std::ifstream f(path);
    return nlohmann::json::parse(f);
  };
  SECTION("a direct network: routers, nodes and channels, one per direction between neighbours") {
    const auto out = (tmpdir() / "summary_mesh").string();
    const Out o = run("run " + ex + "direct_mesh_8x8.yaml --no-progress --force --set topology.dims=4x4 "
                      "--set sim.warmup=100 --set sim.measure=500 --out " + out);
    INFO(o.text);
    REQUIRE(o.code == 0);
    // A 4x4 mesh: 2 dimensions x 4 rows x 3 neighbour pairs x 2 directions = 48 channels.
    CHECK_THAT(o.text, Catch::Contains("routers / nodes / channels               16 / 16 / 48\n"));
    CHECK_THAT(o.text, !Catch::Contains("switches") && Catch::Contains("offered load"));
    const auto topo = read_json(out + "/direct_mesh_8x8_seed1.json").at("topology");
    CHECK(topo.at("routers") == 16);
    CHECK(topo.at("channels") == 48);
    CHECK(topo.at("vc_lanes") == 48);     // dimension order on a mesh: one VC class per channel, router.vcs 1
    CHECK(topo.at("node_links") == 32);   // one link pair per node
  }
  SECTION("processor nodes in trials: every trial's messages, the processor's latency parts, no window rates") {
    const auto out = (tmpdir() / "summary_utorus").string();
    const Out o = run("run " + ex + "seed001/utorus.yaml --no-progress --force --set traffic.trials=5 --out " + out);
    INFO(o.text);
    REQUIRE(o.code == 0);
    // U-torus sends each destination of a trial one message: traffic.set_size 16 counts the source,
    // so 5 trials x 15 destinations.
    CHECK_THAT(o.text, Catch::Contains("messages sent / received                 75 / 75\n"));
    CHECK_THAT(o.text, Catch::Contains("send (t_S) / source queue") && Catch::Contains("receive (t_R)"));
    CHECK_THAT(o.text, !Catch::Contains("I/O bus") && !Catch::Contains("NI ") && !Catch::Contains("offered load"));
    const auto m = read_json(out + "/seed001_utorus_seed1.json").at("metrics");
    CHECK(m.at("messages").at("latency_cycles").at("count") == 75);
    const auto& b = m.at("messages").at("breakdown_mean_cycles");
    CHECK(b.size() == 4);
    CHECK(b.at("send") == Approx(20.0));      // processor.t_s, the CPU free at every send of a one-port node
    CHECK(b.at("receive") >= 16.0);           // processor.t_r, and any wait for the CPU
    double sum = 0;
    for (const auto& [k, v] : b.items()) sum += v.get<double>();
    CHECK(sum == Approx(m.at("messages").at("latency_cycles").at("mean").get<double>()));
    CHECK(m.at("measurement_window_cycles") == nlohmann::json::array({0, nullptr}));
    CHECK_FALSE(m.contains("offered_load"));
  }
  SECTION("host + I/O bus + NI nodes on a switch network: switches and links, the NI's latency parts") {
    const auto out = (tmpdir() / "summary_ni").string();
    const Out o = run("run " + ex + "seed000/single_multicast.yaml --no-progress --force --set traffic.scheme=ni "
                      "--set traffic.repetitions=3 --out " + out);
    INFO(o.text);
    REQUIRE(o.code == 0);
    CHECK_THAT(o.text, Catch::Contains("switches / nodes / links                 8 / 32 / "));
    // 15 destinations, each one message per repetition.
    CHECK_THAT(o.text, Catch::Contains("messages sent / received                 45 / 45\n"));
    CHECK_THAT(o.text, Catch::Contains("host send / I/O bus / NI send") &&
                           Catch::Contains("NI receive / I/O bus / host receive"));
    const auto m = read_json(out + "/seed000_single_multicast_seed1.json").at("metrics");
    CHECK(m.at("messages").at("latency_cycles").at("count") == 45);
    CHECK(m.at("messages").at("breakdown_mean_cycles").size() == 7);
  }
}

TEST_CASE("VCD option writes a waveform of the selected modules only") {
  const auto exp = write("wave.yaml", "name: wave\nsim:\n  warmup: 0\n  measure: 2000\n");
  const auto vcd = (tmpdir() / "wave.vcd").string();
  fs::remove(vcd);
  fs::remove_all(tmpdir() / "wout");   // results of an earlier build's configuration would be refused
  const Out o = run("run " + exp + " --no-progress --out " + (tmpdir() / "wout").string() + " --vcd " + vcd +
                    " --vcd-filter 'net.sw3'");
  INFO(o.text);
  REQUIRE(o.code == 0);
  std::ifstream f(vcd);
  REQUIRE(f);
  const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  CHECK_THAT(text, Catch::Contains("$enddefinitions"));
  // Dotted names become nested scopes: net / sw3 / out0 / valid.
  CHECK_THAT(text, Catch::Contains("$scope module sw3 $end") && Catch::Contains("$scope module out0 $end") &&
                       Catch::Contains(" valid ") && Catch::Contains(" occupancy "));
  CHECK_THAT(text, !Catch::Contains("module sw2 ") && !Catch::Contains("module node"));
  // Time advanced with value changes recorded (sw3 carried traffic).
  CHECK(std::count(text.begin(), text.end(), '#') > 10);
}

TEST_CASE("a VCD filter that matches no module is refused, with the names the network has, and writes no file") {
  struct Case { std::string file, text; std::vector<std::string> names; };
  const Case cases[] = {
      {"wave_sw.yaml", "sim:\n  warmup: 0\n  measure: 100\n", {"net.sw0 (net.sw*)", "net.node0 (net.node*)"}},
      // A direct network's routers and its processors' ports (one-port: port0 only).
      {"wave_torus.yaml",
       "topology:\n  kind: torus\n  dims: [4, 4]\n  direction: unidirectional\nrouting:\n  function: utr\n"
       "node:\n  model: processor\ntraffic:\n  kind: direct_multicast\n  scheme: utorus\n  set_size: 4\n"
       "  trials: 1\nsim:\n  warmup: 0\n  measure: 1\n",
       {"net.router0 (net.router*)", "net.node0.port0 (net.node*.port*)"}},
  };
  for (const auto& c : cases) {
    const auto exp = write(c.file, c.text);
    const auto vcd = (tmpdir() / (c.file + ".vcd")).string();
    fs::remove(vcd);
    const Out o = run("run " + exp + " --no-progress --out " + (tmpdir() / "wout").string() + " --vcd " + vcd +
                      " --vcd-filter 'net.switch*'");
    INFO(o.text);
    CHECK(o.code == 1);
    CHECK_THAT(o.text, Catch::Contains("--vcd-filter 'net.switch*' matches no module of this network; it can trace"));
    for (const auto& n : c.names) CHECK_THAT(o.text, Catch::Contains(n));
    CHECK_THAT(o.text, !Catch::Contains("scheduler") && !Catch::Contains("watchdog") && !Catch::Contains("link"));
    CHECK_FALSE(fs::exists(vcd));
  }
}

TEST_CASE("topo show and export name a fat tree by its spec") {
  Out o = run("topo show ibft:8,3");
  INFO(o.text);
  REQUIRE(o.code == 0);
  CHECK_THAT(o.text, Catch::Contains("128 nodes, 80 switches in 3 levels") &&
                         Catch::Contains("every cyclic route reaches its destination"));
  const auto dot = (tmpdir() / "ft.dot").string();
  o = run("topo export ibft:4,3 -o " + dot);
  REQUIRE(o.code == 0);
  std::ifstream f(dot);
  const std::string text((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  CHECK_THAT(text, Catch::StartsWith("graph \"ibft:4,3\"") && Catch::Contains("\"SW<00,2>\" -- \"P(000)\""));
  o = run("topo export ibft:4,3 --format yaml");
  CHECK(o.code != 0);
  CHECK_THAT(o.text, Catch::Contains("fat trees are exported as dot only"));
  o = run("topo show ibft:5,3");
  CHECK(o.code != 0);
  CHECK_THAT(o.text, Catch::Contains("ibft:5,3") && Catch::Contains("m = 5"));
}

TEST_CASE("topo generate / show / export round trip") {
  const auto t = (tmpdir() / "gen.yaml").string();
  Out o = run("topo generate --switches 4 --ports 8 --nodes 12 --seed 3 -o " + t);
  REQUIRE(o.code == 0);
  o = run("topo show " + t);
  INFO(o.text);
  REQUIRE(o.code == 0);
  CHECK_THAT(o.text, Catch::Contains("4 switches x 8 ports, 12 nodes") && Catch::Contains("deadlock-free"));
  o = run("topo export " + t + " --format dot");
  REQUIRE(o.code == 0);
  CHECK_THAT(o.text, Catch::Contains("digraph") && Catch::Contains("s3 ["));
  o = run("topo generate --switches 0");
  CHECK(o.code != 0);
  CHECK_THAT(o.text, Catch::Contains("switches"));
}

TEST_CASE("params lists every parameter") {
  const Out o = run("params");
  REQUIRE(o.code == 0);
  for (const char* k : {"switch.buffer", "switch.chunk", "link.latency", "traffic.load", "topology.connectivity",
                        "sim.watchdog", "clock.period"})
    CHECK_THAT(o.text, Catch::Contains(k));
}
