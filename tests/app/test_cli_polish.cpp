// The command line's help for a newcomer: the closest name for a mistyped
// key, value or command, `params --section/--json`, `sweep --set`, and the
// progress line. The pieces are tested in-process; the commands through the
// real binary.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

#include "../common/shell.h"
#include "testbenches/app/config.h"
#include "testbenches/app/params_command.h"
#include "testbenches/app/progress.h"
#include "testbenches/app/suggest.h"
#include "testbenches/app/sweep.h"

namespace fs = std::filesystem;
using namespace wormcast;

namespace {
test::CommandOutput cli(const std::string& args) { return test::shell(test::wormcast_bin() + " " + args); }

fs::path tmpdir(const std::string& name) {
  const auto d = fs::temp_directory_path() / ("wormcast_test_polish_" + std::to_string(getpid())) / name;
  fs::remove_all(d);
  fs::create_directories(d);
  return d;
}

std::string write(const fs::path& dir, const std::string& name, const std::string& text) {
  const auto p = (dir / name).string();
  std::ofstream(p) << text;
  return p;
}
}  // namespace

TEST_CASE("edit distance: insertions, deletions, substitutions and a swap of neighbours each cost one") {
  CHECK(tb::edit_distance("load", "load") == 0);
  CHECK(tb::edit_distance("lod", "load") == 1);      // insertion
  CHECK(tb::edit_distance("loaad", "load") == 1);    // deletion
  CHECK(tb::edit_distance("loud", "load") == 1);     // substitution
  CHECK(tb::edit_distance("laod", "load") == 1);     // transposition
  CHECK(tb::edit_distance("kitten", "sitting") == 3);
  CHECK(tb::edit_distance("", "abc") == 3);
}

TEST_CASE("closest name: within a typo's reach, by the last part of a dotted name too") {
  const std::vector<std::string> keys = {"traffic.load", "traffic.kind", "sim.measure", "router.vcs"};
  CHECK(tb::closest_name("traffic.lod", keys) == "traffic.load");
  CHECK(tb::closest_name("load", keys) == "traffic.load");         // the section left out
  CHECK(tb::closest_name("sim.mesure", keys) == "sim.measure");
  CHECK(tb::closest_name("banana", keys).empty());                 // nothing close
  CHECK(tb::closest_name("x", keys).empty());
  CHECK(tb::did_you_mean("rnu", {"run", "topo", "params"}) == " (did you mean 'run'?)");
  CHECK(tb::did_you_mean("zzz", {"run", "topo", "params"}).empty());
}

TEST_CASE("a mistyped command, parameter, value or key names the closest that exists") {
  const std::string ex = std::string(WORMCAST_SOURCE_DIR) + "/experiments/default_unicast.yaml";
  auto o = cli("rnu " + ex);
  CHECK(o.code == 2);
  CHECK_THAT(o.text, Catch::Contains("'rnu' is not a command (did you mean 'run'?); the commands are ") &&
                         Catch::Contains("sweep"));
  o = cli("topo shwo torus:4x4");
  CHECK(o.code == 2);
  CHECK_THAT(o.text, Catch::Contains("wormcast topo: 'shwo' is not a command (did you mean 'show'?)"));
  const auto out = tmpdir("typos").string();
  o = cli("run " + ex + " --no-progress --out " + out + " --set traffic.lod=0.1");
  CHECK(o.code == 1);
  CHECK_THAT(o.text, Catch::Contains("--set traffic.lod=0.1: unknown parameter (did you mean 'traffic.load'?)"));
  o = cli("run " + ex + " --no-progress --out " + out + " --set traffic.kind=synthtic");
  CHECK(o.code == 1);
  CHECK_THAT(o.text, Catch::Contains("is not one of: ") && Catch::Contains("(did you mean 'synthetic'?)"));
  const auto bad = write(tmpdir("typo_key"), "k.yaml", "name: k\nsim:\n  mesure: 100\n");
  o = cli("run " + bad + " --no-progress --out " + out);
  CHECK(o.code == 1);
  CHECK_THAT(o.text, Catch::Contains("k.yaml:3") && Catch::Contains("sim.mesure: unknown key (did you mean 'measure'?)"));
}

TEST_CASE("params --section keeps one section's parameters, --json has them all") {
  std::ostringstream text;
  tb::run_params_command({{"router"}, false}, text);
  CHECK_THAT(text.str(), Catch::Contains("router.vcs") && Catch::Contains("router.buffer"));
  CHECK_THAT(text.str(), !Catch::Contains("traffic.load") && !Catch::Contains("header decoders"));
  std::ostringstream sw;
  tb::run_params_command({{"switch"}, false}, sw);   // the decoders are the values of switch.decoder
  CHECK_THAT(sw.str(), Catch::Contains("# header decoders (switch.decoder)") && !Catch::Contains("NI firmware"));
  try {
    std::ostringstream none;
    tb::run_params_command({{"routr"}, false}, none);
    FAIL("no error for a section that does not exist");
  } catch (const tb::ConfigError& e) {
    CHECK_THAT(e.what(), Catch::Contains("params --section routr") && Catch::Contains("(did you mean 'router'?)") &&
                             Catch::Contains("the sections are "));
  }
  std::ostringstream js;
  tb::run_params_command({{}, true}, js);
  const auto j = nlohmann::json::parse(js.str());
  bool load = false;
  for (const auto& g : j.at("groups"))
    for (const auto& p : g.at("parameters"))
      if (p.at("key") == "traffic.load") load = true;
  CHECK(load);
  REQUIRE(j.at("registries").size() == 2);
  CHECK(j.at("registries")[0].at("key") == "switch.decoder");
  CHECK(j.at("registries")[1].at("key") == "ni.firmware");
  // The binary's --json is the same document.
  const auto o = test::shell(test::wormcast_bin() + " params --json --section sim", false);
  REQUIRE(o.code == 0);
  CHECK(nlohmann::json::parse(o.text).at("groups")[0].at("parameters")[0].at("key").get<std::string>().rfind("sim.", 0) == 0);
}

TEST_CASE("sweep --set fixes a parameter for every run and names the sweep after it") {
  const fs::path d = tmpdir("sweep_set");
  write(d, "base.yaml", "name: small\nseed: 4\nsim:\n  warmup: 0\n  measure: 2000\n");
  const auto file = write(d, "s.yaml",
                          "name: ex\nexperiment: base.yaml\nset:\n  sim.measure: 3000\n"
                          "grid:\n  traffic.load: [0.02, 0.05]\n");
  tb::SweepSpec spec = tb::load_sweep(file);
  tb::apply_command_line_sets(spec, {"sim.measure=4000", "switch.buffer=320"});
  CHECK(spec.name == "ex_sim.measure-4000_switch.buffer-320");
  REQUIRE(spec.set.size() == 2);
  CHECK((spec.set[0].path == "sim.measure" && spec.set[0].value == "4000"));   // the file's value replaced
  CHECK((spec.set[1].path == "switch.buffer" && spec.set[1].value == "320"));
  const tb::SweepPlan plan = tb::plan_sweep(spec);
  REQUIRE(plan.runs.size() == 2);
  CHECK(plan.runs[0].overrides.size() == 3);
  // A key the sweep varies cannot also be fixed.
  tb::SweepSpec again = tb::load_sweep(file);
  CHECK_THROWS_WITH(tb::apply_command_line_sets(again, {"traffic.load=0.1"}),
                    Catch::Contains("varies traffic.load") && Catch::Contains("s.yaml:6"));
  // A bad value is the command line's error, not the sweep file's.
  tb::SweepSpec bad = tb::load_sweep(file);
  tb::apply_command_line_sets(bad, {"switch.buffer=-3"});
  CHECK_THROWS_WITH(tb::plan_sweep(bad), Catch::Contains("command line: --set switch.buffer=-3"));
  // Through the binary: the folder and files carry the name.
  const auto o = cli("sweep " + file + " --set sim.measure=1500 --dry-run --out " + (d / "out").string());
  INFO(o.text);
  REQUIRE(o.code == 0);
  CHECK_THAT(o.text, Catch::Contains("sweep 'ex_sim.measure-1500'"));
}

TEST_CASE("progress line: percentage of the window only while in it, rate and ETA, then the phase's own words") {
  tb::ProgressState s;
  s.phase = tb::RunPhase::measuring;
  s.now = 30000;
  s.measure_end = 60000;
  s.seconds = 2.0;   // 15,000 cycles/s: 30,000 cycles left take 2 s
  s.work = {1200, 1100};
  s.unit = "packets";
  CHECK(tb::progress_line(s) ==
        "[wormcast] measuring cycle 30000 / 60000 ( 50%), 15.0 k cycles/s, ETA 2 s; packets 1100 of 1200 complete");
  s.phase = tb::RunPhase::waiting;
  s.now = 61000;
  CHECK_THAT(tb::progress_line(s), Catch::Contains("waiting for the measured work: cycle 61000") &&
                                       !Catch::Contains("%"));
  s.trials = true;   // multicasts one after another: they run in this phase
  CHECK_THAT(tb::progress_line(s), Catch::Contains("running the trials: cycle 61000"));
  s.trials = false;
  s.phase = tb::RunPhase::draining;
  s.in_flight = 7;
  CHECK_THAT(tb::progress_line(s), Catch::Contains("draining: cycle 61000, 7 packets in flight") &&
                                       !Catch::Contains("%"));
  s.phase = tb::RunPhase::measuring;   // never past 100 %, even if asked past the end
  s.now = 70000;
  CHECK_THAT(tb::progress_line(s), Catch::Contains("60000 / 60000 (100%)") && Catch::Contains("ETA 0 s"));
}

TEST_CASE("a sweep point whose set does not fit the network is refused before anything runs") {
  const fs::path d = tmpdir("sweep_fit");
  const std::string base = std::string(WORMCAST_SOURCE_DIR) + "/experiments/seed001/utorus.yaml";
  const auto file = write(d, "s.yaml", "name: fit\nexperiment: " + base + "\ngrid:\n  traffic.set_size: [16, 65]\n");
  // The 8x8 torus has 64 nodes: the second point cannot be drawn.
  CHECK_THROWS_WITH(tb::plan_sweep(tb::load_sweep(file)),
                    Catch::Contains("grid") && Catch::Contains("traffic.set_size 65 exceeds the 64 nodes of the network"));
  // A source the network does not have, in a single run: refused at validation too (exit 1, nothing run).
  const auto o = cli("run " + base + " --no-progress --out " + (d / "out").string() + " --set traffic.source=64");
  CHECK(o.code == 1);
  CHECK_THAT(o.text, Catch::Contains("traffic.source 64: the network has 64 nodes"));
  CHECK_FALSE(fs::exists(d / "out" / "seed001_utorus_seed1.json"));
  // A topology file's nodes are known once it is built: the same check then, before anything runs.
  write(d, "ring.yaml",
        "format: wormcast-topology/1\nports_per_switch: 3\nswitches: 2\nlinks:\n  - {a: [0, 0], b: [1, 0]}\n"
        "nodes:\n  - {node: 0, at: [0, 1]}\n  - {node: 1, at: [0, 2]}\n  - {node: 2, at: [1, 1]}\n");
  const auto exp = write(d, "mc.yaml",
                         "name: mc\ntopology:\n  kind: file\n  file: ring.yaml\nswitch:\n  decoder: multicast\n"
                         "node:\n  model: host_ni\ntraffic:\n  kind: single_multicast\n  set_size: 4\n");
  const auto f = cli("run " + exp + " --no-progress --out " + (d / "out").string());
  CHECK(f.code == 1);
  CHECK_THAT(f.text, Catch::Contains("mc.yaml") && Catch::Contains("traffic.set_size 4 exceeds the 3 nodes of the network"));
  CHECK_FALSE(fs::exists(d / "out" / "mc_seed1.json"));
}
