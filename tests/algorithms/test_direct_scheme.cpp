// The direct schemes as records (algorithms/direct_scheme.h): the
// separate-addressing baseline of seed001 (algorithms/separate_addressing.cpp)
// against values worked out by hand from its definition, and for every
// registered scheme the properties the workload relies on: its local rule,
// unrolled from the source's part, sends exactly the messages of its trial
// plan and reaches every destination once; its network needs are refused
// with the key; its options are its own.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <set>

#include "algorithms/direct_scheme.h"
#include "tests/algorithms/plan_fixtures.h"
#include "topologies/networks/network_kind.h"

using namespace wormcast::algo;
using wormcast::topo::NodeId;
using Catch::Matchers::Contains;

namespace {

PlanRequest request(const std::string& spec, const std::string& source, const std::string& dests) {
  PlanRequest q;
  q.network = wormcast::test::plan_net(spec);
  q.source = q.network->parse_node(source, "--source");
  q.destinations = parse_node_list(*q.network, dests, *q.source, "--dests");
  return q;
}

std::vector<std::string> names(const MulticastPlan& p, const std::vector<NodeId>& nodes) {
  std::vector<std::string> out;
  for (NodeId n : nodes) out.push_back(p.node_text(n));
  return out;
}

}  // namespace

// By hand, torus:4x4:uni, node (σ1,σ0) = 4σ1 + σ0, UTR in descending
// dimension order (σ1 first, then σ0), each only in the + direction, so a
// hop count per dimension is (to - from) mod 4. Source (1,1) = 5 and
// destinations (0,0) = 0, (1,3) = 7, (2,2) = 10, (3,0) = 12: the R-chain
// sorts by number and rotates to the source: 5, 7, 10, 12, 0. Separate
// addressing: four unicasts, all from the source, one per step:
//   step 1 (1,1)->(1,3): σ0 +2                 (1,1) (1,2) (1,3)
//   step 2 (1,1)->(2,2): σ1 +1, σ0 +1           (1,1) (2,1) (2,2)
//   step 3 (1,1)->(3,0): σ1 +2, σ0 +3           (1,1) (2,1) (3,1) (3,2) (3,3) (3,0)
//   step 4 (1,1)->(0,0): σ1 +3, σ0 +3           (1,1) (2,1) (3,1) (0,1) (0,2) (0,3) (0,0)
// Links crossed 2 + 2 + 5 + 6 = 15; distinct: (1,1)->(2,1) is used three
// times and (2,1)->(3,1) twice, so 15 - 2 - 1 = 12; utilization 15/12.
TEST_CASE("separate: seed001 separate addressing on a unidirectional torus, by hand", "[plan][seed001][golden]") {
  const PlanRequest q = request("torus:4x4:uni", "(1,1)", "(0,0),(1,3),(2,2),(3,0)");
  const MulticastPlan p = plan_multicast("separate", q);
  CHECK(p.scheme == "separate");
  CHECK(p.steps == 4);   // = the number of destinations
  REQUIRE(p.messages.size() == 4);
  const std::vector<std::string> to = {"(1,3)", "(2,2)", "(3,0)", "(0,0)"};
  const std::vector<std::vector<std::string>> paths = {
      {"(1,1)", "(1,2)", "(1,3)"},
      {"(1,1)", "(2,1)", "(2,2)"},
      {"(1,1)", "(2,1)", "(3,1)", "(3,2)", "(3,3)", "(3,0)"},
      {"(1,1)", "(2,1)", "(3,1)", "(0,1)", "(0,2)", "(0,3)", "(0,0)"}};
  for (std::size_t i = 0; i < 4; ++i) {
    INFO("message " << i + 1);
    const PlanMessage& m = p.messages[i];
    CHECK(p.node_text(m.sender) == "(1,1)");
    CHECK(m.step == static_cast<int>(i) + 1);
    CHECK(names(p, m.destinations) == std::vector<std::string>{to[i]});
    CHECK(m.path == paths[i]);
  }
  CHECK(p.extras.at("chain") == std::vector<std::string>{"(1,1)", "(1,3)", "(2,2)", "(3,0)", "(0,0)"});
  CHECK(p.extras.at("routing") == "utr");
  CHECK(p.extras.at("link_visits") == 15);
  CHECK(p.extras.at("used_links") == 12);
  CHECK(p.extras.at("link_utilization").get<double>() == Approx(15.0 / 12.0));
}

// torus:5x5:bi, BTR: each dimension the shorter way round (k = 5: no ties).
// From (0,0): (0,2) is σ0 +2, (3,0) is σ1 -2 (0, 4, 3). Chain (0,0) = 0,
// (0,2) = 2, (3,0) = 15.
TEST_CASE("separate: on a bidirectional torus with BTR, by hand", "[plan][seed001][golden]") {
  const MulticastPlan p = plan_multicast("separate", request("torus:5x5:bi", "(0,0)", "(3,0),(0,2)"));
  CHECK(p.steps == 2);
  REQUIRE(p.messages.size() == 2);
  CHECK(p.messages[0].path == std::vector<std::string>{"(0,0)", "(0,1)", "(0,2)"});
  CHECK(p.messages[1].path == std::vector<std::string>{"(0,0)", "(4,0)", "(3,0)"});
  CHECK(p.extras.at("routing") == "btr");
  CHECK(p.extras.at("link_visits") == 4);
  CHECK(p.extras.at("used_links") == 4);
}

TEST_CASE("separate: m destinations take m messages and m steps, all from the source", "[plan][seed001]") {
  for (int k : {1, 7, 30, 63}) {
    PlanRequest q;
    q.network = wormcast::test::plan_net("torus:8x8:uni");
    q.source = 9;
    q.destinations = random_destinations(64, 9, k, static_cast<std::uint64_t>(k));
    const MulticastPlan p = plan_multicast("separate", q);
    CHECK(p.steps == k);
    CHECK(p.messages.size() == static_cast<std::size_t>(k));
    for (const PlanMessage& m : p.messages) CHECK(m.sender == 9);
    wormcast::test::check_exactly_once(p);
  }
}

TEST_CASE("separate: the wrong network or an option is refused with the key", "[plan][seed001]") {
  CHECK_THROWS_WITH(plan_multicast("separate", request("hypercube:3", "000", "111")),
                    Contains("scheme 'separate' needs a torus") && Contains("--topology") &&
                        Contains("hypercube:3 is not one"));
  PlanRequest q = request("torus:4x4:uni", "(0,0)", "(1,1)");
  q.options["r"] = "2";
  CHECK_THROWS_WITH(plan_multicast("separate", q), Contains("--r does not apply to scheme 'separate'"));
  // An experiment's spelling: the routing it must configure.
  const std::unique_ptr<DirectScheme> s = direct_schemes().make("separate");
  const wormcast::topo::DirectTopology cube = *wormcast::topo::resolve_network_spec("hypercube:3").direct;
  const wormcast::topo::DirectRouting ecube(cube, wormcast::topo::RoutingAlgorithm::ecube);
  CHECK_THROWS_WITH(require_network(*s, experiment_keys("separate"), &cube, &ecube),
                    Contains("traffic.scheme separate needs a torus with routing.function utr or btr"));
  const wormcast::topo::DirectTopology torus = *wormcast::topo::resolve_network_spec("torus:4x4:uni").direct;
  const wormcast::topo::DirectRouting utpr(torus, wormcast::topo::RoutingAlgorithm::utpr);
  CHECK_THROWS_WITH(require_network(*s, experiment_keys("separate"), &torus, &utpr),
                    Contains("the network is torus:4x4:uni with routing utpr"));
}

namespace {

// A network the scheme runs on, from its testbench defaults.
struct Fitted {
  std::unique_ptr<DirectScheme> scheme;
  PlanNetwork net;
  wormcast::topo::DirectRouting routing;
};

Fitted fitted(const std::string& name) {
  std::unique_ptr<DirectScheme> s = direct_schemes().make(name);
  const DirectTbDefaults d = s->tb_defaults();
  set_options(*s, d.options, plan_keys(name));
  PlanNetwork net = wormcast::topo::resolve_network_spec(d.topology);
  wormcast::topo::DirectRouting r = s->plan_routing(*net.direct);
  return {std::move(s), std::move(net), std::move(r)};
}

// The local rule run by every node, breadth-first from the source: the
// messages it sends, and how often each node receives.
std::size_t unroll(const DirectScheme& s, const wormcast::topo::DirectRouting& r, NodeId source,
                   const std::vector<NodeId>& dests, std::map<NodeId, int>& got) {
  std::vector<std::vector<NodeId>> todo{s.source_part(r, source, dests)};
  std::size_t messages = 0;
  for (std::size_t i = 0; i < todo.size(); ++i)
    for (const LocalSend& m : s.local_sends(r, todo[i])) {
      ++messages;
      for (const CompoundBlock& b : m.blocks) {
        ++got[b.dest];
        std::vector<NodeId> part{b.dest};
        part.insert(part.end(), b.later.begin(), b.later.end());
        todo.push_back(std::move(part));
      }
    }
  return messages;
}

}  // namespace

TEST_CASE("every direct scheme: its local rule sends its trial plan's messages, each destination once",
          "[plan][seed001][seed004]") {
  for (const auto& e : direct_schemes().entries()) {
    INFO(e.name);
    Fitted f = fitted(e.name);
    CHECK_FALSE(e.description.empty());
    CHECK_FALSE(f.scheme->needs().empty());
    REQUIRE_NOTHROW(require_network(*f.scheme, plan_keys(e.name), &*f.net.direct, &f.routing));
    for (std::uint64_t seed = 1; seed <= 3; ++seed) {
      const NodeId src = static_cast<NodeId>(seed * 5 % static_cast<std::uint64_t>(f.net.num_nodes()));
      const std::vector<NodeId> dests = random_destinations(f.net.num_nodes(), src, 9, seed);
      std::map<NodeId, int> got;
      const std::size_t sent = unroll(*f.scheme, f.routing, src, dests, got);
      const TrialPlan t = f.scheme->trial_plan(f.routing, src, dests);
      CHECK(sent == t.routes.size());
      CHECK(t.metrics.size() == f.scheme->trial_metrics().size());
      CHECK(got.size() == dests.size());
      for (NodeId d : dests) CHECK(got[d] == 1);
      const MulticastPlan p = f.scheme->plan(f.net, f.routing, src, dests);
      CHECK(p.steps == t.steps);
      CHECK(p.messages.size() == t.routes.size());
    }
  }
}

TEST_CASE("direct schemes: the plan registry lists each with the options it declares", "[plan]") {
  for (const auto& e : direct_schemes().entries()) {
    INFO(e.name);
    const SchemeInfo* info = scheme_registry().find(e.name);
    REQUIRE(info != nullptr);
    CHECK(info->description == e.description);
    CHECK(info->option_names() == options_of(*e.make(), plan_keys(e.name)));
  }
  const std::vector<DirectOptionInfo> opts = direct_scheme_options();
  const auto r = std::find_if(opts.begin(), opts.end(), [](const DirectOptionInfo& o) { return o.key == "r"; });
  REQUIRE(r != opts.end());
  CHECK(r->whole_number);
  CHECK_THAT(r->described(), Contains("mutorus: partitions per phase") && Contains("sci-mutorus: nodes per partition"));
  std::unique_ptr<DirectScheme> s = direct_schemes().make("utorus");
  CHECK_THROWS_WITH(set_options(*s, {{"r", "3"}}, experiment_keys("utorus")),
                    Contains("traffic.r applies only to traffic.scheme mutorus, sci-mutorus (scheme is utorus)"));
  std::unique_ptr<DirectScheme> m = direct_schemes().make("mutorus");
  CHECK_THROWS_WITH(set_options(*m, {}, experiment_keys("mutorus")), Contains("needs traffic.r,"));
  CHECK_THROWS_WITH(set_options(*m, {{"r", "1"}}, experiment_keys("mutorus")),
                    Contains("traffic.r must be at least 2 (partitions per phase), got 1"));
}
