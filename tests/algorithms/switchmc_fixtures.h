// Networks built by hand for the switch-based multicast tests (seed000 §5).
#pragma once

#include <vector>

#include "topologies/topology.h"
#include "topologies/updown.h"

namespace switchmc_test {

using namespace wormcast::topo;

// The Fig. 14(a) example. The figure itself is not in the text, so the
// network is reconstructed from what the text says about it:
//  * switches 1..10, two processors each; p_{i,1}, p_{i,2} on switch i;
//  * Fig. 17: switch 6 is the BFS root, 1 and 4 are both below 6, 1 has down
//    links to 4 and to 7 (so 1-4 is a same-level cross link, 4 > 1);
//  * Fig. 14(d): chains <5,3,9>, <1,7>, <4,8>, <2> and one with switch 10.
// Links (paper ids): 6-4 6-5 6-10 6-1 1-4 1-7 4-8 5-3 5-2 3-9 7-9, and with
// `link_4_7` the extra 4-7 link of Fig. 17(b).
// Levels: 6 | 1 4 5 10 | 7 8 3 2 | 9.
// Id mapping: the root, paper switch 6, is topology switch 0 so that
// RootRule::lowest_id picks it (with the 4-7 link, switch 4 has as many links
// as 6, so max_degree would not); the others keep their order (1..5 -> 1..5,
// 7..10 -> 6..9), so the same-level rule "lower id is up" is the paper's.
// p_{i,j} = node 2*sw(i)+(j-1) on port j-1; links take ports 2, 3, ... in the
// order listed.
inline SwitchId sw(int paper) { return paper == 6 ? 0 : (paper < 6 ? paper : paper - 1); }
inline int paper_sw(SwitchId s) { return s == 0 ? 6 : (s <= 5 ? s : s + 1); }
inline NodeId proc(int paper, int j) { return 2 * sw(paper) + (j - 1); }

inline Topology fig14(bool link_4_7 = false) {
  Topology t = Topology::empty(10, 6, "seed000 Fig. 14(a), reconstructed");
  std::vector<int> next(11, 2);
  auto link = [&](int a, int b) { t.connect(sw(a), next[a]++, sw(b), next[b]++); };
  link(6, 4); link(6, 5); link(6, 10); link(6, 1);
  link(1, 4); link(1, 7); link(4, 8); link(5, 3); link(5, 2); link(3, 9); link(7, 9);
  if (link_4_7) link(4, 7);
  for (int s = 1; s <= 10; ++s)
    for (int j = 1; j <= 2; ++j) t.attach(proc(s, j), sw(s), j - 1);
  t.validate();
  return t;
}

inline UpDownRouting fig14_routing(const Topology& t) { return UpDownRouting(t, RootRule::lowest_id); }

// Source p_{10,1}; two destinations on every switch but 10 and 6.
inline NodeId fig14_source() { return proc(10, 1); }
inline std::vector<NodeId> fig14_dests() {
  std::vector<NodeId> d;
  for (int s = 1; s <= 9; ++s)
    if (s != 6) { d.push_back(proc(s, 1)); d.push_back(proc(s, 2)); }
  return d;
}

}  // namespace switchmc_test
