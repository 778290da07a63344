// check_direct_routing() walks routes by destination and stops where an
// earlier route to the same destination went on (direct_check.cpp). These
// tests hold it to a brute force written here: every ordered pair's route
// walked to its end (O(N² × path) routing calls),
// and broken routing functions that it must still catch, pair by pair.
#include <catch2/catch.hpp>

#include <set>
#include <string>
#include <utility>
#include <vector>

#include "topologies/direct_check.h"

using namespace wormcast::topo;

namespace {

struct BruteForce {
  bool routes_ok = true;
  std::set<std::pair<int, int>> edges;   // (channel, class) pairs numbered slot * 7 + class
  long long calls = 0;
};

// Shortest distances from s by BFS over DirectTopology::channels().
std::vector<int> distances_from(const DirectTopology& t, NodeId s) {
  std::vector<int> dist(t.num_nodes(), -1);
  std::vector<NodeId> q{s};
  dist[s] = 0;
  for (std::size_t i = 0; i < q.size(); ++i)
    for (const DirectChannel& c : t.channels(q[i]))
      if (dist[c.to] < 0) {
        dist[c.to] = dist[q[i]] + 1;
        q.push_back(c.to);
      }
  return dist;
}

// Every pair's route to its end: legal channel and class at each hop,
// arrival at the destination after exactly the BFS distance.
BruteForce brute_force(const DirectRouting& r, const NextHopFunction& hop) {
  const DirectTopology& t = r.topology();
  BruteForce out;
  for (NodeId s = 0; s < t.num_nodes(); ++s) {
    const std::vector<int> dist = distances_from(t, s);
    for (NodeId v = 0; v < t.num_nodes(); ++v) {
      if (v == s) continue;
      NodeId at = s;
      VcClass cls = VcClass::local;
      int prev = -1, in_port = -1, hops = 0;
      for (;; ++hops) {
        const DirectHop h = hop(at, v, cls, in_port);
        ++out.calls;
        if (h.arrived || hops > dist[v]) break;
        if (h.dim < 0 || !t.has_channel(at, h.dim, h.dir) || !r.vc_classes(at, h.dim, h.dir).contains(h.vc)) break;
        const int cur = t.channel_slot(at, h.dim, h.dir) * 7 + static_cast<int>(h.vc);
        if (prev >= 0) out.edges.insert({prev, cur});
        prev = cur;
        at = t.neighbour(at, h.dim, h.dir);
        cls = h.vc;
        in_port = DirectTopology::port_index(h.dim, h.dir);
      }
      if (at != v || hops != dist[v]) out.routes_ok = false;
    }
  }
  return out;
}

NextHopFunction own(const DirectRouting& r) {
  return [&r](NodeId at, NodeId dst, VcClass in, int in_port) { return r.next_hop(at, dst, in, in_port); };
}

DirectCheckReport check_with(const DirectRouting& r, const NextHopFunction& hop) {
  DirectCheckOptions o;
  o.next_hop = &hop;
  o.keep_route_edges = true;
  return check_direct_routing_report(r, 0, o);
}

// `fewer`: how many times fewer routing calls than the brute force at least
// (the brute force's grow with the mean path length).
void same_as_brute_force(const char* spec, RoutingAlgorithm a, DimOrder o = DimOrder::descending, int fewer = 1) {
  const DirectRouting r(parse_direct_spec(spec), a, o);
  const NextHopFunction hop = own(r);
  const BruteForce want = brute_force(r, hop);
  const DirectCheckReport got = check_with(r, hop);
  INFO(spec << " " << to_string(a) << " calls " << got.routing_calls << " vs " << want.calls);
  REQUIRE(want.routes_ok);
  CHECK(got.problems.empty());
  CHECK_FALSE(got.per_pair_walk);
  CHECK(got.route_dependencies == want.edges.size());
  CHECK(std::set<std::pair<int, int>>(got.route_edges.begin(), got.route_edges.end()) == want.edges);
  CHECK(got.route_edges.size() == want.edges.size());
  // Each source's first hop is asked once per destination; past it, each
  // (channel, class) pair at most once per destination.
  CHECK(got.routing_calls * fewer < want.calls);
}

const DirectRouting& mesh4() {
  static const DirectRouting r(parse_direct_spec("mesh:4x4"), RoutingAlgorithm::dor);
  return r;
}

}  // namespace

TEST_CASE("walk by destination: same dependency edges as every route walked to its end", "[direct][check]") {
  same_as_brute_force("mesh:8x8", RoutingAlgorithm::dor);
  same_as_brute_force("mesh:8x8", RoutingAlgorithm::dor, DimOrder::ascending);
  same_as_brute_force("torus:8x8:uni", RoutingAlgorithm::utr);
  same_as_brute_force("torus:8x8:uni", RoutingAlgorithm::utr, DimOrder::ascending);
  same_as_brute_force("torus:8x8:uni", RoutingAlgorithm::utpr);
  same_as_brute_force("torus:8x8:bi", RoutingAlgorithm::btr);
  same_as_brute_force("torus:8x8:bi", RoutingAlgorithm::dateline);
  same_as_brute_force("torus:7x5:bi", RoutingAlgorithm::dateline, DimOrder::ascending);
  same_as_brute_force("torus:4x4x4:bi", RoutingAlgorithm::btr);
  same_as_brute_force("hypercube:6", RoutingAlgorithm::ecube);
  same_as_brute_force("mesh:16x16", RoutingAlgorithm::dor, DimOrder::ascending, 5);
}

TEST_CASE("walk by destination: the cyclic ring's edges and cycle as before", "[direct][check]") {
  const DirectRouting r(parse_direct_spec("torus:6x6:uni"), RoutingAlgorithm::broken_single_vc_ring);
  const NextHopFunction hop = own(r);
  const BruteForce want = brute_force(r, hop);
  const DirectCheckReport got = check_with(r, hop);
  CHECK(want.routes_ok);
  CHECK(std::set<std::pair<int, int>>(got.route_edges.begin(), got.route_edges.end()) == want.edges);
  REQUIRE(got.problems.size() == 1);
  CHECK_THAT(got.problems[0], Catch::StartsWith("channel dependency cycle:"));
}

TEST_CASE("a detour is reported for the pair whose route it is", "[direct][check]") {
  const DirectRouting& r = mesh4();
  const DirectTopology& t = r.topology();
  const NodeId a = t.parse_node("(0,0)"), b = t.parse_node("(0,1)");
  // (0,0) -> (0,1) first steps up in dimension 1, then comes back down.
  const NextHopFunction hop = [&](NodeId at, NodeId dst, VcClass in, int in_port) {
    if (at == a && dst == b && in == VcClass::local) return DirectHop{false, 1, Direction::plus, VcClass::single};
    return r.next_hop(at, dst, in, in_port);
  };
  const DirectCheckReport got = check_with(r, hop);
  CHECK(got.per_pair_walk);
  REQUIRE(got.problems.size() == 1);
  CHECK(got.problems[0] == "dor route (0,0) -> (0,1): longer than the shortest path (1 hops)");
}

TEST_CASE("a routing function going round in circles is caught, not followed for ever", "[direct][check]") {
  const DirectRouting& r = mesh4();
  const DirectTopology& t = r.topology();
  const NodeId v = t.parse_node("(3,3)");
  // Towards (3,3), every forwarded header bounces back along dimension 0.
  const NextHopFunction hop = [&](NodeId at, NodeId dst, VcClass in, int in_port) {
    if (dst == v && in != VcClass::local && at != dst) {
      const Direction back = t.sigma(at, 0) > 0 ? Direction::minus : Direction::plus;
      return DirectHop{false, 0, back, VcClass::single};
    }
    return r.next_hop(at, dst, in, in_port);
  };
  const DirectCheckReport got = check_with(r, hop);
  CHECK(got.per_pair_walk);
  // Every source at distance >= 2 from (3,3) loops; the first, (0,0):
  REQUIRE_FALSE(got.problems.empty());
  CHECK(got.problems[0] == "dor route (0,0) -> (3,3): longer than the shortest path (6 hops)");
}

TEST_CASE("a class missing on a shared stretch is reported for every route through it, capped at 40",
          "[direct][check]") {
  const DirectRouting r(parse_direct_spec("mesh:8x8"), RoutingAlgorithm::dor);
  const DirectTopology& t = r.topology();
  const NodeId y = t.parse_node("(4,4)");
  // At (4,4), forwarded headers take class h, which a dor mesh does not have.
  const NextHopFunction hop = [&](NodeId at, NodeId dst, VcClass in, int in_port) {
    DirectHop h = r.next_hop(at, dst, in, in_port);
    if (at == y && in != VcClass::local && !h.arrived) h.vc = VcClass::h;
    return h;
  };
  // Expected by the routes themselves: pairs (s, v) whose route passes
  // through (4,4) and goes on, by source then destination; the walk stops
  // after the source at which 40 problems are reached.
  std::vector<std::string> want;
  std::size_t more = 0;
  for (NodeId s = 0; s < t.num_nodes() && want.size() < 40; ++s)
    for (NodeId v = 0; v < t.num_nodes(); ++v) {
      if (v == s || s == y || v == y) continue;
      const std::vector<RouteHop> route = r.route(s, v);
      bool through = false;
      for (const RouteHop& h : route) through = through || h.node == y;
      if (!through) continue;
      std::size_t i = 0;
      while (route[i].node != y) ++i;
      const std::string text = "dor route " + t.name(s) + " -> " + t.name(v) + " at (4,4): class h does not exist on (4,4) d" +
                               std::to_string(route[i].dim) + (route[i].dir == Direction::plus ? "+" : "-");
      if (want.size() < 40) want.push_back(text);
      else ++more;
    }
  REQUIRE(more > 0);
  want.push_back("... and " + std::to_string(more) + " more problems");
  const DirectCheckReport got = check_with(r, hop);
  CHECK(got.per_pair_walk);
  CHECK(got.problems == want);
}

TEST_CASE("a UTPR worm continuation without a hop is reported, the routes still walked by destination",
          "[direct][check]") {
  const DirectRouting r(parse_direct_spec("torus:4x4:uni"), RoutingAlgorithm::utpr);
  const NodeId w = r.topology().parse_node("(0,0)");
  // A fresh decision (in_port -1) at (0,0) for a worm that arrived there.
  const NextHopFunction hop = [&](NodeId at, NodeId dst, VcClass in, int in_port) {
    if (at == w && in != VcClass::local && in_port < 0) return DirectHop{};
    return r.next_hop(at, dst, in, in_port);
  };
  const DirectCheckReport got = check_with(r, hop);
  CHECK_FALSE(got.per_pair_walk);
  REQUIRE_FALSE(got.problems.empty());
  for (const std::string& p : got.problems)
    if (p.rfind("... and ", 0) != 0) CHECK_THAT(p, Catch::StartsWith("utpr worm continuing at (0,0) to ") &&
                                                       Catch::EndsWith(": no dimension chosen"));
}
