// The seed001 schemes in the plan contract (algorithms/plan_direct.cpp),
// with seed004's SCI schemes and seed003's fat-tree schemes (plan_ib.cpp) at
// the end:
// the thesis's worked examples through plan_multicast (hypercube Figs. 3.6
// and 3.9, the U-torus examples of Ch. 4, the ℋ-cycle of Figs. 5.1/5.7 and
// §7.5's M_d phase 1), exactly-once coverage and routed paths on random
// sets, and errors naming the option or the network.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <memory>
#include <stdexcept>

#include "algorithms/plan.h"
#include "tests/algorithms/plan_fixtures.h"

using namespace wormcast::algo;
using wormcast::topo::NodeId;
using Catch::Matchers::Contains;

namespace {

std::shared_ptr<const PlanNetwork> net(const std::string& spec) { return wormcast::test::plan_net(spec); }

PlanRequest request(const std::string& spec, const std::string& source, const std::string& dests) {
  PlanRequest q;
  q.network = net(spec);
  q.source = q.network->parse_node(source, "--source");
  q.destinations = parse_node_list(*q.network, dests, *q.source, "--dests");
  return q;
}

std::vector<std::string> names(const PlanRequest& q, const std::vector<NodeId>& nodes) {
  std::vector<std::string> out;
  for (NodeId n : nodes) out.push_back(q.network->node_text(n));
  return out;
}

using wormcast::test::check_exactly_once;

// Each message's path starts at its sender, passes its destinations in
// order and ends at the last; steps lie in 1..steps; link_visits adds up.
void check_messages(const MulticastPlan& p) {
  int links = 0;
  for (const PlanMessage& m : p.messages) {
    CHECK(m.step >= 1);
    CHECK(m.step <= p.steps);
    REQUIRE_FALSE(m.path.empty());
    CHECK(m.path.front() == p.node_text(m.sender));
    CHECK(m.path.back() == p.node_text(m.destinations.back()));
    std::size_t at = 0;
    for (NodeId d : m.destinations) {
      while (at < m.path.size() && m.path[at] != p.node_text(d)) ++at;
      CHECK(at < m.path.size());
    }
    links += static_cast<int>(m.path.size()) - 1;
  }
  CHECK(p.extras.at("link_visits") == links);
}

}  // namespace

TEST_CASE("hypercube schemes: Fig. 3.9 steps and the W-sort chain, Fig. 3.6", "[plan][seed001]") {
  // Fig. 3.9: D = {0,1,3,5,7,11,12,14,15} in a 4-cube from 0: U-cube 4,
  // Maxport 4, W-sort 2 steps (all-port); W-sort's chain {0,1,3,5,7,14,15,12,11}.
  const PlanRequest q = request("hypercube:4", "0000", "0001,0011,0101,0111,1011,1100,1110,1111");
  CHECK(plan_multicast("ucube", q).steps == 4);
  CHECK(plan_multicast("maxport", q).steps == 4);
  const MulticastPlan w = plan_multicast("wsort", q);
  CHECK(w.steps == 2);
  CHECK(w.extras.at("chain") ==
        std::vector<std::string>{"0000", "0001", "0011", "0101", "0111", "1110", "1111", "1100", "1011"});
  CHECK(w.extras.at("port_model") == "all");
  // Fig. 3.6: 0000 to {1001, 1010, 1011}: Maxport 3 steps, U-cube 2.
  const PlanRequest q6 = request("hypercube:4", "0000", "1001,1010,1011");
  CHECK(plan_multicast("maxport", q6).steps == 3);
  CHECK(plan_multicast("ucube", q6).steps == 2);
}

TEST_CASE("hypercube schemes: exactly once, E-cube paths, one-port U-cube in ceil(log2(m+1)) steps",
          "[plan][seed001]") {
  for (std::uint64_t seed = 1; seed <= 5; ++seed)
    for (int k : {1, 5, 20, 63}) {
      PlanRequest q;
      q.network = net("hypercube:6");
      q.source = static_cast<NodeId>(seed * 7 % 64);
      q.destinations = random_destinations(64, *q.source, k, seed);
      for (const char* scheme : {"ucube", "maxport", "combine", "wsort"}) {
        INFO(scheme << " seed " << seed << " k " << k);
        const MulticastPlan p = plan_multicast(scheme, q);
        check_exactly_once(p);
        check_messages(p);
        for (const PlanMessage& m : p.messages) {
          // E-cube: the first hop flips the highest differing bit (the message's dimension).
          const int dim = m.extras.at("dimension");
          CHECK((m.sender ^ m.destinations.front()) >> dim == 1);
          CHECK(m.path.size() == static_cast<std::size_t>(__builtin_popcount(m.sender ^ m.destinations.front())) + 1);
        }
      }
      q.options["port_model"] = "one";
      CHECK(plan_multicast("ucube", q).steps == static_cast<int>(std::ceil(std::log2(k + 1.0))));
    }
}

TEST_CASE("utorus: the R-chain example of Ch. 4 in 4 steps, Fig. 4.5 in 3", "[plan][seed001]") {
  const PlanRequest q = request("torus:10x10x10:uni", "(8,4,5)",
                                "(4,9,3),(1,9,7),(1,0,2),(8,5,4),(4,8,9),(9,0,5),(3,5,5),(9,0,1),(8,0,5),(1,6,4)");
  const MulticastPlan p = plan_multicast("utorus", q);
  CHECK(p.steps == 4);   // ceil(log2 11)
  CHECK(p.extras.at("chain") == std::vector<std::string>{"(8,4,5)", "(8,5,4)", "(9,0,1)", "(9,0,5)", "(1,0,2)",
                                                         "(1,6,4)", "(1,9,7)", "(3,5,5)", "(4,8,9)", "(4,9,3)",
                                                         "(8,0,5)"});
  CHECK(p.extras.at("routing") == "utr");
  check_exactly_once(p);
  check_messages(p);
  // Figs. 4.4/4.5 (5x5, source (4,3)): U-torus takes 3 steps, on either torus.
  for (const char* spec : {"torus:5x5:uni", "torus:5x5:bi"}) {
    const MulticastPlan f = plan_multicast("utorus", request(spec, "(4,3)", "(0,0),(1,1),(2,1),(0,3),(1,3),(4,4)"));
    CHECK(f.steps == 3);
    check_exactly_once(f);
    check_messages(f);
    // The step model with link sharing: never below the plan's own steps.
    CHECK(f.extras.at("shared_steps").get<int>() >= f.steps);
    CHECK(f.extras.at("shared_mean_step").get<double>() >= f.extras.at("mean_step").get<double>());
    CHECK(f.extras.contains("shared_steps_3way") == (std::string(spec) == "torus:5x5:bi"));
  }
}

TEST_CASE("path-based torus schemes: the H-cycle of Figs. 5.1/5.7, S-torus, M_d phase 1 of §7.5, M_u",
          "[plan][seed001]") {
  const PlanRequest q =
      request("torus:6x6:uni", "(3,2)", "(0,5),(4,5),(3,4),(5,4),(4,3),(1,2),(2,1),(5,1),(1,0)");
  const std::vector<std::string> cycle = {"(3,2)", "(4,3)", "(4,5)", "(5,1)", "(5,4)",
                                          "(0,5)", "(1,0)", "(1,2)", "(2,1)", "(3,4)"};
  const MulticastPlan s = plan_multicast("storus", q);
  CHECK(s.steps == 1);
  REQUIRE(s.messages.size() == 1);
  CHECK(names(q, s.messages[0].destinations) == std::vector<std::string>(cycle.begin() + 1, cycle.end()));
  CHECK(s.extras.at("cycle") == cycle);
  // A plain worm of the compound format: 2 flits per destination and the terminator (compound_header.h).
  CHECK(s.messages[0].extras.at("header_flits") == 2 * 9 + 1);
  check_messages(s);

  const MulticastPlan d = plan_multicast("mdtorus", q);
  CHECK(d.steps == 2);   // n phases
  REQUIRE_FALSE(d.messages.empty());
  CHECK(d.messages[0].step == 1);
  CHECK(names(q, d.messages[0].destinations) ==
        std::vector<std::string>{"(4,3)", "(5,1)", "(0,5)", "(1,0)", "(2,1)", "(3,4)"});
  check_exactly_once(d);
  check_messages(d);

  PlanRequest u = q;
  u.options["r"] = "2";   // the unicast-based scheme of Sec. 6.6: ceil(log2 10) phases, one destination per message
  const MulticastPlan m2 = plan_multicast("mutorus", u);
  CHECK(m2.steps == 4);
  for (const PlanMessage& m : m2.messages) CHECK(m.destinations.size() == 1);
  check_exactly_once(m2);
  check_messages(m2);
  u.options["r"] = "3";
  CHECK(plan_multicast("mutorus", u).steps == 3);   // ceil(log3 10)
  CHECK(plan_multicast("mutorus", u).extras.at("r") == 3);
}

TEST_CASE("direct schemes: wrong network, missing or bad options name the problem", "[plan][seed001]") {
  const PlanRequest torus = request("torus:6x6:uni", "(0,0)", "(1,1)");
  CHECK_THROWS_WITH(plan_multicast("ucube", torus), Contains("needs a hypercube") && Contains("torus:6x6:uni"));
  CHECK_THROWS_WITH(plan_multicast("utorus", request("mesh:4x4", "(0,0)", "(1,1)")), Contains("needs a torus"));
  CHECK_THROWS_WITH(plan_multicast("storus", request("torus:6x6:bi", "(0,0)", "(1,1)")),
                    Contains("regular unidirectional torus"));
  CHECK_THROWS_WITH(plan_multicast("mdtorus", request("torus:4x6:uni", "(0,0)", "(1,1)")),
                    Contains("regular unidirectional torus"));
  CHECK_THROWS_WITH(plan_multicast("mutorus", torus), Contains("needs --r"));
  PlanRequest r1 = torus;
  r1.options["r"] = "1";
  CHECK_THROWS_WITH(plan_multicast("mutorus", r1), Contains("--r must be at least 2"));
  CHECK_THROWS_WITH(plan_multicast("ucube", r1), Contains("--r does not apply to scheme 'ucube'"));
  PlanRequest cube = request("hypercube:3", "000", "111");
  cube.options["port_model"] = "two";
  CHECK_THROWS_WITH(plan_multicast("wsort", cube), Contains("--port-model: 'two' is not one of all, one"));
  cube.options.clear();
  cube.options["step_model"] = "fifo";
  CHECK_THROWS_WITH(plan_multicast("combine", cube), Contains("--step-model: 'fifo'"));
  PlanRequest empty;
  empty.network = net("hypercube:3");
  CHECK_THROWS_WITH(plan_multicast("maxport", empty), Contains("the destination set is empty"));
}

TEST_CASE("sci schemes: seed004 Fig. 1 in the plan contract", "[plan][seed004]") {
  // The paper's root (2,2) and destinations, 1-based (row, col), are the network's (1,1) etc.
  const PlanRequest q = request("torus:4x4:uni", "(1,1)", "(0,0),(0,1),(0,2),(1,3),(2,0),(2,2),(3,0),(3,1),(3,3)");
  const MulticastPlan u = plan_multicast("sci-utorus", q);
  CHECK(u.steps == 4);
  CHECK(u.extras.at("order") == std::vector<std::string>{"(1,1)", "(1,3)", "(2,0)", "(2,2)", "(3,0)", "(3,1)",
                                                          "(3,3)", "(0,0)", "(0,1)", "(0,2)"});
  CHECK(u.extras.at("routing") == "utr ascending");
  // Fig. 1's first unicast (2,2) -> (4,2): same column, so Y hops only.
  CHECK(u.messages.at(0).path == std::vector<std::string>{"(1,1)", "(2,1)", "(3,1)"});
  const MulticastPlan d = plan_multicast("sci-mdtorus", q);
  CHECK(d.extras.at("phases") == 2);
  CHECK(d.extras.at("root_targets") == 4);   // three row heads and its own row's next node
  // Route of (2,2) -> (3,1) (paper): X from col 2 round the ringlet to col 1 (3 hops), then one Y hop.
  CHECK(d.messages.at(0).path == std::vector<std::string>{"(1,1)", "(1,2)", "(1,3)", "(1,0)", "(2,0)"});
  for (const char* s : {"sci-separate", "sci-utorus", "sci-storus", "sci-mdtorus", "sci-mutorus"}) {
    INFO(s);
    const MulticastPlan p = plan_multicast(s, q);
    check_exactly_once(p);
    check_messages(p);
    CHECK(p.extras.at("used_links").get<int>() <= p.extras.at("link_visits").get<int>());
    CHECK(p.extras.at("link_utilization").get<double>() ==
          Approx(p.extras.at("link_visits").get<double>() / p.extras.at("used_links").get<double>()));
  }
  CHECK(plan_multicast("sci-mutorus", q).extras.at("r") == 4);
  PlanRequest r2 = q;
  r2.options["r"] = "2";
  CHECK(plan_multicast("sci-mutorus", r2).extras.at("phases") == 4);   // ceil(log2 10)
  CHECK_THROWS_WITH(plan_multicast("sci-storus", request("mesh:4x4", "(0,0)", "(1,1)")), Contains("needs a torus"));
  CHECK_THROWS_WITH(plan_multicast("sci-storus", request("torus:4x8:uni", "(0,0)", "(1,1)")),
                    Contains("regular k-ary torus"));
  r2.options["r"] = "1";
  CHECK_THROWS_WITH(plan_multicast("sci-mutorus", r2), Contains("--r must be at least 2"));
  CHECK_THROWS_WITH(plan_multicast("sci-utorus", r2), Contains("--r does not apply"));
}

TEST_CASE("ib schemes: seed003 Fig. 7 in the plan contract", "[plan][seed003]") {
  PlanRequest q;
  q.network = net("ibft:4,3");
  q.source = q.network->parse_node("P(000)", "--source");
  q.destinations = parse_node_list(*q.network, "P(200),P(201),P(210),P(211)", *q.source, "--dests");
  const MulticastPlan c = plan_multicast("ib-cyclic", q);
  CHECK(c.steps == 1);
  REQUIRE(c.messages.size() == 1);
  // Fig. 7: the DLIDs and the output-port sets of the six switches.
  CHECK(c.messages[0].extras.at("dlids") ==
        nlohmann::json{{"P(200)", 33}, {"P(201)", 37}, {"P(210)", 41}, {"P(211)", 45}});
  CHECK(c.extras.at("mft") == nlohmann::json{{"SW<00,2>", {3}}, {"SW<00,1>", {3}}, {"SW<00,0>", {3}},
                                             {"SW<20,1>", {1, 2}}, {"SW<20,2>", {1, 2}}, {"SW<21,2>", {1, 2}}});
  CHECK(c.messages[0].path ==
        std::vector<std::string>{"SW<00,2>", "SW<00,1>", "SW<00,0>", "SW<20,1>", "SW<20,2>", "SW<21,2>"});
  // Links: the injection link, SW<00,2>-SW<00,1>-SW<00,0>-SW<20,1>, SW<20,1> to both leaf switches, 4 ejections: 10.
  CHECK(c.extras.at("link_traversals") == 10);
  // One source: OpenSM's tree reaches the group over as many links (spec §12: cyclic = OpenSM one-to-many).
  const MulticastPlan o = plan_multicast("ib-opensm", q);
  CHECK(o.extras.at("link_traversals") == 10);
  CHECK(o.extras.at("root") == "SW<00,0>");
  // Unicast: four packets, path Q first (§6), 5 switches each.
  const MulticastPlan u = plan_multicast("ib-unicast", q);
  CHECK(u.steps == 4);
  REQUIRE(u.messages.size() == 4);
  CHECK(u.messages[0].path == std::vector<std::string>{"SW<00,2>", "SW<00,1>", "SW<00,0>", "SW<20,1>", "SW<20,2>"});
  CHECK(u.messages[0].extras.at("dlid") == 33);
  CHECK(u.extras.at("link_traversals") == 4 * 6);
  check_exactly_once(c);
  check_exactly_once(u);
  CHECK_THROWS_WITH(plan_multicast("ib-cyclic", request("torus:4x4:uni", "(0,0)", "(1,1)")),
                    Contains("needs a fat tree"));
  PlanRequest r = q;
  r.options["r"] = "3";
  CHECK_THROWS_WITH(plan_multicast("ib-opensm", r), Contains("--r does not apply"));
}
