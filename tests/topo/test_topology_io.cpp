// Topology files: YAML/JSON reading, writers, DOT export, error messages.
#include <catch2/catch.hpp>

#include <stdlib.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include <yaml-cpp/yaml.h>

#include "topologies/topology_io.h"

using namespace wormcast::topo;
namespace fs = std::filesystem;

namespace {

// A private directory per test case (ctest may run cases in parallel).
class TempDir {
 public:
  TempDir() {
    std::string tmpl = (fs::temp_directory_path() / "wormcast_topo_XXXXXX").string();
    if (!mkdtemp(tmpl.data())) throw std::runtime_error("mkdtemp failed");
    path_ = tmpl;
  }
  ~TempDir() {
    std::error_code ec;
    fs::remove_all(path_, ec);
  }
  std::string write(const std::string& name, const std::string& text) const {
    const std::string p = (path_ / name).string();
    std::ofstream(p) << text;
    return p;
  }
  std::string path(const std::string& name) const { return (path_ / name).string(); }

 private:
  fs::path path_;
};

bool same(const Topology& a, const Topology& b) {
  if (a.num_switches() != b.num_switches() || a.ports_per_switch != b.ports_per_switch ||
      !(a.node_attach == b.node_attach))
    return false;
  for (SwitchId s = 0; s < a.num_switches(); ++s)
    for (PortId p = 0; p < a.ports_per_switch; ++p) {
      const PortPeer &x = a.peer(s, p), &y = b.peer(s, p);
      if (x.kind != y.kind || x.id != y.id || (x.kind == PeerKind::switch_port && x.port != y.port))
        return false;
    }
  return true;
}

std::string load_error(const std::string& path) {
  try {
    load_topology(path);
  } catch (const TopologyError& e) {
    return e.what();
  }
  return "<no TopologyError>";
}

// Two switches with 4 ports: link s0.p0-s1.p0, nodes 0,1 on s0.p1 and s1.p1.
const char* kSmall = R"(format: wormcast-topology/1
ports_per_switch: 4
switches: 2
links:
  - {a: [0, 0], b: [1, 0]}
nodes:
  - {node: 0, at: [0, 1]}
  - {node: 1, at: [1, 1]}
description: "two switches"
)";

std::string small_with(const std::string& from, const std::string& to) {
  std::string s = kSmall;
  const auto i = s.find(from);
  if (i == std::string::npos) throw std::logic_error("bad test edit: " + from);
  return s.replace(i, from.size(), to);
}

}  // namespace

TEST_CASE("a small YAML file loads", "[io]") {
  TempDir dir;
  const Topology t = load_topology(dir.write("small.yaml", kSmall));
  CHECK(t.num_switches() == 2);
  CHECK(t.ports_per_switch == 4);
  CHECK(t.num_nodes() == 2);
  CHECK(t.description == "two switches");
  CHECK(t.peer(0, 0).kind == PeerKind::switch_port);
  CHECK(t.peer(0, 0).id == 1);
  CHECK(t.peer(0, 0).port == 0);
  CHECK(t.peer(1, 0).id == 0);
  CHECK(t.node_attach[1] == PortRef{1, 1});
  CHECK(t.peer(0, 3).kind == PeerKind::none);
}

TEST_CASE("a topology file with a second YAML document is refused, not cut short", "[io]") {
  TempDir dir;
  const std::string f = dir.write("two.yaml", std::string(kSmall) + "\n...\n%YAML 1.2\n---\nswitches: 9\n");
  CHECK_THROWS_WITH(load_topology(f), Catch::Contains(f) && Catch::Contains("a second YAML document"));
}

TEST_CASE("YAML written by write_topology_yaml round-trips", "[io]") {
  TempDir dir;
  for (const IrregularParams& prm : {IrregularParams{}, IrregularParams{16, 8, 64, 0.8, 3},
                                     IrregularParams{2, 32, 32, 1.0, 9}, IrregularParams{1, 4, 3, 1.0, 1}}) {
    Topology t = generate_irregular(prm);
    t.description += " \"quoted\" and: colon";
    std::ostringstream os;
    write_topology_yaml(t, os);
    const Topology back = load_topology(dir.write("t.yaml", os.str()));
    INFO(os.str());
    CHECK(same(t, back));
    CHECK(back.description == t.description);
    std::ostringstream again;
    write_topology_yaml(back, again);
    CHECK(again.str() == os.str());
  }
}

TEST_CASE("JSON written by write_topology_json loads back", "[io]") {
  TempDir dir;
  const Topology t = generate_irregular(IrregularParams{8, 8, 32, 0.8, 4});
  std::ostringstream os;
  write_topology_json(t, os);
  const Topology back = load_topology(dir.write("t.json", os.str()));
  CHECK(same(t, back));
  CHECK(back.description == t.description);
}

TEST_CASE("a hand-written JSON file loads", "[io]") {
  TempDir dir;
  const std::string json = R"({
	"format": "wormcast-topology/1",
	"ports_per_switch": 3,
	"switches": 3,
	"links": [{"a": [0, 0], "b": [1, 0]}, {"a":[1,1],"b":[2,0]}],
	"nodes": [{"node": 1, "at": [2, 2]}, {"node": 0, "at": [0, 2]}]
})";
  const Topology t = load_topology(dir.write("hand.json", json));
  CHECK(t.num_switches() == 3);
  CHECK(t.node_attach[1] == PortRef{2, 2});
  CHECK(t.links().size() == 2);
  CHECK_THAT(t.description, Catch::Contains("hand.json"));
}

TEST_CASE("DOT output names every switch, node and link", "[io]") {
  const Topology t = generate_irregular(IrregularParams{});
  const UpDownRouting r(t);
  for (const UpDownRouting* routing : {static_cast<const UpDownRouting*>(nullptr), &r}) {
    std::ostringstream os;
    write_topology_dot(t, routing, os);
    const std::string dot = os.str();
    CHECK(dot.rfind(routing ? "digraph" : "graph", 0) == 0);
    for (SwitchId s = 0; s < t.num_switches(); ++s)
      CHECK_THAT(dot, Catch::Contains("  s" + std::to_string(s) + " [shape=box"));
    for (NodeId n = 0; n < t.num_nodes(); ++n)
      CHECK_THAT(dot, Catch::Contains("  n" + std::to_string(n) + " [shape=circle"));
    const char* arrow = routing ? " -> " : " -- ";
    for (const SwitchLink& l : t.links()) {
      // With routing the edge points at the up end.
      const bool a_is_up = routing && r.is_up_port(l.b.sw, l.b.port);
      const PortRef from = a_is_up ? l.b : l.a, to = a_is_up ? l.a : l.b;
      CHECK_THAT(dot, Catch::Contains("s" + std::to_string(from.sw) + arrow + "s" + std::to_string(to.sw) +
                                      " [taillabel=\"" + std::to_string(from.port) + "\", headlabel=\"" +
                                      std::to_string(to.port) + "\""));
    }
    if (routing) {
      CHECK_THAT(dot, Catch::Contains("s0 [shape=box, label=\"s0\\nlevel 0\", style=\"filled,bold\""));
      CHECK_THAT(dot, Catch::Contains("style=dashed"));
      CHECK_THAT(dot, Catch::Contains("style=solid"));
    }
  }
}

TEST_CASE("bad topology files are rejected naming file, key and reason", "[io]") {
  TempDir dir;
  struct Case {
    const char* name;
    std::string text;
    std::vector<std::string> expect;   // substrings of what()
  };
  const std::vector<Case> cases = {
      {"malformed.yaml", "format: wormcast-topology/1\nlinks: [ {a: [0, 0]\nnodes: x\n",
       {"malformed", "line "}},
      {"unknown.yaml", small_with("switches: 2\n", "switches: 2\nswitchez: 3\n"),
       {"switchez", "unknown key"}},
      {"format.yaml", small_with("wormcast-topology/1", "wormcast-topology/9"),
       {"format", "wormcast-topology/9"}},
      {"missing.yaml", small_with("switches: 2\n", ""), {"missing key 'switches'"}},
      {"type.yaml", small_with("switches: 2", "switches: two"), {"switches", "expected an integer", "two"}},
      {"range.yaml", small_with("b: [1, 0]", "b: [1, 9]"),
       {"links[0].b", "port 9 out of range 0..3 for switch 1", "line 5"}},
      {"switch_range.yaml", small_with("b: [1, 0]", "b: [5, 0]"), {"links[0].b", "switch 5 out of range 0..1"}},
      {"twice.yaml", small_with("at: [1, 1]", "at: [0, 0]"),
       {"nodes[1].at", "switch 0 port 0 already used by links[0].a"}},
      {"self.yaml", small_with("b: [1, 0]", "b: [0, 3]"), {"links[0]", "one switch"}},
      {"node_id.yaml", small_with("node: 1,", "node: 7,"), {"nodes[1].node", "node id 7 out of range 0..1"}},
      {"node_dup.yaml", small_with("node: 1,", "node: 0,"), {"nodes[1].node", "listed twice", "nodes[0]"}},
      {"link_key.yaml", small_with("{a: [0, 0], b: [1, 0]}", "{a: [0, 0], c: [1, 0]}"),
       {"links[0].c", "unknown key"}},
      {"endpoint.yaml", small_with("a: [0, 0]", "a: 0"), {"links[0].a", "expected [switch, port]"}},
      {"disconnected.yaml", small_with("  - {a: [0, 0], b: [1, 0]}\n", ""),
       {"disconnected", "switch 1"}},
      {"empty.yaml", "", {"empty document"}},
      {"list.yaml", "- 1\n- 2\n", {"expected a mapping"}},
  };
  for (const Case& c : cases) {
    const std::string path = dir.write(c.name, c.text);
    const std::string what = load_error(path);
    INFO(c.name << ": " << what);
    CHECK(what.rfind(path + ": ", 0) == 0);   // starts with the file name
    for (const std::string& e : c.expect) CHECK_THAT(what, Catch::Contains(e));
  }
  // A file that does not exist.
  const std::string nowhere = dir.path("nowhere.yaml");
  CHECK_THAT(load_error(nowhere), Catch::StartsWith(nowhere + ": ") && Catch::Contains("cannot open"));
  CHECK_THAT(load_error(dir.path("")), Catch::Contains("directory"));
}

TEST_CASE("topology_from_yaml prefixes the given origin", "[io]") {
  const YAML::Node n = YAML::Load(small_with("switches: 2", "switches: 0"));
  try {
    topology_from_yaml(n, "experiment.yaml:topology");
    FAIL("no error");
  } catch (const TopologyError& e) {
    CHECK_THAT(e.what(), Catch::StartsWith("experiment.yaml:topology: switches: switch count 0 out of range"));
  }
}

TEST_CASE("oversized topology files are rejected before any large allocation", "[io]") {
  TempDir dir;
  // The issue's 7-line file asked for 2^24 ports per switch and took gigabytes.
  const std::string radix = dir.write("radix.yaml", small_with("ports_per_switch: 4", "ports_per_switch: 16777216"));
  CHECK_THAT(load_error(radix),
             Catch::StartsWith(radix + ": ") &&
                 Catch::Contains("ports_per_switch: 16777216 exceeds the limit of 4096 ports per switch (line 2)"));
  const std::string many = dir.write("switches.yaml", small_with("switches: 2", "switches: 100000"));
  CHECK_THAT(load_error(many), Catch::StartsWith(many + ": ") &&
                                   Catch::Contains("switches: 100000 exceeds the limit of 8192 switches (line 3)"));
  // Each within its own limit, but 1024 switches of 4096 ports are too many ports.
  std::string text = small_with("ports_per_switch: 4", "ports_per_switch: 4096");
  text.replace(text.find("switches: 2"), 11, "switches: 1024");
  const std::string total = dir.write("total.yaml", text);
  CHECK_THAT(load_error(total), Catch::StartsWith(total + ": ") &&
                                    Catch::Contains("switches: 1024 switches of 4096 ports are 4194304 switch "
                                                    "ports, more than the limit of 1048576"));
  // The largest radix itself is fine.
  const Topology t = load_topology(
      dir.write("radix_ok.yaml", small_with("ports_per_switch: 4", "ports_per_switch: 4096")));
  CHECK(t.ports_per_switch == 4096);
  CHECK(t.links().size() == 1);
}

TEST_CASE("anynet export for BookSim2 matches golden text", "[io][anynet]") {
  // Triangle 0-1-2 plus switch 3 hanging off 2; nodes on out-of-order ports.
  Topology t = Topology::empty(4, 4, "anynet golden");
  t.connect(0, 0, 1, 3).connect(1, 0, 2, 1).connect(2, 2, 0, 1).connect(3, 0, 2, 0);
  t.attach(0, 0, 3).attach(1, 0, 2).attach(2, 1, 1).attach(3, 3, 2).attach(4, 2, 3);
  std::ostringstream os;
  CHECK(write_topology_anynet(t, os).empty());
  CHECK(os.str() ==
        "router 0 node 1 node 0 router 1 router 2\n"
        "router 1 node 2 router 2\n"
        "router 2 node 4 router 3\n"
        "router 3 node 3\n");
}

TEST_CASE("anynet export writes parallel links once and reports each extra one", "[io][anynet]") {
  Topology t = Topology::empty(3, 4, "parallel");
  t.connect(0, 0, 1, 0).connect(0, 1, 1, 1).connect(1, 2, 2, 0).connect(2, 1, 1, 3);
  t.attach(0, 0, 2).attach(1, 2, 2);
  std::ostringstream os;
  const auto merged = write_topology_anynet(t, os);
  CHECK(os.str() == "router 0 node 0 router 1\nrouter 1 router 2\nrouter 2 node 1\n");
  REQUIRE(merged.size() == 2);
  CHECK(merged[0] == std::make_pair(0, 1));
  CHECK(merged[1] == std::make_pair(1, 2));
}
