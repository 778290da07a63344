// seed000 §5.6-§5.7 worked example (Figs. 14-16): POC chains and the Greedy /
// Less-Greedy schedules for path-based and SSR worms. Expected values come
// from the paper's text; the network is reconstructed (switchmc_fixtures.h).
#include <catch2/catch.hpp>

#include "algorithms/down_dag.h"
#include "algorithms/multiphase.h"
#include "algorithms/poc.h"
#include "algorithms/ssr.h"
#include "algorithms/worm_check.h"
#include "switchmc_fixtures.h"

using namespace wormcast::algo;
using namespace switchmc_test;

namespace {

std::vector<SwitchId> paper_ids(const std::vector<SwitchId>& v) {
  std::vector<SwitchId> out;
  for (SwitchId s : v) out.push_back(paper_sw(s));
  return out;
}

// Both destinations of each listed switch, in order.
std::vector<NodeId> procs_of(std::initializer_list<int> switches) {
  std::vector<NodeId> out;
  for (int s : switches) { out.push_back(proc(s, 1)); out.push_back(proc(s, 2)); }
  return out;
}

struct Expected {
  NodeId sender;
  int phase;
  std::vector<NodeId> dests;
};

void require_schedule(const Schedule& s, int phases, const std::vector<Expected>& want) {
  CHECK(s.phases == phases);
  REQUIRE(s.worms.size() == want.size());
  for (std::size_t i = 0; i < want.size(); ++i) {
    INFO("worm " << i);
    CHECK(s.worms[i].sender == want[i].sender);
    CHECK(s.worms[i].phase == want[i].phase);
    CHECK(s.worms[i].destinations == want[i].dests);
  }
}

}  // namespace

TEST_CASE("switchmc: Fig. 14 network: levels and the down-DAG between levels (Definition 5)", "[switchmc][poc]") {
  const Topology t = fig14();
  const UpDownRouting r = fig14_routing(t);
  REQUIRE(r.root() == sw(6));
  const int want_level[11] = {-1, 1, 2, 2, 1, 1, 0, 2, 2, 3, 1};
  for (int s = 1; s <= 10; ++s) CHECK(r.level(sw(s)) == want_level[s]);
  const DownDag g = build_down_dag(t, r);
  using V = std::vector<SwitchId>;
  CHECK(paper_ids(g.children[sw(6)]) == V{1, 4, 5, 10});
  CHECK(paper_ids(g.children[sw(1)]) == V{7});   // 1-4 is a same-level link: excluded
  CHECK(paper_ids(g.children[sw(4)]) == V{8});
  CHECK(paper_ids(g.children[sw(5)]) == V{2, 3});
  CHECK(paper_ids(g.children[sw(3)]) == V{9});
  CHECK(paper_ids(g.children[sw(7)]) == V{9});
  CHECK(paper_ids(g.parents[sw(9)]) == V{3, 7});
  CHECK(g.children[sw(9)].empty());
}

TEST_CASE("switchmc: Fig. 14(c): T' and the step-4 weights", "[switchmc][poc]") {
  const Topology t = fig14();
  const UpDownRouting r = fig14_routing(t);
  std::vector<int> rho(10, 2);
  rho[sw(6)] = 0;    // no participant on 6
  rho[sw(10)] = 1;   // only the source
  const ReducedDag g = reduce_down_dag(build_down_dag(t, r), rho);
  CHECK_FALSE(g.participating(sw(6)));
  // Desc sets by hand: 5:{5,3,9,2} 1:{1,7,9} 4:{4,8} 3:{3,9} 7:{7,9}.
  CHECK(g.weight[sw(5)] == 8);
  CHECK(g.weight[sw(1)] == 6);
  CHECK(g.weight[sw(4)] == 4);
  CHECK(g.weight[sw(3)] == 4);
  CHECK(g.weight[sw(7)] == 4);
  CHECK(g.weight[sw(9)] == 2);
  CHECK(g.weight[sw(2)] == 2);
  CHECK(g.weight[sw(10)] == 1);
}

TEST_CASE("switchmc: Fig. 14(d): chains <5,3,9>, <1,7>, <4,8>, <2>, then switch 10's", "[switchmc][poc]") {
  const Topology t = fig14();
  const UpDownRouting r = fig14_routing(t);
  const std::vector<Poc> chains = find_pocs(t, r, fig14_source(), fig14_dests());
  using V = std::vector<SwitchId>;
  REQUIRE(chains.size() == 5);
  CHECK(paper_ids(chains[0].switches) == V{5, 3, 9});
  CHECK(paper_ids(chains[1].switches) == V{1, 7});
  CHECK(paper_ids(chains[2].switches) == V{4, 8});
  CHECK(paper_ids(chains[3].switches) == V{2});
  CHECK(paper_ids(chains[4].switches) == V{10});
  CHECK(chains[0].nodes == procs_of({5, 3, 9}));
  CHECK(chains[4].nodes.empty());   // the source is dropped: no worm for this chain
  const auto worms = path_worm_destinations(t, r, fig14_source(), fig14_dests());
  CHECK(worms.size() == 4);
}

TEST_CASE("switchmc: Fig. 15(b) / 16(b): path-based Greedy and Less-Greedy, 2 phases", "[switchmc][multiphase]") {
  const Topology t = fig14();
  const UpDownRouting r = fig14_routing(t);
  const NodeId src = fig14_source();
  const Schedule g = plan_path_based(t, r, src, fig14_dests(), Scheduler::greedy);
  // Fig. 15(b): source -> <5,3,9>; then source -> <1,7>, the first switch-5
  // destination -> <4,8>, the second switch-5 destination -> <2>.
  require_schedule(g, 2,
                   {{src, 1, procs_of({5, 3, 9})},
                    {src, 2, procs_of({1, 7})},
                    {proc(5, 1), 2, procs_of({4, 8})},
                    {proc(5, 2), 2, procs_of({2})}});
  // Fig. 16(b): as Greedy but <2> comes from a switch-3 destination.
  const Schedule lg = plan_path_based(t, r, src, fig14_dests(), Scheduler::less_greedy);
  require_schedule(lg, 2,
                   {{src, 1, procs_of({5, 3, 9})},
                    {src, 2, procs_of({1, 7})},
                    {proc(5, 1), 2, procs_of({4, 8})},
                    {proc(3, 1), 2, procs_of({2})}});
  // The first worm climbs from 10 to the root 6 and then only goes down.
  using V = std::vector<SwitchId>;
  CHECK(paper_ids(lg.worms[0].route.path) == V{10, 6, 5, 3, 9});
  CHECK(check_schedule(t, r.root(), g, fig14_dests()).empty());
  CHECK(check_schedule(t, r.root(), lg, fig14_dests()).empty());
}

TEST_CASE("switchmc: Fig. 15(a): SSR Greedy, 3 phases", "[switchmc][multiphase]") {
  const Topology t = fig14();
  const UpDownRouting r = fig14_routing(t);
  const NodeId src = fig14_source();
  const Schedule g = plan_ssr(t, r, src, fig14_dests(), Scheduler::greedy);
  // Text: source -> 5; then source, p5,1, p5,2 -> 3, 9, 1; then "the rest".
  // Phase 3 follows the stated sender order (source, then destinations in
  // order of coverage): 7, 4, 8, 2 go to source, p5,1, p5,2, p3,1.
  require_schedule(g, 3,
                   {{src, 1, procs_of({5})},
                    {src, 2, procs_of({3})},
                    {proc(5, 1), 2, procs_of({9})},
                    {proc(5, 2), 2, procs_of({1})},
                    {src, 3, procs_of({7})},
                    {proc(5, 1), 3, procs_of({4})},
                    {proc(5, 2), 3, procs_of({8})},
                    {proc(3, 1), 3, procs_of({2})}});
  CHECK(check_schedule(t, r.root(), g, fig14_dests()).empty());
}

TEST_CASE("switchmc: Fig. 16(a): SSR Less-Greedy, 4 phases", "[switchmc][multiphase]") {
  const Topology t = fig14();
  const UpDownRouting r = fig14_routing(t);
  const NodeId src = fig14_source();
  const Schedule lg = plan_ssr(t, r, src, fig14_dests(), Scheduler::less_greedy);
  // Text: source -> 5; source -> 3 and a switch-5 destination -> 9; source ->
  // 1 and a switch-5 destination -> 7 "and so on" (switch 3 -> 4, switch 9 ->
  // 8); then the rest (2). Completes in 4 steps.
  require_schedule(lg, 4,
                   {{src, 1, procs_of({5})},
                    {src, 2, procs_of({3})},
                    {proc(5, 1), 2, procs_of({9})},
                    {src, 3, procs_of({1})},
                    {proc(5, 1), 3, procs_of({7})},
                    {proc(3, 1), 3, procs_of({4})},
                    {proc(9, 1), 3, procs_of({8})},
                    {src, 4, procs_of({2})}});
  CHECK(check_schedule(t, r.root(), lg, fig14_dests()).empty());
}

TEST_CASE("switchmc: SSR worms: one per switch, port strings mark the destination ports", "[switchmc][ssr]") {
  const Topology t = fig14();
  const UpDownRouting r = fig14_routing(t);
  const std::vector<SsrWorm> w = ssr_worms(t, r, fig14_source(), fig14_dests());
  REQUIRE(w.size() == 8);
  using V = std::vector<SwitchId>;
  V order;
  for (const SsrWorm& x : w) order.push_back(paper_sw(x.sw));
  CHECK(order == V{5, 3, 9, 1, 7, 4, 8, 2});
  CHECK(w[0].port_bits == std::vector<bool>{true, true, false, false, false, false});
  CHECK(w[0].id(SsrId::switch_id) == sw(5));
  CHECK(w[0].id(SsrId::node_id) == proc(5, 1));
  // Only p5,2 as destination: a one-bit string on port 1.
  const std::vector<SsrWorm> one = ssr_worms(t, fig14_source(), {proc(5, 2)}, {sw(5)});
  REQUIRE(one.size() == 1);
  CHECK(one[0].port_bits == std::vector<bool>{false, true, false, false, false, false});
  CHECK_THROWS_AS(ssr_worms(t, fig14_source(), {proc(5, 2)}, {sw(3)}), std::invalid_argument);
}

TEST_CASE("switchmc: Fig. 13 readings as options: weight recomputation, DFS tree for step 1", "[switchmc][poc]") {
  const Topology t = fig14();
  const UpDownRouting r = fig14_routing(t);
  using V = std::vector<SwitchId>;
  auto chains_with = [&](PocOptions opt) {
    std::vector<V> out;
    for (const Poc& p : find_pocs(t, r, fig14_source(), fig14_dests(), opt)) out.push_back(paper_ids(p.switches));
    return out;
  };
  // Recomputing after <5,3,9> leaves 1:{1,7}=4, 4:{4,8}=4 (tie -> lower id 1):
  // the same chains as the paper.
  PocOptions recompute;
  recompute.recompute_weights = true;
  CHECK(chains_with(recompute) == std::vector<V>{{5, 3, 9}, {1, 7}, {4, 8}, {2}, {10}});
  // DFS tree from 6, children in ascending id: 6-1-7-9, 6-4-8, 6-5-2, 5-3
  // (9 already seen), 6-10. Weights 1:{1,7,9}=6, 5:{5,2,3}=6 (tie -> 1),
  // then 5 with children 2 and 3 of weight 2 (tie -> 2).
  PocOptions dfs;
  dfs.dag = PocDag::dfs_tree;
  CHECK(chains_with(dfs) == std::vector<V>{{1, 7, 9}, {5, 2}, {4, 8}, {3}, {10}});
  const DownDag tree = dfs_tree(build_down_dag(t, r));
  CHECK(paper_ids(tree.children[sw(3)]).empty());
  CHECK(paper_ids(tree.parents[sw(9)]) == V{7});
}
