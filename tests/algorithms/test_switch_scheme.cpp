// The switch-based schemes as records (algorithms/switch_scheme.h), each
// checked without being named: on random irregular networks and destination
// sets, its local rule (the worms the source sends, then what every receiver
// relays) sends exactly the worms of its `plan` (sender, destinations, header
// bits), reaches every destination once and never sends to a node twice;
// the records are what `plan` lists; a scheme refuses a direct network.
#include <catch2/catch.hpp>

#include <algorithm>
#include <deque>
#include <map>
#include <random>
#include <set>
#include <tuple>

#include "algorithms/switch_scheme.h"
#include "tests/algorithms/plan_fixtures.h"

using namespace wormcast::algo;
using wormcast::topo::NodeId;

namespace {

// (sender, sorted destinations, header bits as 0/1 text)
using Worm = std::tuple<NodeId, std::vector<NodeId>, std::string>;

std::string bits_text(const std::vector<bool>& b) {
  std::string s;
  for (bool x : b) s += x ? '1' : '0';
  return s;
}

std::vector<NodeId> sorted(std::vector<NodeId> v) {
  std::sort(v.begin(), v.end());
  return v;
}

// Runs the local rule from the source: every worm delivered to d makes d
// call relay_worms with the RelayWorm it carried.
std::vector<Worm> unroll(const SwitchScheme& s, const PlanNetwork& net, NodeId src, const std::vector<NodeId>& dests,
                         std::map<NodeId, int>& received) {
  std::vector<Worm> out;
  std::deque<std::pair<NodeId, WormSend>> pending;
  for (WormSend& w : s.source_worms(*net.topology, *net.routing, SsrId::switch_id, src, dests, 16))
    pending.emplace_back(src, std::move(w));
  while (!pending.empty()) {
    auto [sender, w] = std::move(pending.front());
    pending.pop_front();
    REQUIRE(out.size() < 4 * dests.size() + 4);   // a relay loop would never end
    out.emplace_back(sender, sorted(w.dests), bits_text(w.header_bits));
    for (NodeId d : w.dests) {
      ++received[d];
      for (WormSend& r : s.relay_worms(*net.topology, SsrId::switch_id, w.relay_worm.get(), d, 16))
        pending.emplace_back(d, std::move(r));
    }
  }
  return out;
}

std::vector<Worm> planned(const MulticastPlan& p) {
  std::vector<Worm> out;
  for (const PlanMessage& m : p.messages) {
    const auto& h = m.extras.contains("header") ? m.extras["header"] : p.extras["header"];
    out.emplace_back(m.sender, sorted(m.destinations), h.get<std::string>());
  }
  return out;
}

}  // namespace

TEST_CASE("switch schemes: every record's local rule sends exactly the worms of its plan", "[switchmc][scheme]") {
  std::mt19937_64 rng(20261205);
  for (const std::string& name : switch_schemes().names())
    for (const char* spec : {"irregular:8x8p32s1", "irregular:16x8p64s3", "irregular:12x6p30s7c0.5"}) {
      PlanRequest q;
      q.network = wormcast::test::plan_net(spec);
      const int n = q.network->num_nodes();
      for (int trial = 0; trial < 6; ++trial) {
        std::vector<NodeId> all(n);
        for (int i = 0; i < n; ++i) all[i] = i;
        std::shuffle(all.begin(), all.end(), rng);
        const int m = 1 + static_cast<int>(rng() % (n - 1));
        q.source = all[0];
        q.destinations.assign(all.begin() + 1, all.begin() + 1 + m);
        INFO(name << " on " << spec << ", source " << *q.source << ", " << m << " destinations");
        const SwitchScheme& s = switch_scheme(name);
        const MulticastPlan p = s.plan(q);
        wormcast::test::check_exactly_once(p);
        std::map<NodeId, int> received;
        std::vector<Worm> local = unroll(s, *q.network, *q.source, q.destinations, received);
        CHECK(received.size() == q.destinations.size());
        for (NodeId d : q.destinations) CHECK(received[d] == 1);
        std::vector<Worm> plan_worms = planned(p);
        std::sort(local.begin(), local.end());
        std::sort(plan_worms.begin(), plan_worms.end());
        CHECK(local == plan_worms);
      }
    }
}

TEST_CASE("switch schemes: the records are plan's switch entries, with their options", "[switchmc][scheme]") {
  const std::vector<std::string> names = switch_schemes().names();
  CHECK(std::set<std::string>(names.begin(), names.end()) ==
        std::set<std::string>{"tree", "path-lg", "path-greedy", "ssr"});
  for (const std::string& name : names) {
    INFO(name);
    const SchemeInfo* info = scheme_registry().find(name);
    REQUIRE(info);
    std::vector<std::string> want = {"--flit-bits"};
    if (name != "tree") want = {"--id", "--poc-dag", "--recompute-weights", "--flit-bits"};
    if (name == "ssr") want.push_back("--scheduler");
    CHECK(info->option_names() == want);
    CHECK(std::string(switch_scheme(name).decoder()) == (name == "tree" ? "reachability" : "ssr"));
  }
  CHECK_THROWS_WITH(switch_scheme("nope"), Catch::Matchers::Contains("path-greedy"));
}

TEST_CASE("switch schemes: a direct network or an empty set is refused with the reason", "[switchmc][scheme]") {
  for (const std::string& name : switch_schemes().names()) {
    INFO(name);
    PlanRequest q;
    q.network = wormcast::test::plan_net("torus:4x4:uni");
    q.source = 0;
    q.destinations = {1, 2};
    CHECK_THROWS_WITH(switch_scheme(name).plan(q), Catch::Matchers::Contains("needs an irregular switch network"));
    q.network = wormcast::test::plan_net("irregular:8x8p32s1");
    q.destinations.clear();
    CHECK_THROWS_WITH(switch_scheme(name).plan(q), Catch::Matchers::Contains("destination set is empty"));
  }
}
