// Nothing silently wrong: each case here could give a result that looks
// right and is not (a run that did not finish its work reported as not
// saturated, out-of-range numbers wrapping, duplicate keys ignored, files
// written half or into the wrong place). Each must fail loudly or say what
// happened.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "rtl_models/core/kernel.h"
#include "tests/common/runs.h"
#include "tests/common/shell.h"
#include "testbenches/app/atomic_file.h"
#include "testbenches/app/runner.h"
#include "testbenches/app/vcd_sink.h"

using namespace wormcast;
using namespace wormcast::tb;
namespace fs = std::filesystem;

namespace {
struct TempDir {
  fs::path path;
  explicit TempDir(const std::string& tag)
      : path(fs::temp_directory_path() / ("wormcast_rel_" + tag + "_" + std::to_string(getpid()))) {
    fs::remove_all(path);
    fs::create_directories(path);
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    const auto p = (path / name).string();
    std::ofstream(p) << text;
    return p;
  }
};
test::CommandOutput cli(const std::string& args) { return test::shell(test::wormcast_bin() + " " + args); }
}  // namespace

TEST_CASE("a run whose hosts cannot keep up is saturated, and says why") {
  // Host overheads of 1000 cycles per message cannot sustain 0.5 flits/cycle
  // of 128-byte messages: arrivals pile up unsent at every host.
  const ExperimentConfig cfg = load_experiment(
      "", {{"node.model", "host_ni"}, {"traffic.load", "0.5"}, {"sim.warmup", "2000"}, {"sim.measure", "10000"},
           {"sim.drain_limit", "20000"}});
  const RunResult r = run_experiment(cfg, RunOptions{});
  INFO(r.error);
  REQUIRE(r.ok);   // saturation is not a failure
  const auto& m = r.json.at("metrics");
  CHECK(m.at("saturated").get<bool>());
  const std::string why = m.at("saturation_reason").get<std::string>();
  CHECK_THAT(why, Catch::Contains("have not yet sent messages due in the window"));
  CHECK_THAT(why, Catch::Contains("bottleneck: host CPU"));
}

TEST_CASE("a source queue that reaches its limit stops creation and marks the run saturated") {
  const ExperimentConfig cfg =
      load_experiment("", {{"traffic.load", "1.0"}, {"traffic.source_queue", "20"}, {"sim.warmup", "0"},
                           {"sim.measure", "20000"}, {"sim.drain_limit", "5000"}});
  const RunResult r = run_experiment(cfg, RunOptions{});
  INFO(r.error);
  REQUIRE(r.ok);
  const auto& m = r.json.at("metrics");
  CHECK(m.at("saturated").get<bool>());
  CHECK_THAT(m.at("saturation_reason").get<std::string>(), Catch::Contains("reached traffic.source_queue (20)"));
  // Creation stopped: at most the queue limit per node beyond what the
  // network could take (1 flit/cycle/node at best, 128-flit packets).
  const auto created = m.at("packets_created").get<std::uint64_t>();
  CHECK(created <= 32 * (20 + 1 + 25000 / 128));
}

TEST_CASE("once its measured packets are delivered, a run whose sources overflowed stops the load and drains") {
  // An 8x8 mesh offered 0.6 flits/cycle/node accepts about 0.25: the
  // sources fill their 8-packet queues and stop creating. Every measured
  // packet is still delivered, and then nothing more can change the run's
  // verdict: creation stops and the network drains (at most 64 x 8 queued
  // packets of 8 flits, a few thousand cycles), long before the 200,000
  // cycles of sim.drain_limit that a run waiting for the overflowed sources
  // would simulate.
  const ExperimentConfig cfg = test::experiment(
      "experiments/direct_mesh_8x8.yaml", {{"traffic.load", "0.6"}, {"traffic.source_queue", "8"},
                                           {"sim.warmup", "1000"}, {"sim.measure", "3000"},
                                           {"sim.drain_limit", "200000"}});
  const RunResult r = run_experiment(cfg, RunOptions{});
  INFO(r.error);
  REQUIRE(r.ok);
  const auto& m = r.json.at("metrics");
  CHECK(m.at("saturated").get<bool>());
  CHECK_THAT(m.at("saturation_reason").get<std::string>(),
             Catch::Contains("reached traffic.source_queue (8)") && Catch::Contains("0 of "));
  CHECK(m.at("measured_packets_delivered") == m.at("measured_packets_created"));
  CHECK(m.at("packets_delivered") == m.at("packets_created"));   // drained
  CHECK(m.at("cycles_simulated").get<std::uint64_t>() < 4000 + 20000);
}

TEST_CASE("an unsaturated run is not marked saturated and has no reason") {
  const ExperimentConfig cfg = load_experiment("", {{"traffic.load", "0.02"}, {"sim.measure", "10000"}});
  const RunResult r = run_experiment(cfg, RunOptions{});
  REQUIRE(r.ok);
  CHECK_FALSE(r.json["metrics"]["saturated"].get<bool>());
  CHECK(r.json["metrics"]["saturation_reason"] == "");
}

namespace {
std::vector<std::string> evidence(const RunResult& r) {
  std::vector<std::string> names;
  for (const auto& e : r.json.at("metrics").at("saturation_evidence")) names.push_back(e.get<std::string>());
  return names;
}
// Hosts with no overheads and an I/O bus of 100 GB/s offer messages far
// faster than their NIs send them: the backlog is in the NIs, so accepted
// flits match offered flits while messages pile up.
std::vector<Override> ni_bound(const std::string& load, const std::string& drain_limit) {
  return {{"node.model", "host_ni"},  {"traffic.load", load},        {"host.t_hs", "0"},
          {"ni.t_nr", "0"},           {"iobus.bandwidth", "100GB/s"}, {"sim.warmup", "1000"},
          {"sim.measure", "5000"},    {"sim.drain_limit", drain_limit}};
}
}  // namespace

TEST_CASE("a run far past saturation says so whatever its window: the backlog grew, work was left") {
  // Its few measured messages complete within the drain limit, so the
  // measured work alone would call it unsaturated.
  const RunResult r = run_experiment(load_experiment("", ni_bound("1", "200000")), RunOptions{});
  INFO(r.error);
  REQUIRE(r.ok);
  const auto& m = r.json.at("metrics");
  CHECK(m.at("saturated").get<bool>());
  CHECK(evidence(r) == std::vector<std::string>{"backlog_grew", "not_drained"});
  const std::string why = m.at("saturation_reason").get<std::string>();
  CHECK_THAT(why, Catch::Contains("backlog_grew: the backlog of messages grew from"));
  CHECK_THAT(why, Catch::Contains("messages still outstanding when sim.drain_limit ended the run"));
  CHECK(r.json.at("invariants").at("messages_outstanding_at_end").get<std::uint64_t>() > 10000);
}

TEST_CASE("a saturated run that drains in the end is still saturated: its backlog grew with the load on") {
  const RunResult r = run_experiment(load_experiment("", ni_bound("0.3", "3000000")), RunOptions{});
  INFO(r.error);
  REQUIRE(r.ok);
  CHECK(r.json.at("invariants").at("all_packets_delivered").get<bool>());
  CHECK(r.json.at("metrics").at("saturated").get<bool>());
  CHECK(evidence(r) == std::vector<std::string>{"backlog_grew"});
}

TEST_CASE("a mesh a few percent past its saturation throughput is saturated, below it is not") {
  // 8x8 dor mesh, 1 VC: accepted about 0.225 flits/cycle/node at most.
  const auto run = [](const char* load) {
    return run_experiment(test::experiment("experiments/direct_mesh_8x8.yaml",
                                           {{"traffic.load", load}, {"sim.warmup", "2000"}, {"sim.measure", "20000"}}),
                          RunOptions{});
  };
  const RunResult over = run("0.24"), under = run("0.18");
  REQUIRE(over.ok);
  REQUIRE(under.ok);
  CHECK(over.json.at("metrics").at("saturated").get<bool>());
  CHECK(evidence(over) == std::vector<std::string>{"backlog_grew"});
  CHECK_FALSE(under.json.at("metrics").at("saturated").get<bool>());
  CHECK(evidence(under).empty());
}

TEST_CASE("delays and times that would look like deadlock or overflow SystemC time are refused") {
  CHECK_THROWS_WITH(load_experiment("", {{"link.latency", "50000"}}),
                    Catch::Contains("switch.route_delay + switch.crossbar_delay + link.latency") &&
                        Catch::Contains("must be shorter than sim.watchdog"));
  CHECK_THROWS_WITH(load_experiment("", {{"switch.route_delay", "19999"}}), Catch::Contains("sim.watchdog (20000"));
  CHECK_THROWS_WITH(load_experiment("", {{"link.credit_delay", "20000"}}), Catch::Contains("link.credit_delay"));
  CHECK_THROWS_WITH(load_experiment("", {{"clock.period", "1000s"}}), Catch::Contains("SystemC's time range"));
  CHECK_NOTHROW(load_experiment("", {{"link.latency", "100"}, {"sim.watchdog", "1000"}}));
}

TEST_CASE("numbers too large to hold are refused, never wrapped") {
  CHECK_THROWS_WITH(load_experiment("", {{"sim.warmup", "1e19"}}),
                    Catch::Contains("--set sim.warmup=1e19") && Catch::Contains("too large"));
  CHECK_THROWS_WITH(load_experiment("", {{"sim.warmup", "1e30"}}), Catch::Contains("too large"));
  CHECK_THROWS_WITH(load_experiment("", {{"switch.buffer", "1e300"}}), Catch::Contains("switch.buffer"));
  CHECK_THROWS_WITH(load_experiment("", {{"sim.measure", "1e6s"}}), Catch::Contains("sim.measure"));
}

TEST_CASE("a key given twice in a YAML file is an error naming both lines") {
  const TempDir d("dup");
  const auto top = d.write("top.yaml", "name: a\nseed: 2\nname: b\n");
  CHECK_THROWS_WITH(load_experiment(top, {}),
                    Catch::Contains(top + ":3") && Catch::Contains("name: given twice (first at line 1)"));
  const auto nested = d.write("nested.yaml", "switch:\n  buffer: 320\n  chunk: 4\n  buffer: 640\n");
  CHECK_THROWS_WITH(load_experiment(nested, {}),
                    Catch::Contains(nested + ":4") && Catch::Contains("switch.buffer: given twice (first at line 2)"));
  const auto sections = d.write("sections.yaml", "sim:\n  warmup: 0\nsim:\n  measure: 100\n");
  CHECK_THROWS_WITH(load_experiment(sections, {}), Catch::Contains(sections + ":3") && Catch::Contains("sim: given twice"));
}

TEST_CASE("files are written whole or not at all, and failures name the path") {
  const TempDir d("atomic");
  const std::string f = (d.path / "sub" / "x.json").string();
  write_file_atomic(f, "{\"a\": 1}\n");
  std::ifstream in(f);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK(text == "{\"a\": 1}\n");
  for (const auto& e : fs::directory_iterator(d.path / "sub")) CHECK(e.path().filename() == "x.json");   // no temp left
  d.write("afile", "x");
  CHECK_THROWS_WITH(write_file_atomic((d.path / "afile" / "y.json").string(), "z"),
                    Catch::Contains("afile/y.json: cannot write"));
  CHECK_THROWS_WITH(write_file_atomic("/dev/full", "data"), Catch::Contains("/dev/full: cannot write"));
  const auto o = cli("topo generate --switches 4 --nodes 8 -o /dev/full");
  CHECK(o.code == 1);
  CHECK_THAT(o.text, Catch::Contains("/dev/full: cannot write"));
  CHECK_THAT(o.text, !Catch::Contains("wrote"));
}

TEST_CASE("output places are checked before simulating, names cannot leave the output folder") {
  const TempDir d("out");
  d.write("afile", "x");
  const auto exp = d.write("e.yaml", "name: e\nsim:\n  warmup: 0\n  measure: 1000\n");
  auto o = cli("run " + exp + " --no-progress --out " + (d.path / "afile" / "sub").string());
  CHECK(o.code == 1);
  CHECK_THAT(o.text, Catch::Contains("--out") && Catch::Contains("afile/sub"));
  CHECK_THAT(o.text, !Catch::Contains("packets created"));   // nothing was simulated
  const auto esc = d.write("esc.yaml", "name: ../../escape\n");
  o = cli("run " + esc + " --no-progress --out " + (d.path / "r").string());
  CHECK(o.code == 1);
  CHECK_THAT(o.text, Catch::Contains("name: '../../escape' must be a plain file name"));
  o = cli("run " + d.path.string() + " --no-progress");
  CHECK(o.code == 1);
  CHECK_THAT(o.text, Catch::Contains(d.path.string() + ": is a directory"));
}

TEST_CASE("a replication chunk larger than the input buffer is refused") {
  CHECK_THROWS_WITH(load_experiment("", {{"switch.chunk", "700"}}),
                    Catch::Contains("switch.chunk (700 flits) is larger than switch.buffer (640 flits)"));
}

TEST_CASE("a sweep stopped by a signal stops its children, and a second sweep on the same folder is refused") {
  const TempDir d("sig");
  // Long enough to be still running when it is stopped, about 1 s in: 5,000,000 cycles
  // took 2 s before the stream step and 0.5 s after it, so the margin is generous now.
  d.write("base.yaml", "name: slow\nsim:\n  warmup: 0\n  measure: 200000000\n  drain_limit: 5000000\n");
  const auto sweep = d.write("s.yaml", "name: slowsweep\nexperiment: base.yaml\ntrials: 4\n");
  const std::string out = (d.path / "out").string(), bin = test::wormcast_bin();
  const std::string script =
      bin + " sweep " + sweep + " -j 2 --out " + out + " > " + (d.path / "log").string() + " 2>&1 & pid=$!; sleep 1; " +
      bin + " sweep " + sweep + " -j 1 --out " + out + " 2>&1; echo second=$?; kill -TERM $pid; wait $pid; echo first=$?; " +
      "echo children=$(ps -eo args | grep -v grep | grep -c -F -- '" + out + "/runs/')";
  const auto o = test::shell(script);
  INFO(o.text);
  CHECK_THAT(o.text, Catch::Contains("another sweep is running with this output folder"));
  CHECK_THAT(o.text, Catch::Contains("second=1"));
  CHECK_THAT(o.text, Catch::Contains("first=143"));   // 128 + SIGTERM
  CHECK_THAT(o.text, Catch::Contains("children=0"));   // only this sweep's children: other tests run sweeps too
  std::ifstream log(d.path / "log");
  const std::string text((std::istreambuf_iterator<char>(log)), std::istreambuf_iterator<char>());
  CHECK_THAT(text, Catch::Contains("Terminated received: stopping 2 running children"));
  CHECK_THAT(text, Catch::Contains("interrupted"));
  // The lock went with the process: the folder can be swept again.
  CHECK(test::shell(bin + " sweep " + sweep + " --dry-run --out " + out).code == 0);
}

TEST_CASE("odd inputs get clear errors and the documented exit codes") {
  const TempDir d("odd");
  // Usage errors exit 2: a negative generator seed is refused, not wrapped around.
  auto o = cli("topo generate --switches 4 --nodes 8 --seed -1");
  CHECK(o.code == 2);
  CHECK_THAT(o.text, Catch::Contains("--seed") && Catch::Contains("must be a non-negative integer"));
  CHECK(cli("no-such-command").code == 2);
  CHECK(cli("--help").code == 0);
  // A topology with no processing node.
  const auto zero = d.write("zero.yaml", "format: wormcast-topology/1\nports_per_switch: 4\nswitches: 2\nlinks:\n"
                                         "  - {a: [0, 0], b: [1, 0]}\nnodes: []\n");
  o = cli("topo show " + zero);
  CHECK(o.code == 1);
  CHECK_THAT(o.text, Catch::Contains(zero) && Catch::Contains("no processing nodes"));
  // A sweep whose last trial's seed would not fit is refused up front.
  const auto base = d.write("base.yaml", "name: b\n");
  const auto sw = d.write("s.yaml", "experiment: base.yaml\nseed: 9223372036854775807\ntrials: 2\n");
  o = cli("sweep " + sw + " --dry-run");
  CHECK(o.code == 1);
  CHECK_THAT(o.text, Catch::Contains("s.yaml: seed") && Catch::Contains("exceeds the largest seed"));
  // A one-node network cannot carry uniform traffic.
  const auto one = d.write("one.yaml", "format: wormcast-topology/1\nports_per_switch: 2\nswitches: 1\nlinks: []\n"
                                       "nodes:\n  - {node: 0, at: [0, 0]}\n");
  const auto e1 = d.write("e1.yaml", "name: one\ntopology:\n  kind: file\n  file: " + one + "\n");
  o = cli("run " + e1 + " --no-progress --out " + (d.path / "r").string());
  CHECK(o.code == 1);
  CHECK_THAT(o.text, Catch::Contains("needs at least 2 nodes"));
}

TEST_CASE("commands whose product is standard output fail on a lost write") {
  const TempDir d("stdout");
  const std::string exp = d.write("e.yaml", "name: e\nsim:\n  warmup: 0\n  measure: 200\n");
  const std::string sweep = d.write("s.yaml", "name: s\nexperiment: e.yaml\ngrid:\n  traffic.load: [0.01, 0.02]\n");
  const std::string out = " --out " + (d.path / "sweep_out").string();
  const char* commands[] = {"params", "plan kbinomial --set-size 8 --json", "topo show torus:4x4:uni", "stats"};
  for (const char* c : commands) {
    INFO(c);
    const auto o = test::shell("{ " + test::wormcast_bin() + " " + c + " > /dev/full; }");
    CHECK(o.code == 1);
    CHECK_THAT(o.text, Catch::Contains("standard output"));
  }
  for (const char* flag : {"--emit-jobs", "--dry-run"}) {
    INFO(flag);
    const auto ok = cli("sweep " + sweep + out + " " + flag);
    REQUIRE(ok.code == 0);   // the same command to a working stdout
    const auto o = test::shell("{ " + test::wormcast_bin() + " sweep " + sweep + out + " " + flag + " > /dev/full; }");
    CHECK(o.code == 1);
    CHECK_THAT(o.text, Catch::Contains("standard output: cannot write"));
    CHECK_THAT(o.text, !Catch::Contains("printed"));   // --emit-jobs no longer claims its lines
  }
}

TEST_CASE("topo generate --seed takes what topology.seed takes") {
  CHECK(cli("topo generate --switches 4 --nodes 8 --seed 9223372036854775807").code == 0);
  for (const char* bad : {"9223372036854775808", "18446744073709551616", "-1", "1.5"}) {
    INFO(bad);
    const auto o = cli(std::string("topo generate --switches 4 --nodes 8 --seed ") + bad);
    CHECK(o.code != 0);
    CHECK_THAT(o.text, Catch::Contains("--seed") && Catch::Contains(bad));
    const auto r = cli(std::string("run ") + WORMCAST_SOURCE_DIR + "/experiments/default_unicast.yaml --set topology.seed=" + bad);
    CHECK(r.code != 0);   // the experiment key refuses the same values
  }
}

TEST_CASE("a sweep named '.' or a hidden name is refused, a folder that cannot be made says why") {
  const TempDir d("names");
  d.write("e.yaml", "name: e\nsim:\n  warmup: 0\n  measure: 200\n");
  for (const char* name : {".", "..", ".hidden"}) {
    INFO(name);
    const std::string s = d.write("n.yaml", std::string("name: \"") + name + "\"\nexperiment: e.yaml\n");
    const auto o = cli("sweep " + s + " --dry-run --out " + (d.path / "o").string());
    CHECK(o.code == 1);
    CHECK_THAT(o.text, Catch::Contains("name") && Catch::Contains("not starting with '.'"));
  }
  const std::string hidden = d.write(".yaml", "experiment: e.yaml\n");   // named after its file: ".yaml"
  CHECK(cli("sweep " + hidden + " --dry-run --out " + (d.path / "o").string()).code == 1);
  // The reason is the one creating the folder met (sysfs refuses new
  // folders), not a "no such file" from the check after it.
  const std::string exp = d.write("r.yaml", "name: r\nsim:\n  warmup: 0\n  measure: 100\n");
  const auto o = cli("run " + exp + " --no-progress --out /sys/wormcast_test_out");
  CHECK(o.code == 1);
  CHECK_THAT(o.text, Catch::Contains("cannot create the output folder") && !Catch::Contains("No such file"));
}

TEST_CASE("a waveform that cannot be written whole is an error") {
  const TempDir d("vcd");
  const std::string exp = d.write("e.yaml", "name: e\nsim:\n  warmup: 0\n  measure: 500\n");
  const std::string out = " --no-progress --out " + (d.path / "o").string();
  // A full device: SystemC's own writer would end the file early and say nothing.
  auto o = cli("run " + exp + out + " --vcd /dev/full");
  CHECK(o.code == 1);
  CHECK_THAT(o.text, Catch::Contains("--vcd /dev/full: cannot write the waveform: No space left on device"));
  CHECK_THAT(o.text, !Catch::Contains("waveform: /dev/full"));
  // A place that cannot hold the file: refused before simulating.
  d.write("afile", "x");
  o = cli("run " + exp + out + " --vcd " + (d.path / "afile" / "w.vcd").string());
  CHECK(o.code == 1);
  CHECK_THAT(o.text, Catch::Contains("afile/w.vcd: cannot create the file"));
  // Written whole: the header, the definitions and the value changes, at the
  // path given (no ".vcd" appended).
  const std::string vcd = (d.path / "wave").string();
  o = cli("run " + exp + out + " --vcd " + vcd + " --vcd-filter net.sw0");
  REQUIRE(o.code == 0);
  std::ifstream in(vcd);
  const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  CHECK_THAT(text, Catch::StartsWith("$date") && Catch::Contains("$enddefinitions") && Catch::Contains("#500"));
  CHECK_FALSE(fs::exists(vcd + ".vcd"));
}

TEST_CASE("a waveform sink SystemC never wrote to ends at once, empty") {
  const TempDir d("vcdsink");
  const std::string f = (d.path / "empty.vcd").string();
  {
    VcdSink sink(f);
    CHECK_THAT(sink.systemc_base(), !Catch::Contains(d.path.string()));   // the pipe is in its own folder
    sink.finish();   // no writer ever opened the pipe: must not wait for one
  }
  CHECK(fs::exists(f));
  CHECK(fs::file_size(f) == 0);
  CHECK_THROWS_WITH(VcdSink((d.path / "no" / "x.vcd").string()), Catch::Contains("cannot create the file"));
}

TEST_CASE("a saturated NI-relay run ends holding nothing on a thread's stack (the leak check of the sanitizer build)") {
  // Cut short past saturation, NI processors are blocked mid-relay, sending
  // one child's copy with more to go (FPFS: per packet, FCFS: a whole
  // message). The kernel discards their stacks (rtl_models/core/kernel.h),
  // so what they send must live in the firmware: the sanitizer build's
  // LeakSanitizer fails this test otherwise.
  for (const char* firmware : {"fpfs", "fcfs"}) {
    const RunResult r = run_experiment(
        test::experiment("experiments/seed000/multicast_load.yaml",
                         {{"traffic.scheme", "ni"}, {"ni.firmware", firmware}, {"traffic.load", "0.05"},
                          {"traffic.degree", "15"}, {"message.size", "512"}, {"sim.warmup", "1000"},
                          {"sim.measure", "5000"}, {"sim.drain_limit", "2000"}}),
        RunOptions{});
    INFO(firmware << ": " << r.error);
    REQUIRE(r.ok);
    CHECK(r.json.at("metrics").at("saturated").get<bool>());
    CHECK_FALSE(r.json.at("invariants").at("all_packets_delivered").get<bool>());
  }
  rtl::fresh_kernel();   // delete the last run's context, as the next run would
}

TEST_CASE("file names the file system refuses are errors of their key, not crashes") {
  const TempDir dir("longname");
  const std::string name(5000, 'a');
  const auto sweep = dir.write("s.yaml", "experiment: " + name + ".yaml\ngrid:\n  traffic.load: [0.01]\n");
  const auto r = cli("sweep --dry-run " + sweep + " --out " + (dir.path / "out").string());
  CHECK(r.code == 1);
  CHECK_THAT(r.text, Catch::Contains(sweep + ":1: experiment:") && Catch::Contains("File name too long"));
  const auto exp = dir.write("e.yaml", "topology:\n  kind: file\n  file: " + name + ".yaml\n");
  const auto e = cli("run " + exp + " --no-progress --out " + (dir.path / "out").string());
  CHECK(e.code == 1);
  CHECK_THAT(e.text, Catch::StartsWith("wormcast: error: " + exp));
}

TEST_CASE("the direct-network testbenches write their waveforms whole or fail") {
  const TempDir dir("tb_vcd");
  const std::string bin = fs::path(test::wormcast_bin()).parent_path().string();
  const auto ports = test::shell(bin + "/direct_ports_tb --vcd " + (dir.path / "p").string());
  REQUIRE(ports.code == 0);
  const auto router = test::shell(bin + "/direct_router_tb --vcd " + (dir.path / "r").string());
  REQUIRE(router.code == 0);
  for (const char* f : {"p_one_port.vcd", "p_all_port.vcd", "r.vcd"}) {
    std::ifstream in(dir.path / f);
    const std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    INFO(f);
    CHECK_THAT(text, Catch::Contains("$enddefinitions"));
    CHECK(text.back() == '\n');
  }
  const auto missing = test::shell(bin + "/direct_ports_tb --vcd /nonexistent_dir/p");
  CHECK(missing.code == 1);
  CHECK_THAT(missing.text, Catch::Contains("--vcd /nonexistent_dir/p_one_port.vcd: cannot create the file"));
  const auto missing_r = test::shell(bin + "/direct_router_tb --vcd /nonexistent_dir/r");
  CHECK(missing_r.code == 2);
  CHECK_THAT(missing_r.text, Catch::Contains("--vcd /nonexistent_dir/r.vcd: cannot create the file"));
}
