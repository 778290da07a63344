// InfiniBand fat-tree multicast of seed003 (algorithms/ib_multicast.h): the
// worked examples of spec/seed002_004.md (SEED 003 Fig. 2 definitions, Fig. 4
// addressing, Fig. 5 cyclic groups, §6 path Q, Fig. 7 multicast table) as
// goldens; Eqs. 1-2 routing every LID to its owner and the cyclic up-port
// rule as exhaustive properties; cyclic and OpenSM tables delivering exactly
// once on fixed-seed random groups; the OpenSM root; the link counts of the
// one-to-many case; the checker catching broken tables; the errors.
#include <catch2/catch.hpp>

#include <algorithm>
#include <map>
#include <numeric>
#include <random>
#include <set>
#include <string>
#include <utility>
#include <vector>

#include "algorithms/ib_multicast.h"
#include "algorithms/ib_scheme.h"
#include "topologies/fat_tree.h"

using namespace wormcast;
using algo::IbHop;
using algo::Mft;
using Catch::Contains;
using topo::FatTree;
using topo::NodeId;

namespace {

const std::vector<std::pair<int, int>> kTrees = {{4, 2}, {4, 3}, {8, 2}, {8, 3}};

std::vector<NodeId> nodes(const FatTree& t, const std::vector<std::string>& names) {
  std::vector<NodeId> out;
  for (const std::string& s : names) out.push_back(t.parse_node(s));
  return out;
}

int sw(const FatTree& t, const std::string& name) { return t.parse_switch(name); }

struct Group {
  NodeId src;
  std::vector<NodeId> dests;
};

// A random source and 1..N-1 distinct other nodes.
Group random_group(const FatTree& t, std::mt19937& rng) {
  std::vector<NodeId> all(static_cast<std::size_t>(t.num_nodes()));
  std::iota(all.begin(), all.end(), 0);
  std::shuffle(all.begin(), all.end(), rng);
  std::uniform_int_distribution<int> size(1, t.num_nodes() - 1);
  return {all[0], std::vector<NodeId>(all.begin() + 1, all.begin() + 1 + size(rng))};
}

std::vector<NodeId> with(std::vector<NodeId> v, NodeId x) {
  v.push_back(x);
  return v;
}

std::string show(const std::vector<std::string>& problems) {
  std::string s;
  for (const std::string& p : problems) s += p + "\n";
  return s;
}

}  // namespace

TEST_CASE("ib: gcp, lca, rank and PID of Fig. 2", "[ib]") {
  const FatTree t(4, 3);
  const NodeId p200 = t.parse_node("P(200)"), p211 = t.parse_node("P(211)");
  CHECK(algo::gcp_length(t, p200, p211) == 1);
  CHECK(algo::lca_switches(t, p200, p211) == std::vector<int>{sw(t, "SW<20,1>"), sw(t, "SW<21,1>")});
  CHECK(algo::gcp_length(t, t.parse_node("P(100)"), t.parse_node("P(111)")) == 1);   // both in gcp_g(1,1)
  CHECK(algo::rank_in_group(t, p200, 1) == 0);
  CHECK(algo::rank_in_group(t, p211, 1) == 3);
  CHECK(algo::rank_in_group(t, p200, 0) == 8);   // PID
  CHECK(algo::rank_in_group(t, p211, 0) == 11);
  CHECK(algo::rank_in_group(t, p211, 3) == 0);
  // α = 0: all level-0 switches; α = n-1: the one leaf switch
  CHECK(algo::lca_switches(t, t.parse_node("P(000)"), p200).size() == 4);
  CHECK(algo::lca_switches(t, p200, t.parse_node("P(201)")) == std::vector<int>{sw(t, "SW<20,2>")});
  CHECK(algo::gcp_length(t, p200, p200) == 3);
  CHECK_THROWS_WITH(algo::lca_switches(t, p200, p200), Contains("P(200)"));
  CHECK_THROWS_WITH(algo::rank_in_group(t, p200, 4), Contains("alpha = 4"));
  CHECK_THROWS_WITH(algo::gcp_length(t, 16, 0), Contains("16"));
}

TEST_CASE("ib: LIDs of Fig. 4 (2^LMC = h^(n-1) per node, BaseLID = 2^LMC PID + 1)", "[ib]") {
  const FatTree t(4, 3);
  CHECK(algo::lids_per_node(t) == 4);
  CHECK(algo::base_lid(t, t.parse_node("P(300)")) == 49);
  CHECK(algo::base_lid(t, t.parse_node("P(200)")) == 33);
  for (int lid = 49; lid <= 52; ++lid) CHECK(algo::lid_owner(t, lid) == t.parse_node("P(300)"));
  CHECK(algo::lid_owner(t, 53) != t.parse_node("P(300)"));

  const FatTree big(8, 3);
  CHECK(algo::lids_per_node(big) == 16);
  CHECK(algo::lid_owner(big, 1) == 0);
  CHECK(algo::lid_owner(big, 2048) == 127);
  CHECK_THROWS_WITH(algo::lid_owner(big, 2049), Contains("2049"));
  CHECK_THROWS_WITH(algo::lid_owner(big, 0), Contains("LID 0"));
  CHECK(algo::lids_per_node(FatTree(4, 8)) == 128);
  CHECK_THROWS_WITH(algo::lids_per_node(FatTree(4, 9)), Contains("n = 9"));      // 256 LIDs
  CHECK_THROWS_WITH(algo::lids_per_node(FatTree(6, 3)), Contains("m = 6"));      // h = 3
  CHECK_THROWS_WITH(algo::lids_per_node(FatTree(32, 3)), Contains("m = 32"));    // 256 LIDs
}

TEST_CASE("ib: cyclic groups and DLIDs of Fig. 5 (destination P(200) in IBFT(4,3))", "[ib]") {
  const FatTree t(4, 3);
  const NodeId dst = t.parse_node("P(200)");
  // CG(P(200), l, y): lca level l and source suffix y = digits l+1..n-1
  std::map<std::pair<int, int>, std::set<NodeId>> groups;
  std::map<std::pair<int, int>, std::set<int>> dlids;
  for (NodeId s = 0; s < t.num_nodes(); ++s) {
    if (s == dst) continue;
    const int l = algo::gcp_length(t, s, dst);
    const std::pair<int, int> key{l, algo::rank_in_group(t, s, l + 1)};
    groups[key].insert(s);
    dlids[key].insert(algo::cyclic_dlid(t, s, dst));
  }
  auto set = [&](const std::vector<std::string>& names) {
    const std::vector<NodeId> v = nodes(t, names);
    return std::set<NodeId>(v.begin(), v.end());
  };
  CHECK(groups.size() == 7);
  CHECK(groups[{0, 0}] == set({"P(000)", "P(100)", "P(300)"}));
  CHECK(groups[{0, 1}] == set({"P(001)", "P(101)", "P(301)"}));
  CHECK(groups[{0, 2}] == set({"P(010)", "P(110)", "P(310)"}));
  CHECK(groups[{0, 3}] == set({"P(011)", "P(111)", "P(311)"}));
  CHECK(groups[{1, 0}] == set({"P(210)"}));
  CHECK(groups[{1, 1}] == set({"P(211)"}));
  CHECK(groups[{2, 0}] == set({"P(201)"}));
  for (const auto& [key, lids] : dlids) CHECK(lids.size() == 1);   // one DLID per cyclic group
  CHECK(algo::cyclic_dlid(t, t.parse_node("P(000)"), dst) == 33);
  CHECK(algo::cyclic_dlid(t, t.parse_node("P(001)"), dst) == 34);
  CHECK(algo::cyclic_dlid(t, t.parse_node("P(010)"), dst) == 35);
  CHECK(algo::cyclic_dlid(t, t.parse_node("P(011)"), dst) == 36);
  CHECK_THROWS_WITH(algo::cyclic_dlid(t, dst, dst), Contains("P(200)"));
}

TEST_CASE("ib: path Q of §6 (P(000) to DLID 33 in IBFT(4,3))", "[ib]") {
  const FatTree t(4, 3);
  const std::vector<IbHop> want = {{sw(t, "SW<00,2>"), 1, 3},
                                   {sw(t, "SW<00,1>"), 1, 3},
                                   {sw(t, "SW<00,0>"), 1, 3},
                                   {sw(t, "SW<20,1>"), 3, 1},
                                   {sw(t, "SW<20,2>"), 3, 1}};
  CHECK(algo::trace_unicast(t, t.parse_node("P(000)"), 33) == want);
  CHECK(algo::lft_port(t, sw(t, "SW<00,2>"), 33) == 3);   // Case 2
  CHECK(algo::lft_port(t, sw(t, "SW<00,0>"), 33) == 3);   // Case 1
  CHECK_THROWS_WITH(algo::lft_port(t, 20, 33), Contains("switch 20"));
  CHECK_THROWS_WITH(algo::trace_unicast(t, 0, 65), Contains("65"));
}

TEST_CASE("ib: multicast table of Fig. 7 (P(000) to P(200) P(201) P(210) P(211))", "[ib]") {
  const FatTree t(4, 3);
  const NodeId src = t.parse_node("P(000)");
  const std::vector<NodeId> dests = nodes(t, {"P(200)", "P(201)", "P(210)", "P(211)"});
  std::vector<int> lids;
  for (NodeId d : dests) lids.push_back(algo::cyclic_dlid(t, src, d));
  CHECK(lids == std::vector<int>{33, 37, 41, 45});
  const Mft want = {{sw(t, "SW<00,2>"), {3}}, {sw(t, "SW<00,1>"), {3}}, {sw(t, "SW<00,0>"), {3}},
                    {sw(t, "SW<20,1>"), {1, 2}}, {sw(t, "SW<20,2>"), {1, 2}}, {sw(t, "SW<21,2>"), {1, 2}}};
  const Mft mft = algo::cyclic_mft(t, src, dests);
  CHECK(mft == want);
  CHECK(algo::ib_mft_violations(t, src, dests, mft).empty());
  // P(210)'s route: ... SW<20,1>_2 -> SW<21,2>_3 -> SW<21,2>_1
  const std::vector<IbHop> r = algo::trace_unicast(t, src, 41);
  REQUIRE(r.size() == 5);
  CHECK(r[3] == IbHop{sw(t, "SW<20,1>"), 3, 2});
  CHECK(r[4] == IbHop{sw(t, "SW<21,2>"), 3, 1});
  const algo::MftDelivery got = algo::deliver_mft(t, src, mft);
  CHECK(got.link_traversals == 10);   // injection + 3 links to SW<20,1> + 2 to level 2 + 4 to the nodes
  CHECK(std::accumulate(got.switch_visits.begin(), got.switch_visits.end(), 0) == 6);
}

TEST_CASE("ib: every LID of every node routes to its owner on a shortest path (Eqs. 1-2)", "[ib]") {
  for (const auto& [m, n] : kTrees) {
    const FatTree t(m, n);
    CAPTURE(t.spec());
    const int lids = t.num_nodes() * algo::lids_per_node(t);
    int wrong = 0;
    for (NodeId s = 0; s < t.num_nodes(); ++s)
      for (int lid = 1; lid <= lids; ++lid) {
        const NodeId owner = algo::lid_owner(t, lid);
        const std::vector<IbHop> hops = algo::trace_unicast(t, s, lid);   // throws if it does not reach owner
        const int alpha = algo::gcp_length(t, s, owner);
        const std::size_t shortest = alpha == n ? 1 : static_cast<std::size_t>(2 * (n - 1 - alpha) + 1);
        wrong += hops.size() != shortest;
      }
    CHECK(wrong == 0);
  }
}

TEST_CASE("ib: a cyclic route climbs through up port p'_j + h + 1 of the source at level j", "[ib]") {
  for (const auto& [m, n] : std::vector<std::pair<int, int>>{{4, 3}, {8, 3}, {4, 4}}) {
    const FatTree t(m, n);
    CAPTURE(t.spec());
    for (NodeId s = 0; s < t.num_nodes(); ++s)
      for (NodeId d = 0; d < t.num_nodes(); ++d) {
        if (s == d) continue;
        bool descending = false;
        for (const IbHop& hop : algo::trace_unicast(t, s, algo::cyclic_dlid(t, s, d))) {
          const int level = t.switch_level(hop.sw);
          if (!t.is_up_port(hop.sw, hop.out_port)) {
            descending = true;
            continue;
          }
          REQUIRE_FALSE(descending);   // up, then down
          REQUIRE(hop.out_port == t.node_digit(s, level) + t.h() + 1);
        }
      }
  }
  // the top switch of P(p_0 p_1 p_2) in IBFT(m,3) is SW<(p_2, p_1), 0>
  const FatTree t(8, 3);
  std::vector<int> per_top(static_cast<std::size_t>(t.switches_at_level(0)), 0);
  for (NodeId s = 0; s < t.num_nodes(); ++s) {
    const std::vector<IbHop> r = algo::trace_unicast(t, s, algo::cyclic_dlid(t, s, (s + 64) % 128));
    CHECK(r[2].sw == t.switch_id({{t.node_digit(s, 2), t.node_digit(s, 1)}, 0}));
    ++per_top[r[2].sw];
  }
  CHECK(per_top == std::vector<int>(16, 8));
}

TEST_CASE("ib: cyclic and OpenSM tables deliver exactly once on 300 random groups per topology", "[ib]") {
  std::mt19937 rng(20070316);
  int cases = 0, same_links = 0;
  for (const auto& [m, n] : kTrees) {
    const FatTree t(m, n);
    CAPTURE(t.spec());
    for (int i = 0; i < 300; ++i) {
      const Group g = random_group(t, rng);
      CAPTURE(t.node_name(g.src), g.dests.size());
      const Mft cyclic = algo::cyclic_mft(t, g.src, g.dests);
      const Mft opensm = algo::opensm_mft(t, with(g.dests, g.src));   // the source joins the group
      INFO(show(algo::ib_mft_violations(t, g.src, g.dests, cyclic)));
      CHECK(algo::ib_mft_violations(t, g.src, g.dests, cyclic).empty());
      INFO(show(algo::ib_mft_violations(t, g.src, g.dests, opensm)));
      CHECK(algo::ib_mft_violations(t, g.src, g.dests, opensm).empty());
      // one-to-many: both are shortest-path trees over dests ∪ {source}; the links are one per distinct
      // l-prefix of a member for l above the group's common prefix L, plus one per member
      const int a = algo::deliver_mft(t, g.src, cyclic).link_traversals;
      const int b = algo::deliver_mft(t, g.src, opensm).link_traversals;
      int common = n;
      for (NodeId d : g.dests) common = std::min(common, algo::gcp_length(t, g.src, d));
      int expected = static_cast<int>(g.dests.size()) + 1;
      for (int l = common + 1; l < n; ++l) {
        std::set<NodeId> prefixes{g.src / t.pow_h(n - l)};
        for (NodeId d : g.dests) prefixes.insert(d / t.pow_h(n - l));
        expected += static_cast<int>(prefixes.size());
      }
      CHECK(a == expected);
      CHECK(b == expected);
      ++cases;
      same_links += a == b;
    }
  }
  CHECK(same_links == cases);
}

TEST_CASE("ib: OpenSM root switch and a shared tree for many senders", "[ib]") {
  const FatTree t(8, 3);
  std::mt19937 rng(16);
  for (int i = 0; i < 50; ++i) {
    const Group g = random_group(t, rng);
    std::vector<NodeId> members = with(g.dests, g.src);
    members.push_back((members[0] + 32) % 128);   // a second level-0 subtree (p_0 differs)
    std::sort(members.begin(), members.end());
    members.erase(std::unique(members.begin(), members.end()), members.end());
    const int root = algo::opensm_root(t, members);
    CHECK(t.switch_level(root) == 0);
    CHECK(root == 0);   // every level-0 switch ties at 3 hops: the lowest id, SW<00,0>
    // the one shared tree: every member's packet reaches every other member exactly once
    const Mft mft = algo::opensm_mft(t, members);
    for (NodeId s : members) {
      std::vector<NodeId> others;
      for (NodeId x : members)
        if (x != s) others.push_back(x);
      INFO(show(algo::ib_mft_violations(t, s, others, mft)));
      CHECK(algo::ib_mft_violations(t, s, others, mft).empty());
      CHECK(algo::deliver_mft(t, s, mft).switch_visits[0] == 1);   // through the one root
    }
  }
  // members under one leaf switch: the leaf switch is the root; under one level-1 subtree: a level-1 switch
  CHECK(algo::opensm_root(t, nodes(t, {"P(000)", "P(003)"})) == t.parse_switch("SW<00,2>"));
  CHECK(t.switch_level(algo::opensm_root(t, nodes(t, {"P(000)", "P(013)", "P(033)"}))) == 1);
  CHECK(algo::switch_hops_from(t, 0)[t.parse_switch("SW<33,2>")] == 2);
  CHECK_THROWS_WITH(algo::opensm_root(t, {}), Contains("no members"));
  CHECK_THROWS_WITH(algo::opensm_mft(t, {1, 1}), Contains("twice"));
  CHECK_THROWS_WITH(algo::opensm_mft(t, {128}), Contains("128"));
}

TEST_CASE("ib: unicast baseline routes one cyclic-DLID packet per destination", "[ib]") {
  const FatTree t(4, 3);
  const NodeId src = t.parse_node("P(000)");
  const std::vector<NodeId> dests = nodes(t, {"P(200)", "P(001)", "P(210)"});
  const std::vector<std::vector<IbHop>> routes = algo::unicast_routes(t, src, dests);
  REQUIRE(routes.size() == 3);
  CHECK(routes[0] == algo::trace_unicast(t, src, 33));
  CHECK(routes[1].size() == 1);   // same leaf switch
  CHECK(routes[1][0] == IbHop{sw(t, "SW<00,2>"), 1, 2});
  CHECK(routes[2] == algo::trace_unicast(t, src, 41));
}

TEST_CASE("ib: the checker catches duplicates, misses, extra receivers and loops", "[ib]") {
  const FatTree t(4, 3);
  const NodeId src = t.parse_node("P(000)"), p200 = t.parse_node("P(200)");
  // Fig. 3(c): replicating while ascending duplicates (two up ports, two top switches, one destination)
  const Mft twice = {{sw(t, "SW<00,2>"), {3, 4}}, {sw(t, "SW<00,1>"), {3}}, {sw(t, "SW<01,1>"), {3}},
                     {sw(t, "SW<00,0>"), {3}},    {sw(t, "SW<10,0>"), {3}}, {sw(t, "SW<20,1>"), {1}},
                     {sw(t, "SW<21,1>"), {1}},    {sw(t, "SW<20,2>"), {1}}};
  const std::vector<std::string> dup = algo::ib_mft_violations(t, src, {p200}, twice);
  CHECK_THAT(show(dup), Contains("destination P(200) received 2 copies"));
  CHECK_THAT(show(dup), Contains("switch SW<20,2> visited 2 times"));
  CHECK_THAT(show(algo::ib_mft_violations(t, src, {p200}, Mft{})), Contains("P(200) received 0 copies"));
  const Mft fig7 = algo::cyclic_mft(t, src, nodes(t, {"P(200)", "P(201)", "P(210)", "P(211)"}));
  CHECK_THAT(show(algo::ib_mft_violations(t, src, {p200}, fig7)), Contains("non-destination P(211) received 1"));
  Mft flood;   // every port of every switch: loops
  for (int s = 0; s < t.num_switches(); ++s) flood[s] = {1, 2, 3, 4};
  CHECK_THROWS_AS(algo::deliver_mft(t, src, flood), std::logic_error);
  CHECK_THAT(show(algo::ib_mft_violations(t, src, {p200}, flood)), Contains("loops"));
  // a source never receives its own packet, even when its port is in the table
  const algo::MftDelivery self = algo::deliver_mft(t, src, {{sw(t, "SW<00,2>"), {1, 2}}});
  CHECK(self.received[src] == 0);
  CHECK(self.received[t.parse_node("P(001)")] == 1);
  CHECK_THROWS_WITH(algo::deliver_mft(t, src, {{sw(t, "SW<00,2>"), {5}}}), Contains("port 5"));
  CHECK_THROWS_WITH(algo::deliver_mft(t, src, {{20, {1}}}), Contains("switch 20"));
}

TEST_CASE("ib: bad destination lists throw naming the node", "[ib]") {
  const FatTree t(4, 3);
  CHECK_THROWS_WITH(algo::cyclic_mft(t, 0, {}), Contains("no destinations"));
  CHECK_THROWS_WITH(algo::cyclic_mft(t, 0, {0}), Contains("P(000) is the source"));
  CHECK_THROWS_WITH(algo::cyclic_mft(t, 0, {3, 3}), Contains("P(011) is listed twice"));
  CHECK_THROWS_WITH(algo::cyclic_mft(t, 0, {16}), Contains("16"));
  CHECK_THROWS_WITH(algo::cyclic_mft(t, -1, {3}), Contains("-1"));
  CHECK_THROWS_WITH(algo::unicast_routes(t, 0, {0}), Contains("is the source"));
  CHECK_THROWS_WITH(algo::ib_mft_violations(t, 0, {}, Mft{}), Contains("no destinations"));
  CHECK_THROWS_AS(algo::cyclic_mft(FatTree(6, 3), 0, {1}), std::invalid_argument);   // h = 3: no LMC
}

// Whether every switch src's packet visits through mft, apart from src's
// own leaf switch, is needed: dropping the packet there (removing the entry)
// leaves some member of `members` without its copy.
bool every_visit_needed(const FatTree& t, NodeId src, const std::vector<NodeId>& members, const Mft& mft) {
  const algo::MftDelivery all = algo::deliver_mft(t, src, mft);
  for (int sw = 0; sw < t.num_switches(); ++sw) {
    if (all.switch_visits[static_cast<std::size_t>(sw)] == 0 || sw == t.leaf_switch(src)) continue;
    Mft without = mft;
    without.erase(sw);
    const algo::MftDelivery cut = algo::deliver_mft(t, src, without);
    bool lost = false;
    for (NodeId m : members) lost = lost || cut.received[static_cast<std::size_t>(m)] == 0;
    if (!lost) return false;
  }
  return true;
}

TEST_CASE("ib: OpenSM senders out of the tree reach exactly the members, in the tree the other senders too", "[ib]") {
  // Groups of random members and three senders that are not members; each
  // sender's packet checked by deliver_mft (ib_mft_violations): with
  // sender_ports out_of_tree exactly the members, and every switch it visits
  // is needed by one of them; with in_tree the members and the other senders.
  std::mt19937 rng(4747);
  for (const auto& [m, n] : kTrees) {
    const FatTree t(m, n);
    CAPTURE(t.spec());
    for (int i = 0; i < 50; ++i) {
      std::vector<NodeId> all(static_cast<std::size_t>(t.num_nodes()));
      std::iota(all.begin(), all.end(), 0);
      std::shuffle(all.begin(), all.end(), rng);
      const std::vector<NodeId> senders(all.begin(), all.begin() + 3);
      const long count = 1 + static_cast<long>(rng() % static_cast<unsigned>(std::min(8, t.num_nodes() - 3)));
      const std::vector<NodeId> members(all.begin() + 3, all.begin() + 3 + count);
      CAPTURE(i, count);
      for (const char* ports : {"in_tree", "out_of_tree"}) {
        CAPTURE(ports);
        std::unique_ptr<algo::IbScheme> s = algo::ib_schemes().make("opensm");
        algo::set_options(*s, {{"sender_ports", ports}}, algo::experiment_keys("opensm"));
        const algo::IbTrialPlan tp = s->trial(t, senders, members);
        REQUIRE(tp.tables.size() == 1);
        const algo::IbTable& table = tp.tables[0];
        CHECK(table.senders == std::vector<std::size_t>{0, 1, 2});
        const bool out = std::string(ports) == "out_of_tree";
        for (NodeId src : senders) {
          std::vector<NodeId> reach = members;
          if (!out)
            for (NodeId o : senders)
              if (o != src) reach.push_back(o);
          INFO(show(algo::ib_mft_violations(t, src, reach, table.mft)));
          CHECK(algo::ib_mft_violations(t, src, reach, table.mft).empty());
          if (out) CHECK(every_visit_needed(t, src, members, table.mft));
        }
      }
    }
  }
}

TEST_CASE("ib: prune_mft keeps the branches to the kept nodes and refuses bad input", "[ib]") {
  // IBFT(4,2): P(00), P(01) on SW<0,1>, P(10), P(11) on SW<1,1>; the tree
  // over all three of P(00), P(01), P(10) pruned to P(01): only P(00)'s
  // packet path to it survives, nothing goes down to SW<1,1>.
  const FatTree t(4, 2);
  const std::vector<NodeId> tree = nodes(t, {"P(00)", "P(01)", "P(10)"});
  const Mft full = algo::opensm_mft(t, tree);
  const Mft pruned = algo::prune_mft(t, full, nodes(t, {"P(01)"}));
  const int leaf0 = t.leaf_switch(tree[0]), leaf1 = t.leaf_switch(tree[2]);
  REQUIRE(pruned.count(leaf0) == 1);
  CHECK(pruned.at(leaf0) == std::vector<int>{t.leaf_port(tree[1])});   // P(01) only: the up port leads to none
  CHECK(pruned.count(leaf1) == 1);   // P(10)'s packet still climbs from SW<1,1>
  for (NodeId src : {tree[0], tree[2]}) {
    const algo::MftDelivery d = algo::deliver_mft(t, src, pruned);
    CHECK(d.received == std::vector<int>{0, 1, 0, 0, 0, 0, 0, 0});
  }
  CHECK(algo::deliver_mft(t, tree[0], pruned).link_traversals == 2);   // injection + the copy to P(01)
  CHECK(algo::prune_mft(t, full, tree) == full);                      // nothing to prune
  CHECK_THROWS_WITH(algo::prune_mft(t, full, {}), Contains("no members"));
  CHECK_THROWS_WITH(algo::prune_mft(t, full, {8}), Contains("member node 8"));
  CHECK_THROWS_WITH(algo::prune_mft(t, Mft{{0, {7}}}, tree), Contains("port 7"));
}
