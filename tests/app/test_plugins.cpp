// The plug-in pipeline: plug-ins selected by name, their parameters only in
// use when selected (and an error naming the plug-in otherwise), registries,
// statistics registered by their owners, and a workload added from outside
// the runner.
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "rtl_models/switch/decoder_registry.h"
#include "rtl_models/node/host_ni_node.h"
#include "rtl_models/node/ni_firmware.h"
#include "rtl_models/core/statistics.h"
#include "testbenches/app/runner.h"
#include "testbenches/app/workloads/synthetic_workload.h"
#include "topologies/networks/switch_network_kind.h"

using namespace wormcast;
using namespace wormcast::tb;

namespace {
std::string write_temp(const std::string& name, const std::string& text) {
  const auto dir = std::filesystem::temp_directory_path() / ("wormcast_test_plugins_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const auto p = (dir / name).string();
  std::ofstream(p) << text;
  return p;
}
}  // namespace

TEST_CASE("a key of a plug-in that is not selected is an error naming the plug-in and its selector") {
  SECTION("a key inside a shared section, in a file") {
    const auto f = write_temp("kindkey.yaml", "topology:\n  kind: irregular\n  switches: 8\n  file: t.yaml\n");
    CHECK_THROWS_WITH(load_experiment(f, {}), Catch::Contains(f + ":4") && Catch::Contains("topology.file") &&
                                                  Catch::Contains("network kind 'file' (topology.kind)") &&
                                                  Catch::Contains("not selected"));
  }
  SECTION("a whole section of another node model, in a file") {
    const auto f = write_temp("nodesec.yaml", "node:\n  model: host_ni\nendpoint:\n  rx_buffer: 64\n");
    CHECK_THROWS_WITH(load_experiment(f, {}), Catch::Contains(f + ":3") && Catch::Contains("endpoint") &&
                                                  Catch::Contains("node model 'endpoint' (node.model)"));
  }
  SECTION("an override") {
    CHECK_THROWS_WITH(load_experiment("", {{"ni.t_ns", "500"}}),
                      Catch::Contains("--set ni.t_ns=500") && Catch::Contains("node model 'host_ni' (node.model)"));
  }
  SECTION("a key nobody declares is still just unknown") {
    CHECK_THROWS_WITH(load_experiment("", {{"ni.speed", "5"}}), Catch::Contains("unknown parameter"));
  }
}

TEST_CASE("unknown plug-in names list the known ones") {
  CHECK_THROWS_WITH(load_experiment("", {{"topology.kind", "dragonfly"}}),
                    Catch::Contains("topology.kind") && Catch::Contains("irregular, file"));
  CHECK_THROWS_WITH(load_experiment("", {{"switch.decoder", "magic"}}),
                    Catch::Contains("switch.decoder") && Catch::Contains("updown"));
  CHECK_THROWS_WITH(load_experiment("", {{"node.model", "host_ni"}, {"ni.firmware", "smart"}}),
                    Catch::Contains("ni.firmware") && Catch::Contains("conventional"));
  CHECK_THROWS_WITH(rtl::make_firmware("smart"), Catch::Contains("unknown NI firmware 'smart'") &&
                                                     Catch::Contains("known: conventional"));
  Registry<int> r("widget");
  r.add("a", "first", [] { return std::make_unique<int>(1); });
  CHECK(*r.make("a") == 1);
  CHECK_THROWS_WITH(r.add("a", "again", [] { return std::make_unique<int>(2); }), Catch::Contains("registered twice"));
  CHECK_THROWS_WITH(r.make("b"), Catch::Contains("unknown widget 'b' (known: a)"));
}

TEST_CASE("the results echo only the sections in use") {
  auto sections = [](ExperimentConfig cfg) {
    JsonParamWriter w;
    cfg.visit(w);
    return w.out;
  };
  const auto ep = sections(load_experiment("", {}));
  CHECK(ep.contains("endpoint"));
  CHECK(ep.contains("switch"));
  for (const char* s : {"host", "iobus", "ni", "message"}) CHECK_FALSE(ep.contains(s));
  CHECK_FALSE(ep["topology"].contains("file"));
  const auto hn = sections(load_experiment("", {{"node.model", "host_ni"}}));
  for (const char* s : {"host", "iobus", "ni", "message"}) CHECK(hn.contains(s));
  CHECK_FALSE(hn.contains("endpoint"));
  const auto fk = sections(load_experiment("", {{"topology.kind", "file"}, {"topology.file", "x.yaml"}}));
  CHECK(fk["topology"]["file"] == "x.yaml");
  CHECK_FALSE(fk["topology"].contains("switches"));
}

TEST_CASE("selecting another plug-in starts from its defaults, the same one keeps its settings") {
  ExperimentConfig cfg;
  cfg.set({{"node.model", "host_ni"}, {"ni.t_ns", "300"}});
  CHECK(cfg.node_as<rtl::HostNiModel>().ni.t_ns == 300);
  cfg.set({{"traffic.load", "0.01"}});
  CHECK(cfg.node_as<rtl::HostNiModel>().ni.t_ns == 300);
  cfg.set({{"node.model", "endpoint"}});
  cfg.set({{"node.model", "host_ni"}});
  CHECK(cfg.node_as<rtl::HostNiModel>().ni.t_ns == rtl::NiParams{}.t_ns);
  const ExperimentConfig copy = cfg;   // deep copy: changing one leaves the other
  cfg.set({{"ni.t_ns", "42"}});
  CHECK(copy.node_as<rtl::HostNiModel>().ni.t_ns == rtl::NiParams{}.t_ns);
  CHECK_THROWS_AS(cfg.network_as<topo::FileKind>(), std::logic_error);
}

TEST_CASE("statistics: registered by name, nested in the results, clashes and impossible fractions refused") {
  Statistics s;
  s.add("a.b", "cycles", "x", [] { return 3; });
  s.add("a.c", "flits", "y", [] { return 4.5; });
  s.add("d", "bool", "z", [] { return true; });
  const auto j = s.collect();
  CHECK(j["a"]["b"] == 3);
  CHECK(j["a"]["c"] == 4.5);
  CHECK(j["d"] == true);
  CHECK(s.list().size() == 3);
  CHECK_THROWS_WITH(s.add("a.b", "", "", [] { return 0; }), Catch::Contains("clashes"));
  CHECK_THROWS_WITH(s.add("a", "", "", [] { return 0; }), Catch::Contains("clashes"));
  CHECK_THROWS_WITH(s.add("d.e", "", "", [] { return 0; }), Catch::Contains("clashes"));
  CHECK(checked_fraction(5, 10, "u") == 0.5);
  CHECK(checked_fraction(0, 0, "u") == 0.0);
  CHECK_THROWS_WITH(checked_fraction(11, 10, "bus utilization"), Catch::Contains("bus utilization") &&
                                                                     Catch::Contains("outside [0, 1]"));
}

namespace {
// A workload from outside the runner: one packet from node 0 to node 1 at
// cycle 100, nothing else. Registered by the test, selected by name.
class OnePacket : public Workload {
 public:
  int length = 16;
  std::unique_ptr<Workload> clone() const override { return std::make_unique<OnePacket>(*this); }
  void visit(ParamVisitor& v, const rtl::NodeModel&) override { v.flits("length", length, "packet length"); }
  void describe_facts(rtl::ConfigFacts& f) const override {
    f.workload_packet_flits = length;
    f.workload_packet_key = "traffic.length";
  }
  void attach(topo::NetworkModel& net, rtl::SimContext&, const Rng&) override {
    struct Source : rtl::PacketSource {
      Cycle at = 100;
      int len;
      explicit Source(int l) : len(l) {}
      Cycle next_time() const override { return at; }
      void generate(rtl::Packet& p) override {
        p.header.dest = 1;
        p.length = len;
        at = UINT64_MAX;
      }
    };
    net.node(0).endpoint()->set_source(std::make_unique<Source>(length));
  }
  bool measured_pending(const rtl::SimContext& ctx) const override { return ctx.ledger.completed() < 1; }
  void stop_creating_at(Cycle) override {}
  std::string pending_work(const rtl::SimContext&) const override { return "the packet has not arrived"; }
  void register_statistics(rtl::StatsScope s) const override {
    const rtl::SimContext& ctx = s.ctx;
    s.stats.add("one_packet.delivered", "packets", "the packet arrived", [&ctx] { return ctx.ledger.completed(); });
  }
};
}  // namespace

TEST_CASE("a workload registered from outside runs without any change to the runner") {
  workload_registry().add("one_packet", "a single packet (test)", [] { return std::make_unique<OnePacket>(); });
  ExperimentConfig cfg = load_experiment("", {{"traffic.kind", "one_packet"}, {"traffic.length", "24"},
                                              {"sim.warmup", "0"}, {"sim.measure", "1000"}});
  const RunResult r = run_experiment(cfg, RunOptions{});
  INFO(r.error);
  REQUIRE(r.ok);
  const auto& m = r.json.at("metrics");
  CHECK(m["one_packet"]["delivered"] == 1);
  CHECK(m["packets_created"] == 1);
  CHECK(m["latency_cycles"]["count"] == 1);
  CHECK(r.json["config"]["traffic"]["length"] == 24);
  CHECK_FALSE(r.json["config"]["traffic"].contains("load"));   // the synthetic workload's keys are not in use
  CHECK_THROWS_WITH(load_experiment("", {{"traffic.kind", "one_packet"}, {"traffic.load", "0.1"}}),
                    Catch::Contains("workload 'synthetic' (traffic.kind)"));
}
