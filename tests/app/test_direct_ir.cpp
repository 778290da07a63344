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
#include <sstream>

#include "rtl_models/kernel.h"
#include "topologies/direct_network_kind.h"

using namespace wormcast;
using namespace wormcast::rtl;
using topo::DirectTopology;
using topo::RoutingAlgorithm;

namespace {

struct Got { NodeId at; int length, header_flits; Cycle latency; HeaderKind kind; };

void check_ir_worm(const DirectTopology& t, RoutingAlgorithm a, const std::vector<std::string>& path_names,
                   const std::vector<int>& cumulative_hops) {
  fresh_kernel();
  SimContext ctx(5000);
  topo::DirectNetworkParams p;
  p.router.buffer_flits = 4;   // covers the credit round trip: the worm streams
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
    CHECK(g.latency == 1 + static_cast<Cycle>(cumulative_hops[static_cast<std::size_t>(i)] + 1) * 3 +
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

TEST_CASE("an IR worm on a unidirectional torus keeps streaming through its destinations") {
  // UTR on 4x4 uni: (1,1) -> (1,3): 2 hops; -> (2,0): 1 + 1 = 2 more; -> (0,1): 2 + 1 = 3 more.
  check_ir_worm(DirectTopology::torus({4, 4}, false), RoutingAlgorithm::utr, {"(1,1)", "(1,3)", "(2,0)", "(0,1)"},
                {2, 4, 7});
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
