// seed000 §5.4: SSR and multi-drop headers decoded switch by switch, as the
// switch decoders will do it, on the Fig. 14 example and random networks
// (Theorem 4: every minimal adaptive choice stays up*/down*).
#include <catch2/catch.hpp>

#include <random>

#include "algorithms/multiphase.h"
#include "algorithms/ssr.h"
#include "algorithms/switch_decode.h"
#include "algorithms/worm_check.h"
#include "switchmc_fixtures.h"

using namespace wormcast::algo;
using namespace switchmc_test;

namespace {

std::vector<NodeId> procs_of(std::initializer_list<int> switches) {
  std::vector<NodeId> out;
  for (int s : switches) { out.push_back(proc(s, 1)); out.push_back(proc(s, 2)); }
  return out;
}

}  // namespace

TEST_CASE("switchmc: Fig. 15(b) first worm decoded switch by switch: 10 -> 6 -> 5 -> 3 -> 9", "[switchmc][decode]") {
  const Topology t = fig14();
  const UpDownRouting r = fig14_routing(t);
  const HeaderGeometry g = HeaderGeometry::of(t);
  const std::vector<NodeId> dests = procs_of({5, 3, 9});
  for (SsrId kind : {SsrId::switch_id, SsrId::node_id}) {
    const Bits h = encode_multidrop(g, multidrop_pairs(t, dests, kind), kind);
    const PathWorm w = run_multidrop_worm(t, r, fig14_source(), h, kind);
    CHECK(w.path == std::vector<SwitchId>{sw(10), sw(6), sw(5), sw(3), sw(9)});
    CHECK(w.destinations == dests);
    CHECK(check_path_worm(t, r.root(), w).empty());
  }
}

TEST_CASE("switchmc: SSR decode: forward toward the named switch, replicate there", "[switchmc][decode]") {
  const Topology t = fig14();
  const UpDownRouting r = fig14_routing(t);
  const HeaderGeometry g = HeaderGeometry::of(t);
  const std::vector<SsrWorm> w = ssr_worms(t, fig14_source(), {proc(5, 1), proc(5, 2)}, {sw(5)});
  const Bits h = encode_ssr(g, ssr_pair(w[0]));
  // At switch 10 the only way to 5 is up to 6 (port 2, its only link).
  DropAction a = decode_ssr_at_switch(t, r, sw(10), Phase::may_go_up, h);
  CHECK(a.deliver.empty());
  CHECK(a.forward == 2);
  CHECK(a.forward_header == h);
  a = decode_ssr_at_switch(t, r, sw(5), Phase::down_only, h);
  CHECK(a.deliver == std::vector<PortId>{0, 1});
  CHECK(a.forward == -1);
  // Node-ID variant: the ID is p5,1; a switch-3 decoder routes toward it.
  const Bits hn = encode_ssr(g, ssr_pair(w[0], SsrId::node_id), SsrId::node_id);
  a = decode_ssr_at_switch(t, r, sw(5), Phase::down_only, hn, SsrId::node_id);
  CHECK(a.deliver == std::vector<PortId>{0, 1});
  a = decode_ssr_at_switch(t, r, sw(3), Phase::may_go_up, hn, SsrId::node_id);
  CHECK(t.peer(sw(3), a.forward).id == sw(5));
}

TEST_CASE("switchmc: random networks: multi-drop worms decoded with any minimal choice are legal and exact",
          "[switchmc][decode][props]") {
  std::mt19937_64 rng(17);
  const IrregularParams shapes[] = {{8, 8, 32, 0.8, 0}, {16, 8, 64, 0.8, 0}, {12, 6, 24, 0.6, 0}, {24, 8, 96, 1.0, 0}};
  for (IrregularParams p : shapes)
    for (std::uint64_t seed = 1; seed <= 5; ++seed) {
      p.seed = seed;
      const Topology t = generate_irregular(p);
      const UpDownRouting r(t);
      const HeaderGeometry g = HeaderGeometry::of(t);
      for (int trial = 0; trial < 4; ++trial) {
        std::vector<NodeId> all(t.num_nodes());
        for (int i = 0; i < t.num_nodes(); ++i) all[i] = i;
        std::shuffle(all.begin(), all.end(), rng);
        const int k = 1 + static_cast<int>(rng() % (t.num_nodes() - 1));
        const std::vector<NodeId> dests(all.begin() + 1, all.begin() + 1 + k);
        INFO("seed " << seed << " source " << all[0] << " k " << k);
        for (Scheduler sch : {Scheduler::greedy, Scheduler::less_greedy}) {
          const Schedule s = plan_path_based(t, r, all[0], dests, sch);
          for (const ScheduledWorm& w : s.worms)
            for (SsrId kind : {SsrId::switch_id, SsrId::node_id})
              for (std::size_t choice = 0; choice < 3; ++choice) {
                const Bits h = encode_multidrop(g, multidrop_pairs(t, w.destinations, kind), kind);
                const PathWorm got = run_multidrop_worm(t, r, w.sender, h, kind, choice);
                CHECK(got.destinations == w.destinations);
                const auto problems = check_path_worm(t, r.root(), got);
                CHECK(problems.empty());
              }
        }
      }
    }
}
