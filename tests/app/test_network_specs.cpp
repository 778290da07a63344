// One network registry: `wormcast plan`, `wormcast topo` and the multicast
// testbenches resolve a network spec through the network kinds that `run`
// builds from (topo::kind_of_spec), so a kind an embedding program
// registers is named by all of them, and the forms in help texts come from
// the registry.
#include <catch2/catch.hpp>

#include <filesystem>
#include <fstream>
#include <string>

#include "tests/common/shell.h"
#include "topologies/direct_topology.h"
#include "topologies/networks/direct_network_kind.h"
#include "topologies/networks/network_kind.h"

using namespace wormcast;

namespace {

// A kind of the embedding program's: "ring:N" is a unidirectional N-ring
// (a 1-D torus), reusing the torus kind's hardware.
class RingKind final : public topo::TorusKind {
 public:
  RingKind() { direction = "unidirectional"; }
  std::unique_ptr<topo::NetworkKind> clone() const override { return std::make_unique<RingKind>(*this); }
  std::string spec_prefix() const override { return "ring"; }
  std::string spec_example() const override { return "ring:N"; }
  algo::PlanNetwork plan_network(const std::string& spec) const override {
    return algo::direct_network(topo::parse_direct_spec("torus:" + spec.substr(5) + ":uni"));
  }
};

void register_ring() {
  if (!topo::network_kind_registry().find("ring"))
    topo::network_kind_registry().add("ring", "a unidirectional ring (test)", [] { return std::make_unique<RingKind>(); });
}

}  // namespace

TEST_CASE("every spec form resolves through the kind that runs it", "[specs]") {
  const std::pair<const char*, const char*> specs[] = {{"torus:4x4:uni", "torus"},   {"mesh:3x5", "mesh"},
                                                       {"hypercube:3", "hypercube"}, {"ibft:4,2", "ibft"},
                                                       {"irregular:4x4p8s2", "irregular"}};
  for (const auto& [spec, prefix] : specs) {
    INFO(spec);
    const topo::NetworkKind& k = topo::kind_of_spec(spec);
    CHECK(k.spec_prefix() == prefix);
    CHECK(topo::resolve_network_spec(spec).num_nodes() > 0);
    CHECK_THAT(topo::network_spec_forms(), Catch::Contains(std::string(prefix) + ":"));
  }
  CHECK(topo::resolve_network_spec("mesh:3x5").num_nodes() == 15);
  CHECK(topo::resolve_network_spec("ibft:4,2").num_nodes() == 8);
  // A path with a ':' that is no kind's prefix is a file when it exists.
  const auto dir = std::filesystem::temp_directory_path() / "wormcast_specs";
  std::filesystem::create_directories(dir);
  const std::string odd = (dir / "net:v2.yaml").string();
  std::filesystem::remove(odd);
  CHECK_THROWS(topo::kind_of_spec(odd));   // absent: an unknown kind
  { std::ofstream(odd) << "x"; }
  CHECK(topo::kind_of_spec(odd).reads_files());
  CHECK(topo::kind_of_spec("no_such_file.yaml").reads_files());   // and fails to load, naming it
  CHECK_THROWS_WITH(topo::resolve_network_spec("no_such_file.yaml"), Catch::Contains("no_such_file.yaml"));
  CHECK_THROWS_WITH(topo::kind_of_spec("ring:8"), Catch::Contains("unknown kind \"ring\"") &&
                                                      Catch::Contains("torus") && Catch::Contains("ibft"));
}

TEST_CASE("a kind registered at start-up is named by plan's specs and the help", "[specs]") {
  register_ring();
  const algo::PlanNetwork ring = topo::resolve_network_spec("ring:6");
  CHECK(ring.num_nodes() == 6);
  CHECK(ring.spec == "torus:6:uni");
  CHECK_THAT(topo::network_spec_forms(), Catch::Contains("ring:N"));
  CHECK(topo::kind_of_spec("torus:6:uni").spec_prefix() == "torus");   // the others unchanged
}

TEST_CASE("topo show and export take every spec form, and a failed write is an error", "[specs]") {
  const auto run = [](const std::string& args) { return test::shell(test::wormcast_bin() + " " + args); };
  auto o = run("topo show irregular:4x4p8s2");
  INFO(o.text);
  CHECK(o.code == 0);
  CHECK_THAT(o.text, Catch::Contains("4 switches x 4 ports, 8 nodes") && Catch::Contains("deadlock-free"));
  o = run("topo export irregular:4x4p8s2 --format yaml");
  CHECK(o.code == 0);
  CHECK_THAT(o.text, Catch::Contains("switches: 4"));
  o = run("topo show mesh:3x3 --routing dor");
  CHECK(o.code == 0);
  CHECK_THAT(o.text, Catch::Contains("mesh:3x3"));
  o = run("topo show ring:8");
  CHECK(o.code == 1);
  CHECK_THAT(o.text, Catch::Contains("unknown kind \"ring\"") && Catch::Contains("hypercube"));
  o = test::shell("{ " + test::wormcast_bin() + " topo show torus:4x4:uni > /dev/full; }");
  CHECK(o.code != 0);
  CHECK_THAT(o.text, Catch::Contains("standard output"));
}
