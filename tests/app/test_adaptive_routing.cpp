// Adaptive routing in the reference router (routing.function: west_first,
// routing.selection): a header takes the free one of its candidate outputs,
// runs past saturation deliver everything without deadlock, and every
// combination the tool cannot run is refused naming the key to change.
#include <catch2/catch.hpp>

#include <memory>
#include <string>
#include <vector>

#include "rtl_models/core/kernel.h"
#include "testbenches/app/config.h"
#include "testbenches/app/runner.h"
#include "tests/common/runs.h"
#include "topologies/networks/direct_network_kind.h"

using namespace wormcast;
using namespace wormcast::rtl;
using namespace wormcast::tb;

namespace {

// mesh:3x3 by coordinates (x = σ_0 east, y = σ_1 north).
NodeId xy(int x, int y) { return y * 3 + x; }

struct Arrival {
  Cycle at = 0, created = 0;
};

// On a 3x3 mesh with one VC per channel: a long `blocker` from (2,0) to
// (0,2) goes west to (0,0) and takes its north output; 20 cycles later a
// short packet leaves (0,0) for (2,2), whose west-first candidates are
// north (first, dor's order) and east. Returns the short packet's arrival
// (with the blocker: `blocked`; else alone) under `selection` on `impl`.
Arrival short_packet(const char* impl, const char* routing, const char* selection, bool blocked) {
  fresh_kernel();
  SimContext ctx(5000);
  topo::DirectNetworkParams p;
  p.router_impl = impl;
  p.router.buffer_flits = 2;
  auto base = std::make_shared<const topo::DirectRouting>(topo::parse_direct_spec("mesh:3x3"),
                                                          topo::RoutingAlgorithm::dor);
  if (std::string(routing) == "west_first") {
    p.policies.routing = topo::adaptive_routings().make("west_first", base->topology(), base->order());
    base = p.policies.routing->base();
  }
  p.policies.selection = selection;
  topo::DirectNetwork net("net", base, p, ctx);
  Arrival got;
  int delivered = 0;
  for (int n = 0; n < net.num_nodes(); ++n)
    net.endpoint(n).on_receive = [&](const Packet& pk, Cycle now) {
      ++delivered;
      if (pk.length == 4) got = {now, pk.created};
    };
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  const auto send = [&](NodeId src, NodeId dst, int length) {
    auto pk = std::make_shared<Packet>();
    pk->header.dest = dst;
    pk->length = length;
    net.endpoint(src).inject(pk);
  };
  for (Cycle c = 0; c < 400; ++c) {
    if (c == 1 && blocked) send(xy(2, 0), xy(0, 2), 80);
    if (c == 21) send(xy(0, 0), xy(2, 2), 4);
    sc_core::sc_start(ctx.clock.delay(1));
  }
  CHECK(delivered == (blocked ? 2 : 1));
  CHECK(ctx.ledger.outstanding() == 0);
  return got;
}

tb::RunResult run_mesh(std::vector<Override> o) {
  return run_experiment(test::experiment("experiments/direct_mesh_8x8.yaml", o), {});
}

// The error the configuration (the mesh experiment, or `file`) is refused
// with, at loading or at set-up.
std::string refusal(std::vector<Override> o, const char* file = "experiments/direct_mesh_8x8.yaml") {
  try {
    const tb::RunResult r = run_experiment(test::experiment(file, o), {});
    return r.ok ? std::string("(accepted)") : r.error;
  } catch (const std::exception& e) {
    return e.what();
  }
}

}  // namespace

TEST_CASE("west_first: a blocked candidate output is avoided with most_free_vcs", "[adaptive]") {
  // Alone, the short packet's latency is the 4-hop zero-load latency, taken
  // from the fast router with deterministic routing (dor: north, north,
  // east, east): an independent reference for the adaptive runs.
  const Arrival alone = short_packet("fast", "dor", "first", false);
  const Cycle zero_load = alone.at - alone.created;
  CHECK(zero_load > 0);
  // most_free_vcs: north's VC is held by the blocker, so the header goes
  // east, 4 hops of the same zero-load latency.
  const Arrival adaptive = short_packet("reference", "west_first", "most_free_vcs", true);
  CHECK(adaptive.at - adaptive.created == zero_load);
  // first: the header waits for north behind the blocker's 80 flits.
  const Arrival first = short_packet("reference", "west_first", "first", true);
  CHECK(first.at - first.created > zero_load + 40);
}

TEST_CASE("west_first: past saturation every packet is delivered, no deadlock", "[adaptive]") {
  for (const char* pattern : {"uniform", "transpose"})
    for (const char* vcs : {"0", "2"}) {
      INFO(pattern << ", router.vcs " << vcs);
      const tb::RunResult r = run_mesh(test::short_run(
          {{"router.impl", "reference"}, {"routing.function", "west_first"}, {"traffic.pattern", pattern},
           {"traffic.load", "0.6"}, {"router.vcs", vcs}, {"sim.drain_limit", "400000"}}));
      test::check_delivered_exactly_once(r, 1000);
      CHECK(r.json.at("topology").at("routing") == "west_first");
    }
}

TEST_CASE("routing.selection is a key of adaptive functions only", "[adaptive]") {
  // A deterministic function has one candidate: the key would change
  // nothing, and its absence keeps every other configuration as it was.
  CHECK_THAT(refusal({{"routing.selection", "first"}}), Catch::Contains("routing.selection"));
  tb::ExperimentConfig cfg = test::experiment(
      "experiments/direct_mesh_8x8.yaml",
      {{"routing.function", "west_first"}, {"router.impl", "reference"}, {"routing.selection", "first"}});
  tb::JsonParamWriter w;
  cfg.visit(w);
  CHECK(w.out.at("routing").at("selection") == "first");
}

TEST_CASE("adaptive routing: refusals name the key and the alternative", "[adaptive]") {
  CHECK_THAT(refusal({{"routing.function", "west_first"}}),
             Catch::Contains("routing.function: west_first is an adaptive routing") &&
                 Catch::Contains("router.impl: reference"));
  CHECK_THAT(refusal({{"routing.function", "west_first"}, {"router.impl", "reference"}, {"topology.kind", "torus"}}),
             Catch::Contains("routing.function 'west_first'") && Catch::Contains("2-D meshes"));
  CHECK_THAT(refusal({{"routing.function", "west_first"}, {"router.impl", "reference"}, {"topology.dims", "[4, 4, 4]"}}),
             Catch::Contains("2-D meshes") && Catch::Contains("mesh:4x4x4"));
  CHECK_THAT(refusal({{"routing.function", "west_first"}, {"router.impl", "reference"}, {"routing.selection", "random"}}),
             Catch::Contains("routing.selection") && Catch::Contains("most_free_vcs"));
  // The fast router refuses an adaptive function handed to it directly too.
  fresh_kernel();
  SimContext ctx(5000);
  topo::DirectNetworkParams p;
  p.policies.routing =
      topo::adaptive_routings().make("west_first", topo::parse_direct_spec("mesh:3x3"), topo::DimOrder::descending);
  CHECK_THROWS_WITH(topo::DirectNetwork("net", p.policies.routing->base(), p, ctx),
                    Catch::Contains("router.impl: reference"));
}

TEST_CASE("adaptive routing: the direct multicast schemes refuse it", "[adaptive]") {
  const std::string e = refusal({{"topology.kind", "mesh"}, {"topology.dims", "[4, 4]"},
                                 {"routing.function", "west_first"}, {"router.impl", "reference"},
                                 {"node.model", "processor"}, {"traffic.kind", "direct_multicast"},
                                 {"traffic.scheme", "utorus"}, {"sim.warmup", "0"}, {"sim.measure", "1"}},
                                "");
  CHECK_THAT(e, Catch::Contains("routing.function west_first is adaptive") && Catch::Contains("direct_multicast"));
}
