// Hypercube multicast planners of seed001 Chapter 3 (algorithms/cube_multicast.h):
// golden examples of the thesis (Figs. 3.2, 3.4, 3.6, 3.7, 3.9; Definitions
// 3.1, 3.2, 3.5; spec/seed001.md §2, §4.1), the step models of §7.1, and
// properties the thesis proves or states (Theorems 3.3, 3.5, 3.6; U-cube's
// ⌈log2(m+1)⌉ one-port steps; XOR symmetry of §5.1/§7.4). Nodes are written
// as the thesis writes them, as bit strings, via b("0111").
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <random>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithms/cube_multicast.h"

using namespace wormcast::algo;
using Catch::Matchers::Contains;
using wormcast::topo::NodeId;

namespace {

NodeId b(const std::string& s) { return static_cast<NodeId>(std::stoi(s, nullptr, 2)); }

std::vector<NodeId> bs(const std::vector<std::string>& v) {
  std::vector<NodeId> out;
  for (const auto& s : v) out.push_back(b(s));
  return out;
}

const std::vector<CubeVariant> kVariants = {CubeVariant::ucube, CubeVariant::maxport, CubeVariant::combine,
                                            CubeVariant::wsort};

// The example of Figs. 3.1/3.2 (source 0000), which is also the set of
// Fig. 3.9 written in decimal: {1, 3, 5, 7, 11, 12, 14, 15}.
const std::vector<std::string> kFig32 = {"0001", "0011", "0101", "0111", "1011", "1100", "1110", "1111"};

const CubeUnicast* to_node(const CubePlan& p, NodeId v) {
  for (const CubeUnicast& u : p.unicasts)
    if (u.receiver == v) return &u;
  return nullptr;
}

int step_of(const CubePlan& p, NodeId v) {
  const CubeUnicast* u = to_node(p, v);
  REQUIRE(u != nullptr);
  return u->step;
}

// R_root (Definition 3.4) from the plan's unicasts.
std::set<NodeId> reach(const CubePlan& p, NodeId root) {
  std::map<NodeId, std::vector<NodeId>> children;
  for (const CubeUnicast& u : p.unicasts) children[u.sender].push_back(u.receiver);
  std::set<NodeId> r;
  std::vector<NodeId> todo{root};
  while (!todo.empty()) {
    const NodeId x = todo.back();
    todo.pop_back();
    if (!r.insert(x).second) continue;
    for (NodeId c : children[x]) todo.push_back(c);
  }
  return r;
}

std::vector<NodeId> random_dests(std::mt19937& rng, int n, NodeId source, int m) {
  std::vector<NodeId> all;
  for (NodeId v = 0; v < (NodeId{1} << n); ++v)
    if (v != source) all.push_back(v);
  std::shuffle(all.begin(), all.end(), rng);
  all.resize(static_cast<std::size_t>(m));
  return all;
}

// Calls check(plan, n, source, dests, variant, ports, model) for `trials`
// random sets (random source and size) in 3- to 6-cubes, under every
// variant, port model and step model.
template <class F>
void for_random_plans(unsigned seed, int trials, F check) {
  std::mt19937 rng(seed);
  for (int n = 3; n <= 6; ++n)
    for (int trial = 0; trial < trials; ++trial) {
      const NodeId source = std::uniform_int_distribution<NodeId>(0, (1 << n) - 1)(rng);
      const int m = std::uniform_int_distribution<int>(1, (1 << n) - 1)(rng);
      const std::vector<NodeId> d = random_dests(rng, n, source, m);
      for (CubeVariant v : kVariants)
        for (CubePorts ports : {CubePorts::one_port, CubePorts::all_port})
          for (CubeSteps model : {CubeSteps::per_channel_queue, CubeSteps::in_order_issue})
            check(plan_cube_multicast(n, source, d, v, ports, model), n, source, d, v, ports, model);
    }
}

int ceil_log2(int x) {
  int r = 0;
  while ((1 << r) < x) ++r;
  return r;
}

}  // namespace

TEST_CASE("cube: δ is the highest differing bit (Definition 3.2)", "[cube]") {
  CHECK(cube_delta(b("0101"), b("1110")) == 3);
  CHECK(cube_delta(b("0000"), b("0001")) == 0);
  CHECK(cube_delta(b("1110"), b("1011")) == 2);
  // Fig. 3.9 text: 7 -> 11 and 7 -> 12 need the same outgoing channel.
  CHECK(cube_delta(7, 11) == 3);
  CHECK(cube_delta(7, 12) == 3);
  CHECK(cube_delta(5, 9) == cube_delta(9, 5));
  CHECK_THROWS_AS(cube_delta(5, 5), std::invalid_argument);
  CHECK_THROWS_WITH(cube_delta(5, 5), Contains("5"));
  CHECK_THROWS_WITH(cube_delta(-2, 5), Contains("-2"));
}

TEST_CASE("cube: E-cube path of Definition 3.1", "[cube]") {
  // §3.2.1: P(0101, 1110) = (0101; 1101; 1111; 1110).
  CHECK(cube_ecube_path(4, b("0101"), b("1110")) == bs({"0101", "1101", "1111", "1110"}));
  // §3.1 (Fig. 3.2(d)): channel (0111, 1111) lies on the paths to both 1011 and 1100.
  CHECK(cube_ecube_path(4, b("0111"), b("1011")).at(1) == b("1111"));
  CHECK(cube_ecube_path(4, b("0111"), b("1100")).at(1) == b("1111"));
  CHECK(cube_ecube_path(4, 6, 6) == std::vector<NodeId>{6});
  CHECK_THROWS_WITH(cube_ecube_path(4, 0, 16), Contains("16"));
}

TEST_CASE("cube: cube-ordered chains of Fig. 3.7 (Definition 3.5, Theorem 3.4)", "[cube]") {
  CHECK(is_cube_ordered({0, 1, 3, 5, 7, 11, 12, 14, 15}, 4));  // Fig. 3.7(a)
  CHECK(is_cube_ordered({0, 1, 3, 5, 7, 12, 14, 15, 11}, 4));  // Fig. 3.7(b)
  CHECK(is_cube_ordered({0, 1, 3, 5, 7, 14, 15, 12, 11}, 4));  // Fig. 3.7(c)
  // S-cube ⟨000⟩ = {0, 1} of a 4-cube split by 8 (Definition 3.5 by hand).
  CHECK_FALSE(is_cube_ordered({0, 8, 1}, 4));
  // ⟨01⟩ = {4..7} (the §3.2.1 example S-cube) split by 0.
  CHECK_FALSE(is_cube_ordered({4, 0, 7}, 4));
  CHECK_FALSE(is_cube_ordered({0, 16}, 4));
  // Fig. 3.4's chain in absolute addresses (XOR 0100 of the relative Φ).
  CHECK(is_cube_ordered(bs({"0100", "0101", "0111", "0001", "0011", "1111", "1000", "1010", "1011"}), 4));
}

TEST_CASE("cube: WeightedSort reproduces Fig. 3.7/3.9", "[cube]") {
  // §3.4: WeightedSort turns D = {0,1,3,5,7,11,12,14,15} into {0,1,3,5,7,14,15,12,11}.
  std::vector<NodeId> d = {0, 1, 3, 5, 7, 11, 12, 14, 15};
  weighted_sort(d, 4);
  CHECK(d == std::vector<NodeId>{0, 1, 3, 5, 7, 14, 15, 12, 11});
  const std::vector<NodeId> dests = {15, 3, 12, 1, 7, 14, 5, 11};  // any input order
  CHECK(cube_chain(4, 0, dests, CubeVariant::wsort) == std::vector<NodeId>{0, 1, 3, 5, 7, 14, 15, 12, 11});
  for (CubeVariant v : {CubeVariant::ucube, CubeVariant::maxport, CubeVariant::combine})
    CHECK(cube_chain(4, 0, dests, v) == std::vector<NodeId>{0, 1, 3, 5, 7, 11, 12, 14, 15});
}

TEST_CASE("cube: Fig. 3.9 all-port steps: U-cube 4, Maxport 4, W-sort 2", "[cube]") {
  const std::vector<NodeId> d = {1, 3, 5, 7, 11, 12, 14, 15};
  for (CubeSteps model : {CubeSteps::per_channel_queue, CubeSteps::in_order_issue}) {
    const CubePlan u = plan_cube_multicast(4, 0, d, CubeVariant::ucube, CubePorts::all_port, model);
    const CubePlan m = plan_cube_multicast(4, 0, d, CubeVariant::maxport, CubePorts::all_port, model);
    const CubePlan w = plan_cube_multicast(4, 0, d, CubeVariant::wsort, CubePorts::all_port, model);
    CHECK(u.steps == 4);
    CHECK(m.steps == 4);
    CHECK(w.steps == 2);
    // "node 7 cannot send to nodes 11 and 12 during the same time step".
    REQUIRE(to_node(u, 11) != nullptr);
    REQUIRE(to_node(u, 12) != nullptr);
    CHECK(to_node(u, 11)->sender == 7);
    CHECK(to_node(u, 12)->sender == 7);
    CHECK(step_of(u, 11) != step_of(u, 12));
    // Fig. 3.9(b): unicasts with a common source use different channels.
    std::set<std::pair<NodeId, int>> channels;
    for (const CubeUnicast& x : m.unicasts) CHECK(channels.insert({x.sender, x.dimension}).second);
  }
}

TEST_CASE("cube: Fig. 3.2 (c)-(e): U-cube one-port and all-port, the two-step all-port tree", "[cube]") {
  const std::vector<NodeId> d = bs(kFig32);
  const std::set<NodeId> members = {0, 1, 3, 5, 7, 11, 12, 14, 15};
  // (c) one-port U-cube: 4 steps; only the source and destinations handle the message;
  // 0111's sends to 1011 and 1100 share channels but are sequential.
  const CubePlan c = plan_cube_multicast(4, 0, d, CubeVariant::ucube, CubePorts::one_port);
  CHECK(c.steps == 4);
  for (const CubeUnicast& u : c.unicasts) CHECK(members.count(u.sender) == 1);
  CHECK(step_of(c, b("1011")) != step_of(c, b("1100")));
  // (d) all-port U-cube: still 4 steps; step 1 goes first to 0111, which is left
  // with four nodes that all differ from it in the highest dimension; 1011 is
  // reached in step 3.
  const CubePlan a = plan_cube_multicast(4, 0, d, CubeVariant::ucube, CubePorts::all_port);
  CHECK(a.steps == 4);
  REQUIRE(!a.unicasts.empty());
  CHECK(a.unicasts.front().receiver == b("0111"));
  CHECK(a.unicasts.front().step == 1);
  const std::vector<NodeId>& f = a.unicasts.front().field;
  CHECK(f.size() == 5);
  for (std::size_t i = 1; i < f.size(); ++i) CHECK(cube_delta(b("0111"), f[i]) == 3);
  CHECK(step_of(a, b("1011")) == 3);
  // (e) the optimal two-step tree, with R_1110 = {1110, 1011, 1100, 1111} (§3.2.4).
  const CubePlan e = plan_cube_multicast(4, 0, d, CubeVariant::wsort, CubePorts::all_port);
  CHECK(e.steps == 2);
  CHECK(reach(e, b("1110")) == std::set<NodeId>{b("1110"), b("1011"), b("1100"), b("1111")});
  for (const CubeUnicast& u : e.unicasts) CHECK(members.count(u.sender) == 1);
}

TEST_CASE("cube: Fig. 3.6: Maxport 3 steps, U-cube 2 (all-port)", "[cube]") {
  const std::vector<NodeId> d = bs({"1001", "1010", "1011"});
  for (CubeSteps model : {CubeSteps::per_channel_queue, CubeSteps::in_order_issue}) {
    CHECK(plan_cube_multicast(4, 0, d, CubeVariant::maxport, CubePorts::all_port, model).steps == 3);
    CHECK(plan_cube_multicast(4, 0, d, CubeVariant::ucube, CubePorts::all_port, model).steps == 2);
  }
}

TEST_CASE("cube: Fig. 3.4: source 0100, the relative chain Φ, one-port U-cube in 4 steps", "[cube]") {
  const NodeId s = b("0100");
  const std::vector<NodeId> d = bs({"0001", "0011", "0101", "0111", "1000", "1010", "1011", "1111"});
  // Φ = {0000, 0001, 0011, 0101, 0111, 1011, 1100, 1110, 1111} in relative
  // addresses; the chain carries the absolute ones (XOR 0100) in that order (§7.4).
  std::vector<NodeId> phi = bs({"0000", "0001", "0011", "0101", "0111", "1011", "1100", "1110", "1111"});
  for (NodeId& x : phi) x ^= s;
  CHECK(cube_chain(4, s, d, CubeVariant::ucube) == phi);
  CHECK(plan_cube_multicast(4, s, d, CubeVariant::ucube, CubePorts::one_port).steps == 4);
  // "the same multicast operation examined in Figure 3.2": all-port U-cube 4, W-sort 2.
  CHECK(plan_cube_multicast(4, s, d, CubeVariant::ucube).steps == 4);
  CHECK(plan_cube_multicast(4, s, d, CubeVariant::wsort).steps == 2);
}

TEST_CASE("cube: Combine on the thesis' sets (hand-traced from Fig. 3.5, the thesis gives no Combine example)",
          "[cube]") {
  // Fig. 3.6's set: next = max(highdim = 1, center = 2) = 2 → like U-cube, 2 steps.
  CHECK(plan_cube_multicast(4, 0, bs({"1001", "1010", "1011"}), CubeVariant::combine).steps == 2);
  // Fig. 3.9's set: the source reaches 11, 5, 3, 1 in step 1; 11 sends to 14
  // (center beats highdim) and then 12, both on dimension 2: steps 2 and 3; 14 -> 15 in 3.
  const CubePlan c = plan_cube_multicast(4, 0, {1, 3, 5, 7, 11, 12, 14, 15}, CubeVariant::combine);
  CHECK(c.steps == 3);
  CHECK(step_of(c, 11) == 1);
  CHECK(step_of(c, 14) == 2);
  CHECK(step_of(c, 12) == 3);
  CHECK(to_node(c, 12)->sender == 11);
}

TEST_CASE("cube: step models A and B agree on every thesis example (§7.1)", "[cube]") {
  const std::vector<std::pair<NodeId, std::vector<NodeId>>> examples = {
      {0, bs(kFig32)},
      {0, bs({"1001", "1010", "1011"})},
      {b("0100"), bs({"0001", "0011", "0101", "0111", "1000", "1010", "1011", "1111"})}};
  for (const auto& ex : examples)
    for (CubeVariant v : kVariants) {
      const CubePlan a = plan_cube_multicast(4, ex.first, ex.second, v, CubePorts::all_port,
                                             CubeSteps::per_channel_queue);
      const CubePlan bb = plan_cube_multicast(4, ex.first, ex.second, v, CubePorts::all_port,
                                              CubeSteps::in_order_issue);
      CHECK(a.steps == bb.steps);
    }
}

TEST_CASE("cube: one node's send steps under one-port and the models A and B (§7.1 definitions)", "[cube]") {
  // Sends on dimensions 3, 3, 2 by a node that received in step 1.
  std::vector<CubeSend> sends(3);
  sends[0].to = 8, sends[0].dimension = 3;
  sends[1].to = 9, sends[1].dimension = 3;
  sends[2].to = 4, sends[2].dimension = 2;
  CHECK(cube_send_steps(sends, 1, CubePorts::one_port) == std::vector<int>{2, 3, 4});
  // (A) per-channel queue: t + 1 + earlier sends on the same channel.
  CHECK(cube_send_steps(sends, 1, CubePorts::all_port, CubeSteps::per_channel_queue) == std::vector<int>{2, 3, 2});
  // (B) in-order issue: the re-used channel advances the step for all that follow.
  CHECK(cube_send_steps(sends, 1, CubePorts::all_port, CubeSteps::in_order_issue) == std::vector<int>{2, 3, 3});
  CHECK(cube_send_steps({}, 0, CubePorts::all_port).empty());
  CHECK_THROWS_WITH(cube_send_steps(sends, -1, CubePorts::all_port), Contains("-1"));
}

TEST_CASE("cube: Algorithm 1 at a relay and at the source (Fig. 3.2(e) / 3.9(c))", "[cube]") {
  // 1110 holds R_1110 = {1110, 1011, 1100, 1111}; in a two-step tree it must
  // reach the other three directly, on three different channels.
  const auto relay = cube_local_sends(bs({"1110", "1111", "1100", "1011"}), CubeVariant::wsort);
  REQUIRE(relay.size() == 3);
  CHECK(relay[0].to == b("1011"));
  CHECK(relay[0].dimension == 2);
  CHECK(relay[0].field == bs({"1011"}));
  CHECK(relay[1].to == b("1100"));
  CHECK(relay[1].dimension == 1);
  CHECK(relay[2].to == b("1111"));
  CHECK(relay[2].dimension == 0);
  // The source's Maxport loop on the W-sort chain (hand-traced): one send per
  // maximal non-empty S-cube, highest dimension first.
  const auto src = cube_local_sends({0, 1, 3, 5, 7, 14, 15, 12, 11}, CubeVariant::wsort);
  REQUIRE(src.size() == 4);
  CHECK(src[0].to == 14);
  CHECK(src[0].field == std::vector<NodeId>{14, 15, 12, 11});
  CHECK(src[1].to == 5);
  CHECK(src[1].field == std::vector<NodeId>{5, 7});
  CHECK(src[2].to == 3);
  CHECK(src[3].to == 1);
  CHECK(cube_local_sends({9}, CubeVariant::ucube).empty());  // a leaf
}

TEST_CASE("cube: one-port U-cube takes ⌈log2(m+1)⌉ steps (§4.1, property)", "[cube]") {
  std::mt19937 rng(20240601u);
  for (int n = 1; n <= 8; ++n)
    for (int trial = 0; trial < 40; ++trial) {
      const NodeId source = std::uniform_int_distribution<NodeId>(0, (1 << n) - 1)(rng);
      const int m = std::uniform_int_distribution<int>(1, (1 << n) - 1)(rng);
      const CubePlan p = plan_cube_multicast(n, source, random_dests(rng, n, source, m), CubeVariant::ucube,
                                             CubePorts::one_port);
      INFO("n = " << n << ", source " << source << ", m = " << m);
      CHECK(p.steps == ceil_log2(m + 1));
    }
}

TEST_CASE("cube: every destination receives once, each field is exactly its receiver's subtree (property)",
          "[cube]") {
  for_random_plans(1994u, 30, [](const CubePlan& p, int n, NodeId source, const std::vector<NodeId>& d, CubeVariant v,
                                  CubePorts, CubeSteps) {
    INFO("n = " << n << ", source " << source << ", m = " << d.size() << ", " << to_string(v));
    REQUIRE(p.unicasts.size() == d.size());
    std::multiset<NodeId> got;
    int last_step = 0, max_step = 0;
    for (const CubeUnicast& u : p.unicasts) {
      got.insert(u.receiver);
      CHECK(u.step >= last_step);  // sorted by step
      last_step = u.step;
      max_step = std::max(max_step, u.step);
      CHECK(u.dimension == cube_delta(u.sender, u.receiver));
      CHECK(u.field.front() == u.receiver);
      const std::set<NodeId> field(u.field.begin(), u.field.end());
      CHECK(field == reach(p, u.receiver));
      // A node forwards only after it has received.
      if (u.sender != source) CHECK(u.step > step_of(p, u.sender));
    }
    CHECK(got == std::multiset<NodeId>(d.begin(), d.end()));
    // order numbers each sender's sends 1..k (its loop order).
    std::map<NodeId, std::set<int>> orders;
    for (const CubeUnicast& u : p.unicasts) orders[u.sender].insert(u.order);
    for (const auto& o : orders) CHECK((*o.second.begin() == 1 && *o.second.rbegin() == int(o.second.size())));
    CHECK(p.steps == max_step);
    CHECK(p.chain.front() == source);
  });
}

TEST_CASE("cube: all four algorithms are contention-free, stepwise (§7.9) and in depth (Theorem 3.3)", "[cube]") {
  for_random_plans(3u, 25, [](const CubePlan& p, int n, NodeId source, const std::vector<NodeId>& d, CubeVariant v,
                               CubePorts ports, CubeSteps model) {
    INFO("n = " << n << ", source " << source << ", m = " << d.size() << ", " << to_string(v)
                << (ports == CubePorts::one_port ? ", one-port" : ", all-port")
                << (model == CubeSteps::in_order_issue ? ", model B" : ", model A"));
    CHECK(cube_contention(p, n) == std::vector<std::string>{});
    CHECK(cube_depth_contention(p, n) == std::vector<std::string>{});
    // Maxport, Combine and W-sort (Theorem 3.6's S-cube argument) and
    // one-port U-cube meet even the literal "later step" reading.
    if (v != CubeVariant::ucube || ports == CubePorts::one_port)
      CHECK(cube_depth_contention(p, n, CubeDepthRule::later_step) == std::vector<std::string>{});
  });
}

TEST_CASE("cube: Maxport/W-sort send on strictly decreasing dimensions, so A = B (§4.1, property)", "[cube]") {
  std::mt19937 rng(7u);
  for (int n = 3; n <= 7; ++n)
    for (int trial = 0; trial < 30; ++trial) {
      const int m = std::uniform_int_distribution<int>(1, (1 << n) - 1)(rng);
      const std::vector<NodeId> d = random_dests(rng, n, 0, m);
      for (CubeVariant v : {CubeVariant::maxport, CubeVariant::wsort}) {
        const CubePlan a = plan_cube_multicast(n, 0, d, v, CubePorts::all_port, CubeSteps::per_channel_queue);
        const CubePlan bb = plan_cube_multicast(n, 0, d, v, CubePorts::all_port, CubeSteps::in_order_issue);
        CHECK(a.steps == bb.steps);
        std::map<NodeId, int> last_dim;
        for (const CubeUnicast& u : a.unicasts) {
          const auto it = last_dim.find(u.sender);
          if (it != last_dim.end()) CHECK(u.dimension < it->second);
          last_dim[u.sender] = u.dimension;
        }
      }
    }
}

TEST_CASE("cube: the W-sort chain is a cube-ordered permutation with the source first (Theorem 3.5)", "[cube]") {
  std::mt19937 rng(35u);
  for (int n = 2; n <= 8; ++n)
    for (int trial = 0; trial < 30; ++trial) {
      const NodeId source = std::uniform_int_distribution<NodeId>(0, (1 << n) - 1)(rng);
      const int m = std::uniform_int_distribution<int>(1, (1 << n) - 1)(rng);
      const std::vector<NodeId> d = random_dests(rng, n, source, m);
      const std::vector<NodeId> asc = cube_chain(n, source, d, CubeVariant::ucube);
      const std::vector<NodeId> w = cube_chain(n, source, d, CubeVariant::wsort);
      CHECK(is_cube_ordered(asc, n));  // Theorem 3.4
      CHECK(is_cube_ordered(w, n));
      CHECK(w.front() == source);
      CHECK(std::is_permutation(w.begin(), w.end(), asc.begin(), asc.end()));
      std::vector<NodeId> again = asc;
      weighted_sort(again, n);
      CHECK(again == w);
    }
}

TEST_CASE("cube: a nonzero source is the source-0 multicast XOR the source (§5.1, §7.4)", "[cube]") {
  std::mt19937 rng(11u);
  for (int n = 3; n <= 6; ++n)
    for (int trial = 0; trial < 20; ++trial) {
      const NodeId s = std::uniform_int_distribution<NodeId>(1, (1 << n) - 1)(rng);
      const int m = std::uniform_int_distribution<int>(1, (1 << n) - 1)(rng);
      const std::vector<NodeId> d = random_dests(rng, n, s, m);
      std::vector<NodeId> rel;
      for (NodeId x : d) rel.push_back(x ^ s);
      for (CubeVariant v : kVariants) {
        const CubePlan p = plan_cube_multicast(n, s, d, v);
        const CubePlan q = plan_cube_multicast(n, 0, rel, v);
        CHECK(p.steps == q.steps);
        REQUIRE(p.unicasts.size() == q.unicasts.size());
        for (std::size_t i = 0; i < p.unicasts.size(); ++i) {
          CHECK(p.unicasts[i].sender == (q.unicasts[i].sender ^ s));
          CHECK(p.unicasts[i].receiver == (q.unicasts[i].receiver ^ s));
          CHECK(p.unicasts[i].step == q.unicasts[i].step);
          CHECK(p.unicasts[i].dimension == q.unicasts[i].dimension);
        }
      }
    }
}

TEST_CASE("cube: at broadcast the four algorithms degenerate to the same tree (Fig. 3.10 text)", "[cube]") {
  for (int n = 1; n <= 7; ++n) {
    const NodeId s = (1 << n) / 3;  // any source
    std::vector<NodeId> all;
    for (NodeId v = 0; v < (1 << n); ++v)
      if (v != s) all.push_back(v);
    const CubePlan ref = plan_cube_multicast(n, s, all, CubeVariant::ucube);
    CHECK(ref.steps == n);  // ⌈log2 2^n⌉
    CHECK(plan_cube_multicast(n, s, all, CubeVariant::ucube, CubePorts::one_port).steps == n);
    for (CubeVariant v : kVariants) {
      const CubePlan p = plan_cube_multicast(n, s, all, v);
      CHECK(p.chain == ref.chain);
      REQUIRE(p.unicasts.size() == ref.unicasts.size());
      for (std::size_t i = 0; i < p.unicasts.size(); ++i) {
        CHECK(p.unicasts[i].sender == ref.unicasts[i].sender);
        CHECK(p.unicasts[i].receiver == ref.unicasts[i].receiver);
        CHECK(p.unicasts[i].step == ref.unicasts[i].step);
      }
    }
  }
}

TEST_CASE("cube: all-port U-cube needs the loop-order reading of Theorem 3.3 condition 4 (hand-traced)", "[cube]") {
  // Source 0000, D = {0100, 1010, 1011, 1100, 1101}: chain {0, 4, 10, 11, 12, 13};
  // the source sends 1011 (center, dimension 3) and then 0100 (dimension 2),
  // both in step 1; 0100 sends 1010 in step 2 over 0100->1100->1000->1010,
  // which shares channel 1000->1010 with P(0000, 1011) = 0000->1000->1010->1011.
  const std::vector<NodeId> d = bs({"0100", "1010", "1011", "1100", "1101"});
  const CubePlan a = plan_cube_multicast(4, 0, d, CubeVariant::ucube, CubePorts::all_port);
  CHECK(step_of(a, b("1011")) == 1);
  CHECK(step_of(a, b("0100")) == 1);
  CHECK(to_node(a, b("1010"))->sender == b("0100"));
  CHECK(cube_contention(a, 4).empty());
  CHECK(cube_depth_contention(a, 4).empty());  // 0000 issues 1011 before 0100
  const auto strict = cube_depth_contention(a, 4, CubeDepthRule::later_step);
  REQUIRE(strict.size() == 1);
  CHECK_THAT(strict[0], Contains("0000->1011") && Contains("0100->1010") && Contains("1000->1010"));
  // One-port: 0100 gets its copy a step after 1011, so even the literal reading holds.
  const CubePlan o = plan_cube_multicast(4, 0, d, CubeVariant::ucube, CubePorts::one_port);
  CHECK(cube_depth_contention(o, 4, CubeDepthRule::later_step).empty());
}

TEST_CASE("cube: the contention checks report hand-built violations", "[cube]") {
  // Fig. 3.9(a)'s forbidden case: 0111 -> 1011 and 0111 -> 1100 in one step.
  CubePlan bad;
  bad.chain = {0, 7, 11, 12};
  bad.unicasts = {{0, 7, 1, 2, {7, 11, 12}, 1}, {7, 12, 2, 3, {12}, 1}, {7, 11, 2, 3, {11}, 2}};
  const auto v = cube_contention(bad, 4);
  REQUIRE(v.size() == 2);  // the shared port, and the shared channel 0111->1111 once
  CHECK_THAT(v[0], Contains("0111") && Contains("dimension 3") && Contains("step 2"));
  CHECK_THAT(v[1], Contains("0111->1111"));
  // In different steps (as U-cube does) both checks pass (Theorem 3.3 condition 2).
  bad.unicasts[2].step = 3;
  CHECK(cube_contention(bad, 4).empty());
  CHECK(cube_depth_contention(bad, 4).empty());
  // A wrong dimension label is reported.
  bad.unicasts[2].dimension = 1;
  REQUIRE(cube_contention(bad, 4).size() == 1);
  CHECK_THAT(cube_contention(bad, 4)[0], Contains("labelled dimension 1"));
  // Two sub-trees whose later unicasts share channel 1001->1011 in different
  // steps: stepwise fine, but startup latency could make them overlap.
  CubePlan depth;
  depth.chain = {0, 1, 9, 8, 10, 11};
  depth.unicasts = {{0, 9, 1, 3, {}, 1}, {0, 1, 1, 0, {}, 2}, {1, 11, 2, 3, {}, 1}, {9, 8, 2, 0, {}, 1},
                   {9, 10, 3, 1, {}, 2}};
  CHECK(cube_contention(depth, 4).empty());
  const auto dv = cube_depth_contention(depth, 4);
  REQUIRE(dv.size() == 1);
  CHECK_THAT(dv[0], Contains("0001->1011") && Contains("1001->1010") && Contains("1001->1011"));
  // Receiving twice, and forwarding before receiving, are reported.
  CubePlan twice;
  twice.chain = {0, 1, 3};
  twice.unicasts = {{0, 1, 1, 0, {}, 1}, {0, 3, 1, 1, {}, 2}, {1, 3, 2, 1, {}, 1}, {5, 7, 2, 1, {}, 1}};
  const auto tv = cube_depth_contention(twice, 3);
  CHECK(std::any_of(tv.begin(), tv.end(), [](const std::string& s) { return s.find("more than once") != s.npos; }));
  CHECK(std::any_of(tv.begin(), tv.end(), [](const std::string& s) { return s.find("without") != s.npos; }));
}

TEST_CASE("cube: invalid input throws std::invalid_argument naming the value", "[cube]") {
  using IA = std::invalid_argument;
  CHECK_THROWS_AS(cube_chain(0, 0, {1}, CubeVariant::ucube), IA);
  CHECK_THROWS_WITH(cube_chain(0, 0, {1}, CubeVariant::ucube), Contains("n = 0"));
  CHECK_THROWS_WITH(cube_chain(31, 0, {1}, CubeVariant::ucube), Contains("n = 31"));
  CHECK_THROWS_WITH(cube_chain(4, 16, {1}, CubeVariant::ucube), Contains("source node 16"));
  CHECK_THROWS_WITH(cube_chain(4, -1, {1}, CubeVariant::ucube), Contains("source node -1"));
  CHECK_THROWS_WITH(cube_chain(4, 0, {1, 16}, CubeVariant::wsort), Contains("destination node 16"));
  CHECK_THROWS_WITH(cube_chain(4, 0, {3, 5, 3}, CubeVariant::maxport), Contains("node 3") && Contains("twice"));
  CHECK_THROWS_WITH(cube_chain(4, 6, {1, 6}, CubeVariant::combine), Contains("node 6") && Contains("source"));
  CHECK_THROWS_WITH(cube_chain(4, 6, {}, CubeVariant::ucube), Contains("no destinations") && Contains("6"));
  CHECK_THROWS_WITH(plan_cube_multicast(3, 0, {8}, CubeVariant::wsort), Contains("destination node 8"));
  CHECK_THROWS_AS(plan_cube_multicast(3, 0, {}, CubeVariant::ucube), IA);

  std::vector<NodeId> empty;
  CHECK_THROWS_AS(weighted_sort(empty, 4), IA);
  std::vector<NodeId> split = {0, 8, 1};
  CHECK_THROWS_WITH(weighted_sort(split, 4), Contains("cube-ordered"));
  std::vector<NodeId> dup = {0, 1, 1};
  CHECK_THROWS_WITH(weighted_sort(dup, 4), Contains("node 1") && Contains("twice"));
  std::vector<NodeId> out = {0, 17};
  CHECK_THROWS_WITH(weighted_sort(out, 4), Contains("17"));
  CHECK_THROWS_WITH(weighted_sort(dup, 0), Contains("n = 0"));

  CHECK_THROWS_AS(cube_local_sends({}, CubeVariant::ucube), IA);
  CHECK_THROWS_WITH(cube_local_sends({3, 1, 3}, CubeVariant::maxport), Contains("3"));
  CHECK_THROWS_WITH(cube_local_sends({3, -4}, CubeVariant::maxport), Contains("-4"));

  CubePlan p;
  p.unicasts = {{0, 16, 1, 4, {}, 1}};
  CHECK_THROWS_WITH(cube_contention(p, 4), Contains("receiver node 16"));
  CHECK_THROWS_WITH(cube_contention(p, 31), Contains("n = 31"));
  p.unicasts = {{5, 5, 1, 0, {}, 1}};
  CHECK_THROWS_WITH(cube_depth_contention(p, 4), Contains("0101"));
  p.unicasts = {{0, 1, 1, 0, {}, 0}};
  CHECK_THROWS_WITH(cube_depth_contention(p, 4), Contains("loop order 0"));
  CHECK(cube_depth_contention(p, 4, CubeDepthRule::later_step).empty());
  CHECK_THROWS_WITH(is_cube_ordered({0}, 0), Contains("n = 0"));
}
