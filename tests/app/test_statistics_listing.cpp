// The statistics' metadata: every statistic has a unit, a meaning and an
// owner; a run's results list them beside the values; `wormcast stats`
// prints them for one experiment or for every plug-in.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>

#include "../common/shell.h"
#include "rtl_models/core/statistics.h"
#include "testbenches/app/runner.h"

using namespace wormcast;
using namespace wormcast::tb;

namespace {

std::vector<StatisticInfo> listed(const std::vector<Override>& overrides) {
  std::vector<StatisticInfo> out;
  const RunResult r = list_statistics(load_experiment("", overrides), out);
  REQUIRE(r.ok);
  return out;
}

const StatisticInfo* find(const std::vector<StatisticInfo>& list, const std::string& name) {
  for (const auto& s : list)
    if (s.name == name) return &s;
  return nullptr;
}

std::string source(const std::string& rel) { return std::string(WORMCAST_SOURCE_DIR) + "/" + rel; }

}  // namespace

TEST_CASE("statistics carry their owner: the run, the network kind, the node model, the workload") {
  const auto list = listed({{"node.model", "host_ni"}});
  std::set<std::string> names;
  for (const auto& s : list) {
    CHECK(names.insert(s.name).second);   // each statistic once
    CHECK_FALSE(s.description.empty());
    CHECK_FALSE(s.owner.empty());
  }
  REQUIRE(find(list, "latency_cycles"));
  CHECK(find(list, "latency_cycles")->owner == "run");
  CHECK(find(list, "latency_cycles")->unit == "cycles");
  REQUIRE(find(list, "link_utilization"));
  CHECK(find(list, "link_utilization")->owner == "network kind 'irregular' (topology.kind)");
  REQUIRE(find(list, "messages.latency_cycles"));
  CHECK(find(list, "messages.latency_cycles")->owner == "node model 'host_ni' (node.model)");
}

TEST_CASE("a direct network's statistics are owned by its kind") {
  const auto list = listed({{"topology.kind", "torus"}});
  REQUIRE(find(list, "vc_buffer_peak_flits"));
  CHECK(find(list, "vc_buffer_peak_flits")->owner == "network kind 'torus' (topology.kind)");
  CHECK(find(list, "input_buffer_peak_flits") == nullptr);   // a switch network's, not a torus's
}

TEST_CASE("a run's results list every metric's unit, meaning and owner, and the CSV row leaves them out") {
  const auto dir = std::filesystem::temp_directory_path() / ("wormcast_test_stats_" + std::to_string(getpid()));
  std::filesystem::remove_all(dir);
  const auto o = test::shell(test::wormcast_bin() + " run " + source("experiments/default_unicast.yaml") +
                             " --no-progress --set sim.warmup=0 --set sim.measure=2000 --out " + dir.string());
  REQUIRE(o.code == 0);
  std::ifstream f(dir / "default_unicast_seed1.json");
  const nlohmann::json j = nlohmann::json::parse(f);
  REQUIRE(j.at("statistics").is_array());
  std::set<std::string> listed_names;
  for (const auto& s : j.at("statistics")) {
    const std::string name = s.at("name");
    listed_names.insert(name);
    std::string ptr = "/" + name;
    for (auto& c : ptr)
      if (c == '.') c = '/';
    CHECK(j.at("metrics").contains(nlohmann::json::json_pointer(ptr)));   // the value is in the results
    CHECK(s.contains("unit"));
    CHECK_FALSE(s.at("owner").get<std::string>().empty());
  }
  for (auto it = j.at("metrics").begin(); it != j.at("metrics").end(); ++it) {
    bool covered = listed_names.count(it.key()) > 0;
    for (const auto& n : listed_names) covered = covered || n.rfind(it.key() + ".", 0) == 0;
    CHECK(covered);   // every metric is described
  }
  std::ifstream csv(dir / "default_unicast_seed1.csv");
  std::string header;
  std::getline(csv, header);
  CHECK(header.find("statistics") == std::string::npos);
  CHECK(header.find("metrics.latency_cycles.mean") != std::string::npos);
  std::filesystem::remove_all(dir);
}

TEST_CASE("wormcast stats lists one experiment's statistics, or every plug-in's") {
  SECTION("an experiment file with an override") {
    const auto o = test::shell(test::wormcast_bin() + " stats " + source("experiments/direct_torus_8x8.yaml") +
                               " --set node.model=processor");
    REQUIRE(o.code == 0);
    CHECK_THAT(o.text, Catch::Contains("# network kind 'torus' (topology.kind)") &&
                           Catch::Contains("vc_buffer_peak_flits") && Catch::Contains("nodes.cpu_busy_fraction") &&
                           Catch::Contains("# node model 'processor' (node.model)"));
  }
  SECTION("every plug-in, as JSON") {
    const auto o = test::shell(test::wormcast_bin() + " stats --json", false);
    REQUIRE(o.code == 0);
    const nlohmann::json j = nlohmann::json::parse(o.text);
    std::set<std::string> owners;
    for (const auto& s : j.at("statistics")) owners.insert(s.at("owner").get<std::string>());
    for (const char* owner : {"run", "network kind 'irregular' (topology.kind)", "network kind 'torus' (topology.kind)",
                              "network kind 'mesh' (topology.kind)", "network kind 'hypercube' (topology.kind)",
                              "node model 'host_ni' (node.model)", "node model 'processor' (node.model)"})
      CHECK(owners.count(owner) == 1);
    CHECK(j.at("not_reached").is_array());
    // The endpoint node model is reached and measures nothing itself.
    CHECK(j.at("no_statistics") == nlohmann::json::array({"node model 'endpoint' (node.model)"}));
  }
  SECTION("bad input") {
    const auto missing = test::shell(test::wormcast_bin() + " stats /nonexistent/exp.yaml");
    CHECK(missing.code != 0);
    CHECK_THAT(missing.text, Catch::Contains("/nonexistent/exp.yaml"));
    const auto set_alone = test::shell(test::wormcast_bin() + " stats --set traffic.load=0.1");
    CHECK(set_alone.code != 0);
    CHECK_THAT(set_alone.text, Catch::Contains("--set needs an experiment file"));
    const auto bad_key = test::shell(test::wormcast_bin() + " stats " + source("experiments/default_unicast.yaml") +
                                     " --set traffic.lod=0.1");
    CHECK(bad_key.code != 0);
    CHECK_THAT(bad_key.text, Catch::Contains("traffic.lod"));
    // A failed write is an error (stdout to a full device, stderr to the pipe).
    const auto full = test::shell("{ " + test::wormcast_bin() + " stats > /dev/full; }");
    CHECK(full.code != 0);
    CHECK_THAT(full.text, Catch::Contains("writing to standard output failed"));
  }
}
