// Seed 004's multicast on the SCI torus (algorithms/sci_multicast.h): the
// worked example of Fig. 1 (spec/seed002_004.md, seed 004 §2: Φ′, Θ′ with its
// Eq. 2 labels, U-torus's four-step schedule, M_d's and M_u's phases) as
// goldens; the step and phase counts the paper states (⌈log2 d⌉, d - 1,
// ⌈log_r d⌉, at most n) as properties on fixed-seed random groups; the link
// metrics against a hand count and the distance formula of a unidirectional
// torus; and the checker, which passes every plan and catches broken ones.
#include <catch2/catch.hpp>

#include <algorithm>
#include <numeric>
#include <random>
#include <string>
#include <vector>

#include "algorithms/sci_multicast.h"
#include "topologies/direct_routing.h"
#include "topologies/direct_topology.h"

using namespace wormcast;
using algo::SciScheme;
using Catch::Contains;
using topo::DirectRouting;
using topo::DirectTopology;
using topo::NodeId;

namespace {

// The paper's (row, col), 1-based, σ_1 = row, σ_0 = col.
NodeId paper(const DirectTopology& t, int row, int col) { return t.node_of({col - 1, row - 1}); }

std::vector<NodeId> paper_nodes(const DirectTopology& t, const std::vector<std::pair<int, int>>& rc) {
  std::vector<NodeId> out;
  for (const auto& [r, c] : rc) out.push_back(paper(t, r, c));
  return out;
}

// Fig. 1: root (2,2) and nine destinations on the 4x4 torus.
struct Fig1 {
  DirectTopology t = DirectTopology::torus({4, 4}, false);
  NodeId root = paper(t, 2, 2);
  std::vector<NodeId> dests = paper_nodes(t, {{1, 1}, {1, 2}, {1, 3}, {2, 4}, {3, 1}, {3, 3}, {4, 1}, {4, 2}, {4, 4}});
};

struct Expected {
  std::pair<int, int> from, to;
  int step, phase;
};

void require_unicasts(const DirectTopology& t, const algo::SciPlan& p, const std::vector<Expected>& want) {
  REQUIRE(p.unicasts.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("unicast " << i << ": " << t.name(p.unicasts[i].sender) << " -> " << t.name(p.unicasts[i].receiver));
    CHECK(p.unicasts[i].sender == paper(t, want[i].from.first, want[i].from.second));
    CHECK(p.unicasts[i].receiver == paper(t, want[i].to.first, want[i].to.second));
    CHECK(p.unicasts[i].step == want[i].step);
    CHECK(p.unicasts[i].phase == want[i].phase);
  }
}

const algo::SciUnicast& unicast_to(const algo::SciPlan& p, NodeId to) {
  for (const algo::SciUnicast& u : p.unicasts)
    if (u.receiver == to) return u;
  FAIL("no unicast to node " << to);
  return p.unicasts.front();
}

int ceil_log(int m, int r) {
  int l = 0;
  for (long long reach = 1; reach < m; reach *= r) ++l;
  return l;
}

}  // namespace

TEST_CASE("seed004 Fig. 1: Phi' is the group in dimension order rotated to the root", "[sci][golden]") {
  const Fig1 f;
  CHECK(algo::sci_dimension_order(f.t, f.root, f.dests) ==
        paper_nodes(f.t, {{2, 2}, {2, 4}, {3, 1}, {3, 3}, {4, 1}, {4, 2}, {4, 4}, {1, 1}, {1, 2}, {1, 3}}));
}

TEST_CASE("seed004 Fig. 1: Eq. 2 labels and Theta'", "[sci][golden]") {
  const Fig1 f;
  const std::vector<std::pair<std::pair<int, int>, long long>> labels = {
      {{1, 3}, 4},  {{1, 1}, 6},  {{1, 2}, 7},  {{2, 2}, 8},  {{2, 4}, 10},
      {{3, 1}, 12}, {{3, 3}, 14}, {{4, 4}, 16}, {{4, 1}, 17}, {{4, 2}, 18}};
  for (const auto& [rc, l] : labels) {
    INFO("(" << rc.first << "," << rc.second << ")");
    CHECK(algo::sci_cycle_label(f.t, paper(f.t, rc.first, rc.second)) == l);
  }
  CHECK(algo::sci_cycle_order(f.t, f.root, f.dests) ==
        paper_nodes(f.t, {{2, 2}, {2, 4}, {3, 1}, {3, 3}, {4, 4}, {4, 1}, {4, 2}, {1, 3}, {1, 1}, {1, 2}}));
  // Along a row the cycle moves +1 in the column, then to the next row.
  for (int row = 1; row <= 4; ++row)
    for (int col = 1; col <= 4; ++col) {
      const long long here = algo::sci_cycle_label(f.t, paper(f.t, row, col));
      const long long next = algo::sci_cycle_label(f.t, paper(f.t, row, col % 4 + 1));
      CHECK((next - here == 1 || here - next == 3));
    }
}

TEST_CASE("seed004 Fig. 1: U-torus's four steps", "[sci][golden]") {
  const Fig1 f;
  const algo::SciPlan p = algo::plan_sci(f.t, SciScheme::utorus, f.root, f.dests);
  CHECK(p.steps == 4);
  require_unicasts(f.t, p,
                   {{{2, 2}, {4, 2}, 1, 1},
                    {{2, 2}, {3, 3}, 2, 2},
                    {{4, 2}, {1, 2}, 2, 2},
                    {{2, 2}, {3, 1}, 3, 3},
                    {{3, 3}, {4, 1}, 3, 3},
                    {{4, 2}, {1, 1}, 3, 3},
                    {{1, 2}, {1, 3}, 3, 3},
                    {{2, 2}, {2, 4}, 4, 4},
                    {{4, 2}, {4, 4}, 4, 4}});
  // Eq. 1's first split: the center (4,2) gets {(4,2), (4,4), (1,1), (1,2), (1,3)}.
  CHECK(unicast_to(p, paper(f.t, 4, 2)).field == paper_nodes(f.t, {{4, 2}, {4, 4}, {1, 1}, {1, 2}, {1, 3}}));
  CHECK(algo::sci_violations(f.t, p).empty());
}

TEST_CASE("seed004 Fig. 1: S-torus chains through Theta'", "[sci][golden]") {
  const Fig1 f;
  const algo::SciPlan p = algo::plan_sci(f.t, SciScheme::storus, f.root, f.dests);
  CHECK(p.steps == 9);
  CHECK(p.phases == 1);
  for (std::size_t i = 0; i < p.unicasts.size(); ++i) {
    CHECK(p.unicasts[i].sender == p.order[i]);
    CHECK(p.unicasts[i].receiver == p.order[i + 1]);
    CHECK(p.unicasts[i].step == static_cast<int>(i) + 1);
  }
  CHECK(algo::sci_violations(f.t, p).empty());
}

TEST_CASE("seed004 Fig. 1: M_d-torus, row headers then row chains", "[sci][golden]") {
  const Fig1 f;
  const algo::SciPlan p = algo::plan_sci(f.t, SciScheme::mdtorus, f.root, f.dests);
  CHECK(p.phases == 2);
  CHECK(p.steps == 5);
  require_unicasts(f.t, p,
                   {{{2, 2}, {3, 1}, 1, 1},
                    {{2, 2}, {4, 4}, 2, 1},
                    {{3, 1}, {3, 3}, 2, 2},
                    {{2, 2}, {1, 3}, 3, 1},
                    {{4, 4}, {4, 1}, 3, 2},
                    {{2, 2}, {2, 4}, 4, 2},
                    {{4, 1}, {4, 2}, 4, 2},
                    {{1, 3}, {1, 1}, 4, 2},
                    {{1, 1}, {1, 2}, 5, 2}});
  CHECK(unicast_to(p, paper(f.t, 4, 4)).field == paper_nodes(f.t, {{4, 4}, {4, 1}, {4, 2}}));
  CHECK(unicast_to(p, paper(f.t, 1, 3)).field == paper_nodes(f.t, {{1, 3}, {1, 1}, {1, 2}}));
  CHECK(algo::sci_violations(f.t, p).empty());
}

TEST_CASE("seed004 Fig. 1: M_u-torus(4), chunks of 4, 4 and 2", "[sci][golden]") {
  const Fig1 f;
  const algo::SciPlan p = algo::plan_sci(f.t, SciScheme::mutorus, f.root, f.dests, 4);
  CHECK(p.phases == 2);
  CHECK(unicast_to(p, paper(f.t, 4, 4)).field == paper_nodes(f.t, {{4, 4}, {4, 1}, {4, 2}, {1, 3}}));
  CHECK(unicast_to(p, paper(f.t, 1, 1)).field == paper_nodes(f.t, {{1, 1}, {1, 2}}));
  require_unicasts(f.t, p,
                   {{{2, 2}, {4, 4}, 1, 1},
                    {{2, 2}, {1, 1}, 2, 1},
                    {{4, 4}, {4, 1}, 2, 2},
                    {{2, 2}, {2, 4}, 3, 2},
                    {{4, 1}, {4, 2}, 3, 2},
                    {{1, 1}, {1, 2}, 3, 2},
                    {{2, 4}, {3, 1}, 4, 2},
                    {{4, 2}, {1, 3}, 4, 2},
                    {{3, 1}, {3, 3}, 5, 2}});
  CHECK(algo::sci_violations(f.t, p).empty());
}

TEST_CASE("seed004 Fig. 1: separate addressing sends d - 1 unicasts from the root", "[sci][golden]") {
  const Fig1 f;
  const algo::SciPlan p = algo::plan_sci(f.t, SciScheme::separate, f.root, f.dests);
  CHECK(p.steps == 9);
  for (std::size_t i = 0; i < p.unicasts.size(); ++i) {
    CHECK(p.unicasts[i].sender == f.root);
    CHECK(p.unicasts[i].receiver == p.order[i + 1]);
    CHECK(p.unicasts[i].field == std::vector<NodeId>{p.order[i + 1]});
  }
  const algo::SciLinkUse use = algo::sci_link_use(DirectRouting(f.t, topo::RoutingAlgorithm::utr, topo::DimOrder::ascending), p);
  CHECK(use.root_targets == 9);
  CHECK(use.concurrency == 1);
}

TEST_CASE("seed004 link metrics: a hand count and the unidirectional distance formula", "[sci]") {
  const DirectTopology t = DirectTopology::torus({4, 4}, false);
  const DirectRouting xy(t, topo::RoutingAlgorithm::utr, topo::DimOrder::ascending);
  // From (1,1) to (1,2) and (1,3): 1 + 2 visits on 2 links (the first shared).
  const algo::SciPlan two = algo::plan_sci(t, SciScheme::separate, paper(t, 1, 1), paper_nodes(t, {{1, 2}, {1, 3}}));
  const algo::SciLinkUse u2 = algo::sci_link_use(xy, two);
  CHECK(u2.link_visits == 3);
  CHECK(u2.used_links == 2);
  CHECK(u2.utilization == Approx(1.5));
  // Fig. 1, every scheme: visits = Σ over unicasts of Σ_d (σ_d(v) - σ_d(u)) mod 4.
  const Fig1 f;
  for (SciScheme s : {SciScheme::separate, SciScheme::utorus, SciScheme::storus, SciScheme::mdtorus, SciScheme::mutorus}) {
    const algo::SciPlan p = algo::plan_sci(f.t, s, f.root, f.dests, 4);
    int visits = 0;
    for (const algo::SciUnicast& u : p.unicasts)
      for (int d = 0; d < 2; ++d) visits += ((f.t.sigma(u.receiver, d) - f.t.sigma(u.sender, d)) % 4 + 4) % 4;
    const algo::SciLinkUse use = algo::sci_link_use(xy, p);
    INFO(algo::to_string(s));
    CHECK(use.link_visits == visits);
    CHECK(use.used_links <= use.link_visits);
    CHECK(use.used_links <= 32);
    CHECK(use.utilization >= 1.0);
  }
  // U-torus's step 3 has four unicasts in flight (recursive doubling).
  CHECK(algo::sci_link_use(xy, algo::plan_sci(f.t, SciScheme::utorus, f.root, f.dests)).concurrency == 4);
  CHECK(algo::sci_link_use(xy, algo::plan_sci(f.t, SciScheme::storus, f.root, f.dests)).concurrency == 1);
}

TEST_CASE("seed004 schemes on random groups: steps, phases, checker", "[sci][property]") {
  std::mt19937 rng(2002);
  for (const DirectTopology& t : {DirectTopology::torus({4, 4}, false), DirectTopology::torus({8, 8}, false),
                                  DirectTopology::torus({4, 4, 4}, false), DirectTopology::torus({4, 4}, true)}) {
    std::vector<NodeId> all(static_cast<std::size_t>(t.num_nodes()));
    std::iota(all.begin(), all.end(), 0);
    for (int trial = 0; trial < 40; ++trial) {
      std::shuffle(all.begin(), all.end(), rng);
      const int d = 2 + static_cast<int>(rng() % static_cast<unsigned>(t.num_nodes() - 1));
      const std::vector<NodeId> dests(all.begin() + 1, all.begin() + d);
      for (SciScheme s : {SciScheme::separate, SciScheme::utorus, SciScheme::storus, SciScheme::mdtorus, SciScheme::mutorus})
        for (int r : {2, 4}) {
          INFO(t.spec() << " " << algo::to_string(s) << " r " << r << " d " << d << " root " << t.name(all[0]));
          const algo::SciPlan p = algo::plan_sci(t, s, all[0], dests, r);
          const std::vector<std::string> bad = algo::sci_violations(t, p);
          CHECK(bad.empty());
          CHECK(p.unicasts.size() == static_cast<std::size_t>(d - 1));
          if (s == SciScheme::separate || s == SciScheme::storus) CHECK(p.steps == d - 1);
          if (s == SciScheme::utorus) CHECK(p.steps == ceil_log(d, 2));
          if (s == SciScheme::mutorus) CHECK(p.phases == ceil_log(d, r));
          if (s == SciScheme::mdtorus) CHECK(p.phases <= t.dimensions());
        }
    }
  }
}

TEST_CASE("seed004 M_d in 3D: planes first, then ringlets", "[sci]") {
  const DirectTopology t = DirectTopology::torus({4, 4, 4}, false);
  // Root (0,0,0); destinations in its plane's other row, and in another plane.
  const std::vector<NodeId> dests = {t.parse_node("(0,1,2)"), t.parse_node("(0,1,3)"), t.parse_node("(2,3,1)"),
                                     t.parse_node("(2,0,0)")};
  const algo::SciPlan p = algo::plan_sci(t, SciScheme::mdtorus, t.parse_node("(0,0,0)"), dests);
  CHECK(p.phases == 3);
  CHECK(algo::sci_violations(t, p).empty());
  // The other plane's head gets both of its nodes; the root's plane's other row is a phase-2 send.
  const algo::SciUnicast& plane = p.unicasts.front();
  CHECK(plane.phase == 1);
  CHECK(plane.field.size() == 2);
  CHECK(t.sigma(plane.receiver, 2) == 2);
  CHECK(unicast_to(p, t.parse_node("(0,1,2)")).phase == 2);
  CHECK(unicast_to(p, t.parse_node("(0,1,3)")).phase == 3);
}

TEST_CASE("seed004 checker catches broken plans", "[sci]") {
  const Fig1 f;
  const algo::SciPlan good = algo::plan_sci(f.t, SciScheme::utorus, f.root, f.dests);
  algo::SciPlan twice = good;
  twice.unicasts.push_back(good.unicasts.back());
  twice.unicasts.back().step = good.steps + 1;
  twice.steps = good.steps + 1;
  CHECK_THAT(algo::sci_violations(f.t, twice).front(), Contains("receives 2 times"));
  algo::SciPlan early = good;
  early.unicasts.back().step = 1;   // (4,2) sends before it holds the message
  bool found = false;
  for (const std::string& s : algo::sci_violations(f.t, early)) found = found || s.find("before it holds") != std::string::npos;
  CHECK(found);
  algo::SciPlan stolen = good;
  stolen.unicasts.front().field.push_back(f.root);
  found = false;
  for (const std::string& s : algo::sci_violations(f.t, stolen)) found = found || s.find("not in its field") != std::string::npos;
  CHECK(found);
  algo::SciPlan lost = good;
  lost.unicasts.pop_back();
  found = false;
  for (const std::string& s : algo::sci_violations(f.t, lost)) found = found || s.find("never receives") != std::string::npos;
  CHECK(found);
}

TEST_CASE("seed004 planners refuse bad groups and topologies", "[sci][errors]") {
  const Fig1 f;
  CHECK_THROWS_WITH(algo::plan_sci(DirectTopology::mesh({4, 4}), SciScheme::utorus, 0, {1}), Contains("needs a torus"));
  CHECK_THROWS_WITH(algo::plan_sci(DirectTopology::torus({4, 8}, false), SciScheme::storus, 0, {1}),
                    Contains("regular k-ary torus"));
  CHECK_THROWS_WITH(algo::plan_sci(f.t, SciScheme::mutorus, f.root, f.dests, 1), Contains("r >= 2"));
  CHECK_THROWS_WITH(algo::plan_sci(f.t, SciScheme::separate, f.root, {1, 1}), Contains("listed twice"));
  CHECK_THROWS_WITH(algo::plan_sci(f.t, SciScheme::separate, f.root, {f.root}), Contains("is the root"));
  CHECK_THROWS_WITH(algo::plan_sci(f.t, SciScheme::separate, f.root, {}), Contains("no destinations"));
  CHECK_THROWS_WITH(algo::plan_sci(f.t, SciScheme::separate, f.root, {16}), Contains("not a node"));
  // U-torus works on a non-regular torus (Φ′ needs no labels).
  CHECK(algo::plan_sci(DirectTopology::torus({4, 8}, false), SciScheme::utorus, 0, {1, 9, 17}).steps == 2);
}
