// Intermediate reception (seed001 Fig. 5.10) in the VC router: one worm
// through several destinations. Each destination before the last gets a
// local copy (its address flit + the body) while the worm goes on one
// header flit shorter; the last one gets the worm itself (its address and
// the terminator + the body). Golden values by hand: with flits streaming
// at one per cycle, destination i's tail arrives
//   link + (h_i + 1)(route + crossbar + link) + (L - 1)
// after creation, h_i the hops from the source to it along the path, L the
// worm's length at the source (docs/direct_networks.md).
#include <catch2/catch.hpp>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include "rtl_models/core/kernel.h"
#include "algorithms/compound_header.h"
#include "topologies/networks/direct_network_kind.h"
#include "topologies/direct_paths.h"

using namespace wormcast;
using namespace wormcast::rtl;
using topo::DirectTopology;
using topo::RoutingAlgorithm;

namespace {

struct Got { NodeId at; int length, header_flits; Cycle latency; HeaderKind kind; };

// With router.turn_delay `turn`, destination i's copy comes cumulative_turns[i]
// x turn later: the dimension changes of the path up to and including its
// own router (an IR destination routes its local copy and the continuing
// worm together, so a turn there delays its copy too). `buffer` flits per
// VC: with at least the worm's length a stalled header never holds the
// routers behind it, so a later turn does not delay an earlier copy.
void check_ir_worm(const DirectTopology& t, RoutingAlgorithm a, const std::vector<std::string>& path_names,
                   const std::vector<int>& cumulative_hops, Cycle turn = 0,
                   const std::vector<int>& cumulative_turns = {}, int buffer = 4) {
  fresh_kernel();
  SimContext ctx(5000);
  topo::DirectNetworkParams p;
  p.router.buffer_flits = buffer;   // 4 covers the credit round trip: the worm streams
  p.router.turn_delay = turn;
  topo::DirectNetwork net("net", std::make_shared<const topo::DirectRouting>(t, a), p, ctx);
  std::vector<Got> got;
  for (int n = 0; n < net.num_nodes(); ++n)
    net.endpoint(n).on_receive = [&, n](const Packet& pk, Cycle now) {
      got.push_back({n, pk.length, pk.header_flits, now - pk.created, pk.header.kind});
      CHECK(pk.injected == pk.created);   // idle source: the head leaves at once
    };
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  sc_core::sc_start(ctx.clock.delay(5));   // cycle 0 is evaluated: a packet injected now would start at cycle 1
  const NodeId src = t.parse_node(path_names[0]);
  std::vector<NodeId> dests;
  for (std::size_t i = 1; i < path_names.size(); ++i) dests.push_back(t.parse_node(path_names[i]));
  const int m = static_cast<int>(dests.size()), body = 12, length = m + 1 + body;
  auto pk = std::make_shared<Packet>();
  pk->header.kind = HeaderKind::multicast;
  pk->header.dests = dests;
  pk->header_flits = m + 1;
  pk->length = length;
  net.endpoint(src).inject(pk);
  sc_core::sc_start(ctx.clock.delay(500));
  REQUIRE(ctx.ledger.outstanding() == 0);
  REQUIRE(net.flits_in_network() == 0);
  REQUIRE(got.size() == dests.size());
  for (int i = 0; i < m; ++i) {
    INFO("destination " << t.name(dests[static_cast<std::size_t>(i)]));
    const Got& g = got[static_cast<std::size_t>(i)];   // delivered in path order
    CHECK(g.at == dests[static_cast<std::size_t>(i)]);
    const bool last = i == m - 1;
    CHECK(g.header_flits == (last ? 2 : 1));
    CHECK(g.length == (last ? 2 : 1) + body);
    CHECK(g.kind == (last ? HeaderKind::multicast : HeaderKind::unicast));
    const Cycle turns = turn ? static_cast<Cycle>(cumulative_turns.at(static_cast<std::size_t>(i))) * turn : 0;
    CHECK(g.latency == 1 + static_cast<Cycle>(cumulative_hops[static_cast<std::size_t>(i)] + 1) * 3 + turns +
                           static_cast<Cycle>(length - 1));
  }
  // Every body flit was copied once per intermediate destination.
  CHECK(ctx.flits.extra_copies == static_cast<std::int64_t>((m - 1) * body));
  CHECK(ctx.flits.injected + static_cast<std::uint64_t>(ctx.flits.extra_copies) == ctx.flits.ejected);
}

}  // namespace

TEST_CASE("an IR worm through three destinations on a mesh delivers a copy at each, header shrinking") {
  // (0,0) -> (0,2): 2 hops; -> (2,2): 2 more; -> (3,0): 3 more.
  check_ir_worm(DirectTopology::mesh({4, 4}), RoutingAlgorithm::dor, {"(0,0)", "(0,2)", "(2,2)", "(3,0)"},
                {2, 4, 7});
}

TEST_CASE("router.turn_delay on an IR worm: each dimension change on the path delays the copies after it") {
  // Names are (σ_1, σ_0); DOR takes the highest dimension first. (0,0) ->
  // (0,2) along σ_0, on along σ_1: a turn at (0,2), which also delays its
  // own copy (1). -> (2,2), on along σ_1 to (3,2): no turn at (2,2) (1);
  // there along σ_0 to (3,0): a turn at (3,2) (2). 16-flit VCs: the worm
  // (16 flits) fits in one, so no stall reaches back to an earlier copy.
  check_ir_worm(DirectTopology::mesh({4, 4}), RoutingAlgorithm::dor, {"(0,0)", "(0,2)", "(2,2)", "(3,0)"},
                {2, 4, 7}, 7, {1, 1, 2}, 16);
}

TEST_CASE("an IR worm on a unidirectional torus keeps streaming through its destinations") {
  // UTR on 4x4 uni: (1,1) -> (1,3): 2 hops; -> (2,0): 1 + 1 = 2 more; -> (0,1): 2 + 1 = 3 more.
  check_ir_worm(DirectTopology::torus({4, 4}, false), RoutingAlgorithm::utr, {"(1,1)", "(1,3)", "(2,0)", "(0,1)"},
                {2, 4, 7});
}

TEST_CASE("the Fig. 5.7 worm in ℋ order (UTPR, 6x6) reaches its nine destinations, each once") {
  // The sender-side helper orders the destinations (Fig. 5.8); hops per
  // segment by hand, Σ_d (σ_d(v) − σ_d(u)) mod 6: 2, 2, 3, 3, 2, 2, 2, 6, 4.
  const DirectTopology t = topo::parse_direct_spec("torus:6x6:uni");
  const topo::DirectRouting r(t, RoutingAlgorithm::utpr);
  std::vector<NodeId> dests;
  for (const char* n : {"(0,5)", "(4,5)", "(3,4)", "(5,4)", "(4,3)", "(1,2)", "(2,1)", "(5,1)", "(1,0)"})
    dests.push_back(t.parse_node(n));
  std::vector<std::string> names{"(3,2)"};
  for (NodeId d : topo::ir_visiting_order(r, t.parse_node("(3,2)"), dests)) names.push_back(t.name(d));
  check_ir_worm(t, RoutingAlgorithm::utpr, names, {2, 4, 7, 10, 12, 14, 16, 22, 26});
}

TEST_CASE("the VCD of an IR worm shows the header shrinking and the local copies") {
  fresh_kernel();
  SimContext ctx(5000);
  const DirectTopology t = DirectTopology::mesh({1 + 1, 4});
  topo::DirectNetworkParams p;
  p.router.buffer_flits = 4;
  topo::DirectNetwork net("net", std::make_shared<const topo::DirectRouting>(t, RoutingAlgorithm::dor), p, ctx);
  const auto dir = std::filesystem::temp_directory_path() / ("wormcast_ir_vcd_" + std::to_string(getpid()));
  std::filesystem::create_directories(dir);
  const std::string base = (dir / "ir").string();
  sc_core::sc_trace_file* tf = sc_core::sc_create_vcd_trace_file(base.c_str());
  CHECK(net.trace(tf, "net.router*") == 8);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  sc_core::sc_start(ctx.clock.delay(5));
  auto pk = std::make_shared<Packet>();   // (0,0) -> (0,1) -> (0,2) -> (0,3): 3 addresses + terminator
  pk->header.kind = HeaderKind::multicast;
  pk->header.dests = {1, 2, 3};
  pk->header_flits = 4;
  pk->length = 10;
  net.endpoint(0).inject(pk);
  sc_core::sc_start(ctx.clock.delay(100));
  sc_core::sc_close_vcd_trace_file(tf);
  REQUIRE(ctx.ledger.outstanding() == 0);
  std::ifstream in(base + ".vcd");
  std::stringstream text;
  text << in.rdbuf();
  const std::string vcd = text.str();
  // The worm leaves router 0 with 4 header flits, router 1 with 3 and router
  // 2 with 2; the local outputs of the IR nodes 1 and 2 carry copies.
  auto value_seen = [&](const std::string& router, const std::string& port, const std::string& var,
                        const std::string& bits) {
    std::size_t at = vcd.find("$scope module " + router + " $end");
    at = vcd.find("$scope module " + port + " $end", at);
    at = vcd.find(" " + var + " ", at);
    if (at == std::string::npos) return false;
    const std::size_t line = vcd.rfind('\n', at);
    std::istringstream fields(vcd.substr(line + 1, at - line));
    std::string dollar_var, wire, width, id;
    fields >> dollar_var >> wire >> width >> id;
    return vcd.find("\n" + bits + " " + id + "\n") != std::string::npos ||
           vcd.find("\n" + bits + id + "\n") != std::string::npos;
  };
  CHECK(value_seen("router0", "out_d0p", "header_flits", "b100"));
  CHECK(value_seen("router1", "out_d0p", "header_flits", "b11"));
  CHECK(value_seen("router2", "out_d0p", "header_flits", "b10"));
  CHECK(value_seen("router1", "out_local0", "valid", "1"));
  CHECK(value_seen("router2", "out_local0", "valid", "1"));
  CHECK(value_seen("router3", "out_local0", "header_flits", "b10"));   // the worm itself ejects at the last
  std::filesystem::remove_all(dir);
}

TEST_CASE("a worm whose header flits do not match its addresses is rejected at the first destination") {
  fresh_kernel();
  SimContext ctx(5000);
  const DirectTopology t = DirectTopology::mesh({2, 2});
  topo::DirectNetwork net("net", std::make_shared<const topo::DirectRouting>(t, RoutingAlgorithm::dor),
                          topo::DirectNetworkParams{}, ctx);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  auto pk = std::make_shared<Packet>();
  pk->header.kind = HeaderKind::multicast;
  pk->header.dests = {1, 3};
  pk->header_flits = 1;   // should be 3: one per address plus the terminator
  pk->length = 8;
  net.endpoint(0).inject(pk);
  CHECK_THROWS_WITH(sc_core::sc_start(ctx.clock.delay(50)), Catch::Contains("one per address plus the terminator"));
}

namespace {
PacketPtr compound_worm(const std::vector<algo::CompoundBlock>& blocks, int body) {
  auto pk = std::make_shared<Packet>();
  pk->header.kind = HeaderKind::multicast;
  for (const auto& b : blocks) pk->header.dests.push_back(b.dest);
  pk->header.compound = std::make_shared<const std::vector<NodeId>>(algo::encode_compound_header(blocks));
  pk->header_flits = algo::compound_header_flits(blocks);
  pk->length = pk->header_flits + body;
  return pk;
}
}  // namespace

TEST_CASE("a compound-header worm (Fig. 6.2) drives a two-phase multicast, each node served once") {
  // Phase 1: (0,0) -> (0,2) [later (1,2), (2,2)] -> (3,0) [later (3,1)] on a
  // 4x4 mesh; each phase-1 destination's processor reads its block and sends
  // phase 2 as a plain IR worm. Phase-1 header: (2+2) + (2+1) + 1 = 8 flits.
  fresh_kernel();
  SimContext ctx(5000);
  const DirectTopology t = DirectTopology::mesh({4, 4});
  topo::DirectNetworkParams p;
  p.router.buffer_flits = 4;
  topo::DirectNetwork net("net", std::make_shared<const topo::DirectRouting>(t, RoutingAlgorithm::dor), p, ctx);
  auto n = [&](const char* s) { return t.parse_node(s); };
  const int body = 12;
  std::map<NodeId, int> copies;
  std::map<NodeId, Got> first;
  for (int x = 0; x < net.num_nodes(); ++x)
    net.endpoint(x).on_receive = [&, x](const Packet& pk, Cycle now) {
      if (++copies[x] == 1) first[x] = Got{x, pk.length, pk.header_flits, now - pk.created, pk.header.kind};
      if (!pk.header.compound) return;
      const algo::CompoundBlock b = algo::received_compound_block(*pk.header.compound);
      CHECK(b.dest == x);
      if (b.later.empty()) return;
      auto w = std::make_shared<Packet>();   // phase 2: a plain IR worm to the block's list
      w->header.kind = HeaderKind::multicast;
      w->header.dests = b.later;
      w->header_flits = static_cast<int>(b.later.size()) + 1;
      w->length = w->header_flits + body;
      net.endpoint(x).inject(w);
    };
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  sc_core::sc_start(ctx.clock.delay(5));
  auto pk = compound_worm({{n("(0,2)"), {n("(1,2)"), n("(2,2)")}}, {n("(3,0)"), {n("(3,1)")}}}, body);
  REQUIRE(pk->header_flits == 8);
  net.endpoint(n("(0,0)")).inject(pk);
  sc_core::sc_start(ctx.clock.delay(500));
  REQUIRE(ctx.ledger.outstanding() == 0);
  REQUIRE(net.flits_in_network() == 0);
  CHECK(copies == std::map<NodeId, int>{{n("(0,2)"), 1}, {n("(3,0)"), 1}, {n("(1,2)"), 1}, {n("(2,2)"), 1},
                                        {n("(3,1)"), 1}});
  // Phase 1 streams: the formula of plain IR with L = 20 at the source and
  // 2 and 2 + 5 hops; each processor got its block (4 flits) + the body.
  CHECK(first[n("(0,2)")].header_flits == 4);
  CHECK(first[n("(0,2)")].length == 4 + body);
  CHECK(first[n("(0,2)")].latency == 1 + 3 * 3 + 19);
  CHECK(first[n("(3,0)")].header_flits == 4);   // its block (3 flits) and the terminator
  CHECK(first[n("(3,0)")].latency == 1 + 8 * 3 + 19);
  CHECK(first[n("(2,2)")].header_flits == 2);   // phase 2 is a plain worm
}

TEST_CASE("a compound header that does not match the worm's destinations is refused at the first one") {
  fresh_kernel();
  SimContext ctx(5000);
  const DirectTopology t = DirectTopology::mesh({2, 2});
  topo::DirectNetwork net("net", std::make_shared<const topo::DirectRouting>(t, RoutingAlgorithm::dor),
                          topo::DirectNetworkParams{}, ctx);
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  auto pk = compound_worm({{1, {}}, {3, {2}}}, 4);
  pk->header.dests = {1, 2};   // the header says 3 comes next
  net.endpoint(0).inject(pk);
  CHECK_THROWS_WITH(sc_core::sc_start(ctx.clock.delay(50)), Catch::Contains("does not match its destination list"));
}
