// A probe attached to direct-network routers (DirectRouter::attach_probe)
// sees every flit that leaves a router, at its cycle: its counts are the
// routers' own send counts, no physical output carries two flits in one
// cycle, a probe changes no result, and the fast and reference routers
// report the same flits at the same cycles.
#include <catch2/catch.hpp>

#include <map>
#include <random>
#include <set>
#include <tuple>

#include "rtl_models/core/kernel.h"
#include "topologies/networks/direct_network_kind.h"

using namespace wormcast;
using namespace wormcast::rtl;

namespace {

struct Sent {
  NodeId router;
  int out_channel;
  std::uint64_t packet;
  int index;
  Cycle cycle;
  bool operator==(const Sent& o) const {
    return std::tie(router, out_channel, packet, index, cycle) ==
           std::tie(o.router, o.out_channel, o.packet, o.index, o.cycle);
  }
};

class Recorder final : public RouterProbe {
 public:
  Recorder(NodeId router, std::vector<Sent>& log) : router_(router), log_(&log) {}
  void flit_sent(int out_channel, const Flit& f, Cycle cycle) override {
    log_->push_back({router_, out_channel, f.pkt->id, f.index, cycle});
  }

 private:
  NodeId router_;
  std::vector<Sent>* log_;
};

struct Run {
  std::vector<Sent> sent;                       // every flit, in the order the routers sent them
  std::vector<std::pair<Cycle, std::uint64_t>> delivered;   // (cycle, packet id) at the sinks
  std::map<std::pair<NodeId, int>, std::uint64_t> counted;  // the routers' own flits_sent
  int vcs = 0, external_channels = 0;
};

// 60 packets of 1..12 flits between random nodes of a 4x4 mesh with 2 VCs,
// in the first 300 cycles (a fixed seed), run to completion.
Run play(const char* impl, bool probed, bool streams) {
  fresh_kernel();
  SimContext ctx(5000);
  ctx.streams = streams;
  const topo::DirectTopology t = topo::DirectTopology::mesh({4, 4});
  topo::DirectNetworkParams p;
  p.router.vcs = 2;
  p.router.buffer_flits = 4;
  p.router_impl = impl;
  topo::DirectNetwork net("net", std::make_shared<const topo::DirectRouting>(t, topo::RoutingAlgorithm::dor), p, ctx);
  Run run;
  std::vector<std::unique_ptr<Recorder>> probes;
  for (NodeId x = 0; x < t.num_nodes(); ++x) {
    probes.push_back(std::make_unique<Recorder>(x, run.sent));
    if (probed) net.routers[static_cast<std::size_t>(x)]->attach_probe(probes.back().get());
    net.endpoint(x).on_receive = [&run](const Packet& pk, Cycle now) { run.delivered.push_back({now, pk.id}); };
  }
  sc_core::sc_start(sc_core::SC_ZERO_TIME);
  std::mt19937_64 rng(47);
  for (int i = 0; i < 60; ++i) {
    const NodeId src = static_cast<NodeId>(rng() % 16);
    NodeId dst = static_cast<NodeId>(rng() % 15);
    if (dst >= src) ++dst;
    auto pk = std::make_shared<Packet>();
    pk->header.dest = dst;
    pk->length = 1 + static_cast<int>(rng() % 12);
    net.endpoint(src).inject_at(pk, 1 + static_cast<Cycle>(i) * 5);
  }
  sc_core::sc_start(ctx.clock.delay(3000));
  REQUIRE(ctx.ledger.outstanding() == 0);
  run.vcs = p.router.vcs;
  run.external_channels = net.routers[0]->external_channels();
  for (NodeId x = 0; x < t.num_nodes(); ++x)
    for (int oc = 0; oc < net.routers[static_cast<std::size_t>(x)]->num_channels(); ++oc)
      run.counted[{x, oc}] = net.routers[static_cast<std::size_t>(x)]->flits_sent(oc);
  return run;
}

}  // namespace

TEST_CASE("a router probe sees every flit sent, one per physical output and cycle", "[probe]") {
  for (const char* impl : {"fast", "reference"}) {
    INFO("router.impl " << impl);
    const Run r = play(impl, true, true);
    std::map<std::pair<NodeId, int>, std::uint64_t> seen;
    std::set<std::tuple<NodeId, int, Cycle>> port_cycles;   // (router, physical output, cycle)
    for (const Sent& s : r.sent) {
      ++seen[{s.router, s.out_channel}];
      const int port = s.out_channel < r.external_channels ? s.out_channel / r.vcs
                                                           : 1000 + s.out_channel;   // internal: one channel each
      CHECK(port_cycles.insert({s.router, port, s.cycle}).second);
    }
    for (const auto& [key, n] : r.counted) {
      const auto it = seen.find(key);
      CHECK((it == seen.end() ? 0 : it->second) == n);
    }
    CHECK_FALSE(r.sent.empty());
  }
}

TEST_CASE("a probe changes no result, and both routers report the same flits at the same cycles", "[probe]") {
  const Run plain = play("fast", false, true);
  const Run probed = play("fast", true, true);
  CHECK(plain.delivered == probed.delivered);
  const Run ref = play("reference", true, true);
  CHECK(ref.delivered == probed.delivered);
  // In each router's order of sends; the first difference names the flit.
  auto by_router = [](std::vector<Sent> v) {
    std::stable_sort(v.begin(), v.end(), [](const Sent& a, const Sent& b) {
      return std::tie(a.router, a.cycle, a.out_channel) < std::tie(b.router, b.cycle, b.out_channel);
    });
    return v;
  };
  const std::vector<Sent> a = by_router(probed.sent), b = by_router(ref.sent);
  std::size_t i = 0;
  while (i < a.size() && i < b.size() && a[i] == b[i]) ++i;
  INFO("first difference at send " << i << " of " << a.size() << " (fast) / " << b.size() << " (reference)"
                                   << (i < a.size() ? ": fast router " + std::to_string(a[i].router) + " cycle " +
                                                          std::to_string(a[i].cycle)
                                                    : std::string()));
  CHECK(i == a.size());
  CHECK(a.size() == b.size());
}
