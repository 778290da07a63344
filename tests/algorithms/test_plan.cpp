// The plan contract of algorithms/plan.h (docs/plan.md): keys and naming,
// golden step counts of the k-binomial family (seed002 Figs. 5, 8, 9), exactly-once coverage by every
// switch-based scheme, the registry, network specs and node lists, and the
// errors that name the option.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <stdexcept>

#include "algorithms/plan.h"
#include "tests/algorithms/plan_fixtures.h"
#include "topologies/networks/network_kind.h"

using namespace wormcast::algo;
using wormcast::topo::NodeId;
using Catch::Matchers::Contains;

namespace {

std::shared_ptr<const PlanNetwork> net(const std::string& spec) { return wormcast::test::plan_net(spec); }

PlanRequest chain_request(long long n, long long m, std::optional<long long> k = std::nullopt) {
  PlanRequest q;
  q.options["set_size"] = std::to_string(n);
  q.options["packets"] = std::to_string(m);
  if (k) q.options["k"] = std::to_string(*k);
  return q;
}

PlanRequest random_request(const std::string& spec, NodeId source, int k, std::uint64_t seed) {
  PlanRequest q;
  q.network = net(spec);
  q.source = source;
  q.destinations = random_destinations(q.network->num_nodes(), source, k, seed);
  return q;
}

using wormcast::test::check_exactly_once;

void check_contract(const MulticastPlan& p) {
  const auto j = p.to_json();
  for (const char* key : {"scheme", "topology", "source", "destinations", "steps", "messages"}) {
    INFO(key);
    CHECK(j.contains(key));
  }
  CHECK(j.begin().key() == "scheme");   // contract keys first, in contract order
  REQUIRE(j.at("messages").size() == p.messages.size());
  for (const auto& m : j.at("messages")) {
    for (const char* key : {"sender", "step", "destinations", "path"}) {
      INFO(key);
      CHECK(m.contains(key));
    }
    CHECK(m.at("step").get<int>() >= 1);
    CHECK(m.at("step").get<int>() <= p.steps);
  }
}

void require_error(const std::string& scheme, const PlanRequest& q, const std::string& text) {
  INFO(scheme << " should fail with: " << text);
  CHECK_THROWS_WITH(plan_multicast(scheme, q), Contains(text));
}

}  // namespace

TEST_CASE("k-binomial family: golden steps of seed002 Figs. 5, 8, 9", "[plan]") {
  CHECK(plan_multicast("binomial", chain_request(4, 3)).steps == 6);
  CHECK(plan_multicast("linear", chain_request(4, 3)).steps == 5);
  CHECK(plan_multicast("binomial", chain_request(8, 3)).steps == 9);
  const MulticastPlan p = plan_multicast("kbinomial", chain_request(16, 1, 3));
  CHECK(p.steps == 5);
  CHECK(p.extras.at("sends_per_step") == std::vector<int>{1, 2, 4, 7, 1});
  CHECK(p.extras.at("k") == 3);
  CHECK(p.extras.at("set_size") == 16);
  CHECK(p.extras.at("packets") == 1);
  CHECK(p.messages.size() == 15);
  check_contract(p);
  CHECK(p.to_json().at("topology").is_null());
}

TEST_CASE("k-binomial family: tree edges as messages, chain positions without a network", "[plan]") {
  const MulticastPlan p = plan_multicast("binomial", chain_request(8, 3));
  CHECK(p.source == 0);
  CHECK(p.destinations == std::vector<NodeId>{1, 2, 3, 4, 5, 6, 7});
  check_exactly_once(p);
  std::map<NodeId, int> received{{0, 0}};
  for (const PlanMessage& m : p.messages) {
    REQUIRE(received.count(m.sender));         // messages come in step order
    CHECK(received[m.sender] < m.step);        // the sender holds packet 1 first
    received[m.destinations.front()] = m.step;
    CHECK(m.extras.at("packet_steps").size() == 3);
    CHECK(m.path.empty());
  }
  // Sends per step over all packets add up to (n-1) * m copies.
  int copies = 0;
  for (int s : p.extras.at("sends_per_step")) copies += s;
  CHECK(copies == 7 * 3);
}

TEST_CASE("kbinomial: optimal k with ties to the largest k by default", "[plan]") {
  const MulticastPlan p = plan_multicast("kbinomial", chain_request(16, 1));
  CHECK(p.extras.at("k") == 4);   // m = 1: k = ceil(log2 16) (seed002 §5.1)
  CHECK(p.steps == 4);
  PlanRequest q = chain_request(16, 1);
  q.options["tie_break"] = "smallest";
  CHECK(plan_multicast("kbinomial", q).steps == 4);
  CHECK(plan_multicast("kbinomial", q).extras.at("k") <= 4);
}

TEST_CASE("k-binomial family on networks: the ordering is listed, nodes are named", "[plan]") {
  const PlanRequest q = random_request("irregular:8x8p32s1", 4, 10, 7);
  for (const char* scheme : {"kbinomial", "binomial", "linear"}) {
    const MulticastPlan p = plan_multicast(scheme, q);
    INFO(scheme);
    check_contract(p);
    check_exactly_once(p);
    CHECK(p.extras.at("ordering") == "cco-approx");
    CHECK(p.extras.at("chain").size() == 11);
    CHECK(p.extras.at("chain").front() == 4);
    for (const PlanMessage& m : p.messages) CHECK_FALSE(m.path.empty());   // routed over up*/down*
  }
  PlanRequest d;
  d.network = net("torus:6x6:uni");
  d.destinations = parse_node_list(*d.network, "(1,2),(5,5),(0,3)", 0, "--dests");
  const auto j = plan_multicast("binomial", d).to_json();
  CHECK(j.at("source") == "(0,0)");
  CHECK(j.at("destinations") == nlohmann::ordered_json{"(1,2)", "(5,5)", "(0,3)"});
  CHECK(j.at("ordering") == "given");
  CHECK(j.at("messages").at(0).at("path").front() == "(0,0)");
}

TEST_CASE("switch schemes: contract, exactly-once delivery, phases, header bits", "[plan]") {
  for (const char* spec : {"irregular:8x8p32s1", "irregular:16x8p64s3", "irregular:4x16p32s2c1"})
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      const PlanRequest q = random_request(spec, 3, 10, seed);
      for (const char* scheme : {"path-lg", "path-greedy", "ssr", "tree"}) {
        INFO(spec << " seed " << seed << " " << scheme);
        const MulticastPlan p = plan_multicast(scheme, q);
        check_contract(p);
        check_exactly_once(p);
        for (const PlanMessage& m : p.messages) {
          CHECK_FALSE(m.path.empty());
          CHECK(m.path.front().rfind("sw", 0) == 0);
        }
        const auto bits_of = [](const nlohmann::json& x) { return x.at("header").get<std::string>().size(); };
        if (std::string(scheme) == "tree") {
          CHECK(p.steps == 1);
          CHECK(p.messages.size() == 1);
          CHECK(p.extras.at("header_bits") == q.network->num_nodes() + 1);
          CHECK(bits_of(p.extras) == q.network->num_nodes() + 1u);
          CHECK(p.extras.at("branches").size() >= q.destinations.size());
        } else {
          for (const PlanMessage& m : p.messages) CHECK(m.extras.at("header_bits") == bits_of(m.extras));
        }
      }
    }
}

TEST_CASE("ssr: header of the switch-ID variant is 1 + ceil(log2 S) + p bits", "[plan]") {
  PlanRequest q = random_request("irregular:8x8p32s1", 0, 10, 1);
  const MulticastPlan p = plan_multicast("ssr", q);
  for (const PlanMessage& m : p.messages) CHECK(m.extras.at("header_bits") == 1 + 3 + 8);
  CHECK(p.extras.at("scheduler") == "lg");
  q.options["scheduler"] = "greedy";
  q.options["id"] = "node";
  const MulticastPlan g = plan_multicast("ssr", q);
  for (const PlanMessage& m : g.messages) CHECK(m.extras.at("header_bits") == 1 + 5 + 8);
  CHECK(g.extras.at("scheduler") == "greedy");
  CHECK(g.steps <= p.steps);
}

TEST_CASE("registry: unknown scheme, options a scheme does not take, one-line registration", "[plan]") {
  CHECK_THROWS_WITH(plan_multicast("nosuch", chain_request(4, 1)),
                    Contains("unknown scheme 'nosuch'") && Contains("kbinomial") && Contains("tree") &&
                        Contains("wsort"));
  require_error("binomial", chain_request(4, 1, 2), "--k does not apply to scheme 'binomial'");
  PlanRequest q = random_request("irregular:8x8p32s1", 0, 5, 1);
  q.options["packets"] = "2";
  require_error("ssr", q, "--packets does not apply to scheme 'ssr'");
  q.options = {};
  q.options["scheduler"] = "greedy";
  require_error("path-lg", q, "--scheduler does not apply");

  SchemeRegistry r;
  register_builtin_schemes(r);
  CHECK_THROWS_AS(register_kbinomial_schemes(r), std::logic_error);
  r.add({"unicasts", "one unicast per destination", {},
         [](const PlanRequest& req) {
           MulticastPlan p;
           p.source = req.source.value_or(0);
           p.destinations = req.destinations;
           p.steps = static_cast<int>(req.destinations.size());
           for (std::size_t i = 0; i < req.destinations.size(); ++i)
             p.messages.push_back({p.source, static_cast<int>(i) + 1, {req.destinations[i]}, {}, {}});
           return p;
         }});
  const MulticastPlan u = plan_multicast("unicasts", random_request("irregular:8x8p32s1", 0, 5, 1), r);
  CHECK(u.scheme == "unicasts");
  CHECK(u.topology == "irregular:8x8p32s1");
  check_exactly_once(u);
}

TEST_CASE("bad scheme options name the option", "[plan]") {
  require_error("kbinomial", chain_request(16, 1, 0), "--k must be at least 1");
  require_error("kbinomial", chain_request(16, 0), "--packets must be at least 1");
  require_error("binomial", chain_request(1, 1), "--set-size must be at least 2");
  require_error("linear", PlanRequest{}, "--set-size is required");
  PlanRequest q = chain_request(8, 1);
  q.options["construction"] = "backwards";
  require_error("binomial", q, "--construction: 'backwards' is not one of time-ordered, literal");
  q = chain_request(8, 1, 2);
  q.options["tie_break"] = "largest";
  require_error("kbinomial", q, "--tie-break applies only when --k is not given");

  PlanRequest t = random_request("torus:6x6:uni", 0, 4, 1);
  require_error("ssr", t, "needs an irregular switch network");
  require_error("tree", t, "torus:6x6:uni is a direct network");
  require_error("path-lg", PlanRequest{}, "no --topology given");
  t.options["ordering"] = "cco";
  require_error("kbinomial", t, "--ordering cco needs an irregular switch network");

  PlanRequest e;
  e.network = net("irregular:8x8p32s1");
  require_error("ssr", e, "--dests: the destination set is empty");
  require_error("kbinomial", e, "--dests: the destination set is empty");
  e.destinations = {3, 3};
  require_error("tree", e, "--dests: node 3 is listed twice");
  e.destinations = {0};
  require_error("tree", e, "--dests: node 0 is the source");
  e.destinations = {32};
  require_error("tree", e, "--dests: node 32 is not a node of irregular:8x8p32s1");
  e.destinations = {1, 2};
  e.options["set_size"] = "4";
  require_error("binomial", e, "--set-size 4 does not match the 2 destinations");
}

TEST_CASE("network specs: irregular, direct, files, errors", "[plan]") {
  const auto p = parse_irregular_spec("irregular:16x8p64s3c0.6");
  CHECK(p.switches == 16);
  CHECK(p.ports == 8);
  CHECK(p.nodes == 64);
  CHECK(p.seed == 3);
  CHECK(p.connectivity == Approx(0.6));
  CHECK(irregular_spec(p) == "irregular:16x8p64s3c0.6");
  CHECK(wormcast::topo::resolve_network_spec("irregular:8x8p32").spec == "irregular:8x8p32s1");
  CHECK_THROWS_WITH(parse_irregular_spec("irregular:8p32"), Contains("expected irregular:SxPpN"));
  const PlanNetwork f = wormcast::topo::resolve_network_spec("ibft:8,3");
  CHECK(f.kind == NetworkClass::fat_tree);
  CHECK(f.num_nodes() == 128);
  CHECK(f.describe() == "InfiniBand fat tree ibft:8,3");
  CHECK(f.node_json(f.parse_node("P(201)", "--source")) == "P(201)");
  CHECK_THROWS_WITH(f.parse_node("P(901)", "--dests"), Contains("--dests") && Contains("P(901)"));
  CHECK_THROWS_WITH(wormcast::topo::resolve_network_spec("ibft:8"), Contains("expected ibft:M,N"));
  CHECK_THROWS_WITH(wormcast::topo::resolve_network_spec("ibft:7,3"), Contains("ibft:7,3"));
  CHECK_THROWS_WITH(wormcast::topo::resolve_network_spec("ring:8"), Contains("unknown kind \"ring\""));
  CHECK_THROWS_WITH(wormcast::topo::resolve_network_spec("torus:6x6"), Contains("torus:6x6"));

  const PlanNetwork h = wormcast::topo::resolve_network_spec("hypercube:4");
  CHECK(h.kind == NetworkClass::direct);
  CHECK(h.node_json(11) == "1011");
  CHECK(h.parse_node("1011", "--source") == 11);
  const PlanNetwork m = wormcast::topo::resolve_network_spec("mesh:8x8");
  CHECK(m.node_text(m.parse_node("(4,3)", "--source")) == "(4,3)");
  CHECK_THROWS_WITH(m.parse_node("(9,0)", "--dests"), Contains("--dests") && Contains("(9,0)"));
  const PlanNetwork i = wormcast::topo::resolve_network_spec("irregular:8x8p32s1");
  CHECK(i.node_json(5) == 5);
  CHECK_THROWS_WITH(i.parse_node("x", "--source"), Contains("--source: \"x\" is not a node") && Contains("0..31"));
}

TEST_CASE("node lists and random destinations", "[plan]") {
  const PlanNetwork t = wormcast::topo::resolve_network_spec("torus:4x4:bi");
  CHECK(parse_node_list(t, "(0,1), (2,3),(3,3)", 0, "--dests") ==
        std::vector<NodeId>{t.parse_node("(0,1)", ""), t.parse_node("(2,3)", ""), t.parse_node("(3,3)", "")});
  CHECK_THROWS_WITH(parse_node_list(t, "(0,1),(0,1)", 0, "--dests"), Contains("listed twice"));
  CHECK_THROWS_WITH(parse_node_list(t, "(0,0)", 0, "--dests"), Contains("is the source"));
  CHECK_THROWS_WITH(parse_node_list(t, "", 0, "--dests"), Contains("empty"));

  const auto a = random_destinations(32, 5, 10, 42);
  CHECK(a == random_destinations(32, 5, 10, 42));
  CHECK(a != random_destinations(32, 5, 10, 43));
  CHECK(std::set<NodeId>(a.begin(), a.end()).size() == 10);
  CHECK(std::find(a.begin(), a.end(), 5) == a.end());
  CHECK(random_destinations(4, 1, 3, 1).size() == 3);
  CHECK_THROWS_WITH(random_destinations(32, 0, 0, 1), Contains("must not be empty"));
  CHECK_THROWS_WITH(random_destinations(32, 0, 32, 1), Contains("only 31 nodes"));
}

TEST_CASE("text output names the scheme, the steps and every message", "[plan]") {
  const std::string s = plan_multicast("kbinomial", chain_request(16, 1, 3)).to_text();
  CHECK_THAT(s, Contains("scheme kbinomial") && Contains("steps: 5") && Contains("sends_per_step: 1 2 4 7 1") &&
                    Contains("step 5: 3 -> 4"));
}

TEST_CASE("k-binomial family: time-ordered FPFS plans meet Theorem 2 exactly", "[plan]") {
  for (long long n = 2; n <= 40; ++n)
    for (long long m = 1; m <= 4; ++m) {
      const long long max_k = plan_multicast("binomial", chain_request(n, 1)).extras.at("k");
      for (long long k = 1; k <= max_k; ++k) {
        INFO("n " << n << " m " << m << " k " << k);
        const MulticastPlan p = plan_multicast("kbinomial", chain_request(n, m, k));
        CHECK(p.steps == p.extras.at("theorem2_steps"));
        CHECK(p.messages.size() == static_cast<std::size_t>(n - 1));
      }
    }
}
