// One-port and all-port processor nodes (node.model processor) on direct
// networks, with software overheads t_S / t_R (seed001 §1.4, §1.8, §7.1).
//
// Golden values by hand. A message of B bytes is one packet of L = 1 + B
// flits. On an idle network a packet whose head leaves its node at cycle c
// has its tail delivered at c + link + (h + 1)(route + crossbar + link) +
// (L - 1) = c + L + 6 for one hop with default timing
// (docs/direct_networks.md, zero-load formula). The program starts at
// cycle 0; the k-th send (k = 1..) is posted at k·t_S (sends serialise on
// the CPU, seed001 §1.8). All-port: each send has its own injection channel,
// so its head leaves when posted: tail at k·t_S + L + 6. One-port: the
// sends share the one injection channel; with L > t_S each waits for the
// previous tail (one flit per cycle): head_k = t_S + (k-1)·L. In the
// source router's injection VC each header then sits right behind the
// previous tail, and the router sees a header only in the cycle after the
// tail ahead of it left (router rule, docs/direct_networks.md "The
// router"): one cycle more per earlier packet, tail at
// t_S + k·L + 6 + (k-1). A receiver's receive() returns t_R after the tail arrived
// (CPU idle) or after its previous reception (receptions serialise on the CPU).
#include <catch2/catch.hpp>

#include <map>

#include "rtl_models/core/kernel.h"
#include "rtl_models/node/processor_node.h"
#include "testbenches/app/runner.h"
#include "tests/common/runs.h"
#include "topologies/networks/direct_network_kind.h"

using namespace wormcast;
using namespace wormcast::rtl;
using topo::DirectTopology;
using topo::RoutingAlgorithm;

namespace {

constexpr Cycle t_s = 20, t_r = 16;
constexpr int bytes = 40, L = 1 + bytes;

struct Received { NodeId at; NodeId src; Cycle arrived, received; };

struct Bed {
  SimContext ctx{5000};
  std::unique_ptr<topo::DirectNetwork> net;
  std::vector<Received> got;
  DirectProcessor& proc(NodeId x) { return static_cast<ProcessorNode&>(net->node(x)).processor(); }
};

std::unique_ptr<Bed> make_bed(const DirectTopology& t, RoutingAlgorithm a, const std::string& ports,
                              const std::string& send_model = "per_channel") {
  fresh_kernel();
  auto bed = std::make_unique<Bed>();
  topo::DirectNetworkParams p;
  p.router.buffer_flits = 4;   // covers the credit round trip: packets stream
  p.router.ports = ports;
  auto model = std::make_shared<ProcessorModel>();
  model->params.t_s = t_s;
  model->params.t_r = t_r;
  model->params.send_model = send_model;
  model->params.rx_buffer_flits = 4;
  p.node_model = model;
  bed->net = std::make_unique<topo::DirectNetwork>("net", std::make_shared<const topo::DirectRouting>(t, a), p,
                                                   bed->ctx);
  return bed;
}

// Every node other than `sender` receives `expect[node]` messages.
void install_receivers(Bed& bed, NodeId sender, const std::map<NodeId, int>& expect) {
  for (const auto& [node, count] : expect) {
    if (node == sender) continue;
    Bed* b = &bed;
    const NodeId at = node;
    const int n = count;
    bed.proc(node).set_program([b, at, n](HostApi& h) {
      for (int i = 0; i < n; ++i) {
        const ReceivedMessage m = h.receive();
        b->got.push_back({at, m.src, m.completed, m.received});
      }
    });
  }
}

std::vector<NodeId> neighbours(const DirectTopology& t, NodeId x) {
  std::vector<NodeId> v;
  for (const auto& ch : t.channels(x)) v.push_back(ch.to);
  return v;
}

// Node (1,1) of a 4x4 bidirectional torus sends one message to each of its
// 2n = 4 neighbours; returns tail arrival per send order.
std::vector<Received> send_to_neighbours(const std::string& ports, const std::string& send_model, Cycle* wait_done) {
  const DirectTopology t = DirectTopology::torus({4, 4}, true);
  auto bed = make_bed(t, RoutingAlgorithm::btr, ports, send_model);
  const NodeId src = t.parse_node("(1,1)");
  const std::vector<NodeId> nb = neighbours(t, src);
  REQUIRE(nb.size() == 4);
  std::map<NodeId, int> expect;
  for (NodeId d : nb) expect[d] = 1;
  install_receivers(*bed, src, expect);
  std::vector<DirectSend> sends;
  for (NodeId d : nb) sends.push_back(DirectSend{{d}, bytes});
  bed->proc(src).set_program([sends, wait_done](HostApi& h) {
    auto& d = dynamic_cast<DirectHostApi&>(h);
    d.send_all(sends);
    d.wait_sends();
    *wait_done = h.now();
  });
  sc_core::sc_start(bed->ctx.clock.delay(2000));
  CHECK(bed->ctx.messages.outstanding() == 0);
  CHECK(bed->ctx.ledger.outstanding() == 0);
  CHECK(bed->net->flits_in_network() == 0);
  CHECK(bed->proc(src).busy_cycles() == 4 * t_s);
  // All-port: send k leaves on the internal channel of its first hop's port.
  if (ports == "all_port") {
    for (const auto& ch : t.channels(src)) {
      const int port = DirectTopology::port_index(ch.dim, ch.dir);
      const std::string name = "net.link_node5_to_router5" + std::string(port == 0 ? "" : "_p" + std::to_string(port));
      bool found = false;
      for (const auto& l : bed->net->links)
        if (name == l->name()) {
          found = true;
          CHECK(l->flits_sent() == static_cast<std::uint64_t>(L));
        }
      CHECK(found);
    }
  }
  std::vector<Received> by_send;
  for (NodeId d : nb)
    for (const Received& r : bed->got)
      if (r.at == d) by_send.push_back(r);
  REQUIRE(by_send.size() == 4);
  return by_send;
}

}  // namespace

TEST_CASE("all-port: a node's sends to its 4 torus neighbours overlap after their t_S") {
  Cycle done = 0;
  const auto r = send_to_neighbours("all_port", "per_channel", &done);
  for (int k = 1; k <= 4; ++k) {
    INFO("send " << k);
    const Received& g = r[static_cast<std::size_t>(k - 1)];
    CHECK(g.src == 5);
    CHECK(g.arrived == static_cast<Cycle>(k) * t_s + L + 6);
    CHECK(g.received == g.arrived + t_r);
  }
  // wait_sends() returns when the last tail has left the node, L - 1
  // cycles after its head (4 t_S).
  CHECK(done == 4 * t_s + L - 1);
}

TEST_CASE("one-port: the same sends are sequential on the single internal channel") {
  Cycle done = 0;
  const auto r = send_to_neighbours("one_port", "per_channel", &done);
  for (int k = 1; k <= 4; ++k) {
    INFO("send " << k);
    const Received& g = r[static_cast<std::size_t>(k - 1)];
    CHECK(g.arrived == t_s + static_cast<Cycle>(k) * L + 6 + static_cast<Cycle>(k - 1));
    CHECK(g.received == g.arrived + t_r);
  }
  // The last tail leaves the node at least 4 back-to-back packets after
  // the first t_S; the router's header bubbles (above) push back on the
  // injection link through the credits by at most one cycle each.
  CHECK(done >= t_s + 4 * L - 1);
  CHECK(done <= t_s + 4 * L - 1 + 3);
}

TEST_CASE("model B (in_order) equals model A when every send has its own channel") {
  Cycle done = 0;
  const auto r = send_to_neighbours("all_port", "in_order", &done);
  for (int k = 1; k <= 4; ++k) CHECK(r[static_cast<std::size_t>(k - 1)].arrived == static_cast<Cycle>(k) * t_s + L + 6);
}

TEST_CASE("model A does not hold the CPU for a busy channel, model B does") {
  // Node 0 of a 2-cube (E-cube): two messages to node 1 (channel of dim 0),
  // then one to node 2 (dim 1). A: the third is posted at 3 t_S and leaves
  // at once: tail at 3 t_S + L + 6. B: the second waits on the CPU until the
  // first's tail has left (t_S + L - 1), is posted then, leaves the next
  // cycle (the channel frees after the tail) and holds the CPU until it is
  // queued; the third is posted t_S later: 2 t_S + L + 6 + ... computed below.
  for (const std::string model : {"per_channel", "in_order"}) {
    INFO(model);
    const DirectTopology t = DirectTopology::hypercube(2);
    auto bed = make_bed(t, RoutingAlgorithm::ecube, "all_port", model);
    install_receivers(*bed, 0, {{1, 2}, {2, 1}});
    bed->proc(0).set_program([](HostApi& h) {
      h.send(1, bytes);
      h.send(1, bytes);
      h.send(2, bytes);
    });
    sc_core::sc_start(bed->ctx.clock.delay(2000));
    REQUIRE(bed->got.size() == 3);
    Cycle to2 = 0;
    for (const Received& g : bed->got)
      if (g.at == 2) to2 = g.arrived;
    if (model == "per_channel") {
      CHECK(to2 == 3 * t_s + L + 6);
    } else {
      // The second send finishes its t_S at 2 t_S < t_S + L: the CPU holds it
      // until the first's tail has left at t_S + L - 1; the third's t_S
      // starts then.
      CHECK(to2 == (t_s + L - 1) + t_s + L + 6);
    }
  }
}

TEST_CASE("t_R is charged per reception and receptions serialise on the CPU") {
  // All-port 4x4 torus: (1,0) and (1,2) both send to (1,1) at cycle 0; the
  // messages arrive on different internal channels at t_S + L + 6 each.
  const DirectTopology t = DirectTopology::torus({4, 4}, true);
  auto bed = make_bed(t, RoutingAlgorithm::btr, "all_port");
  const NodeId x = t.parse_node("(1,1)"), a = t.parse_node("(1,0)"), b = t.parse_node("(1,2)");
  install_receivers(*bed, -1, {{x, 2}});
  for (NodeId s : {a, b}) bed->proc(s).set_program([x](HostApi& h) { h.send(x, bytes); });
  sc_core::sc_start(bed->ctx.clock.delay(2000));
  REQUIRE(bed->got.size() == 2);
  CHECK(bed->got[0].arrived == t_s + L + 6);
  CHECK(bed->got[1].arrived == t_s + L + 6);
  CHECK(bed->got[0].received == t_s + L + 6 + t_r);
  CHECK(bed->got[1].received == t_s + L + 6 + 2 * t_r);
  CHECK(bed->proc(x).busy_cycles() == 2 * t_r);
  CHECK(bed->ctx.msg_stats.delivered == 2);
}

TEST_CASE("an IR worm from an all-port node reaches every destination once, each paying t_R") {
  // 4x4 bidirectional torus, (0,0) -> (0,1) -> (0,2) along dimension 0:
  // 1 and 2 hops; L = 3 header flits + bytes.
  const DirectTopology t = DirectTopology::torus({4, 4}, true);
  auto bed = make_bed(t, RoutingAlgorithm::btr, "all_port");
  const NodeId s = t.parse_node("(0,0)"), d1 = t.parse_node("(0,1)"), d2 = t.parse_node("(0,2)");
  install_receivers(*bed, s, {{d1, 1}, {d2, 1}});
  bed->proc(s).set_program([d1, d2](HostApi& h) {
    auto& d = dynamic_cast<DirectHostApi&>(h);
    d.send_ir({d1, d2}, bytes);
    d.wait_sends();
  });
  sc_core::sc_start(bed->ctx.clock.delay(2000));
  REQUIRE(bed->got.size() == 2);
  const int worm = 3 + bytes;
  std::map<NodeId, Cycle> arrived;
  for (const auto& g : bed->got) arrived[g.at] = g.arrived;
  CHECK(arrived[d1] == t_s + 1 + 2 * 3 + static_cast<Cycle>(worm - 1));
  CHECK(arrived[d2] == t_s + 1 + 3 * 3 + static_cast<Cycle>(worm - 1));
  CHECK(bed->ctx.messages.outstanding() == 0);
  CHECK(bed->ctx.msg_stats.delivered == 2);
  CHECK(bed->proc(d1).busy_cycles() == t_r);
}

TEST_CASE("all-port processor nodes deliver every message exactly once under uniform load") {
  struct Case { const char* kind; const char* dims; const char* direction; };
  for (const Case c : {Case{"torus", "4x4", "bidirectional"}, Case{"torus", "4x4", "unidirectional"},
                       Case{"hypercube", "2x2x2x2", nullptr}, Case{"mesh", "3x3", nullptr}}) {
    INFO(c.kind << " " << c.dims << " " << (c.direction ? c.direction : ""));
    std::vector<tb::Override> o = {{"topology.kind", c.kind},     {"topology.dims", c.dims},
                                   {"node.model", "processor"},   {"router.ports", "all_port"},
                                   {"traffic.load", "0.1"},       {"message.size", "16"},
                                   {"sim.warmup", "300"},         {"sim.measure", "3000"},
                                   {"sim.drain_limit", "20000"}};
    if (c.direction) o.push_back({"topology.direction", c.direction});
    const auto r = test::run_with(o);
    test::check_delivered_exactly_once(r, 1);
    const auto& m = r.json.at("metrics").at("messages");
    CHECK(m.at("sent").get<std::uint64_t>() == m.at("received").get<std::uint64_t>());
    CHECK(m.at("sent").get<std::uint64_t>() > 100);
    CHECK(m.at("measured_expected").get<std::uint64_t>() == m.at("measured_received").get<std::uint64_t>());
  }
}

TEST_CASE("the wait at the source grows as a CPU-bound node falls behind its arrivals") {
  // Independent calculation (fluid approximation): with t_S = 190, t_R = 150
  // and uniform traffic every node's CPU alternates sends and receptions, so
  // it sends mu = 1/(t_S + t_R) messages per cycle, while 32-byte messages
  // arrive at lambda = 0.2/32 per cycle. The message sent at cycle t arrived
  // when the arrivals had reached the sends: at a = t * mu / lambda =
  // 0.4706 t, so it waited 0.5294 t. Averaged over the sends of the window
  // [5000, 25000): 0.5294 * 15000 = 7941 cycles. Noise: a node's arrival
  // count by cycle t scatters by sqrt(lambda t) messages, i.e. its waits by
  // sqrt(t / lambda) cycles, about 1550 at t = 15000; over 64 nodes the mean
  // scatters by about 190 (2.4 %), so 8 % is over 3 sigma. At light load
  // with the low overheads, a send waits only for a reception in progress:
  // mean < t_R.
  auto config = [](const char* load, const char* t_s, const char* t_r) {
    tb::ExperimentConfig cfg;
    cfg.set({{"topology.kind", "torus"}, {"topology.dims", "8x8"}, {"topology.direction", "bidirectional"},
             {"node.model", "processor"}, {"processor.t_s", t_s}, {"processor.t_r", t_r},
             {"message.size", "32"}, {"traffic.load", load}, {"sim.warmup", "5000"}, {"sim.measure", "20000"},
             {"sim.drain_limit", "100000"}});
    return cfg;
  };
  auto run = [](const tb::ExperimentConfig& cfg) {
    const auto r = tb::run_experiment(cfg, {});
    INFO(r.error);
    REQUIRE(r.ok);
    return r.json.at("metrics").at("messages");
  };
  const auto busy = run(config("0.2", "190", "150"));
  const auto& wait = busy.at("source_wait_cycles");
  CHECK(wait.at("mean").get<double>() == Approx(7941).epsilon(0.08));
  CHECK(wait.at("count").get<std::uint64_t>() == busy.at("measured_expected").get<std::uint64_t>());
  const tb::ExperimentConfig light_cfg = config("0.02", "20", "16");
  const auto light = run(light_cfg);
  CHECK(light.at("source_wait_cycles").at("mean").get<double>() < 16.0);
  CHECK(light.at("source_wait_cycles").at("count").get<std::uint64_t>() ==
        light.at("measured_expected").get<std::uint64_t>());
  // The same configuration run again reports the same waits (nothing carried over).
  CHECK(run(light_cfg).at("source_wait_cycles") == light.at("source_wait_cycles"));
}

TEST_CASE("all-port and processor bad input gets clear errors") {
  CHECK_THAT(test::config_error({{"topology.kind", "torus"}, {"router.ports", "all_port"}}),
             Catch::Contains("router.ports: all_port") && Catch::Contains("node.model processor"));
  CHECK_THAT(test::config_error({{"topology.kind", "torus"}, {"router.ports", "all_port"}, {"node.model", "host_ni"}}),
             Catch::Contains("router.ports: all_port"));
  CHECK_THAT(test::config_error({{"topology.kind", "torus"}, {"node.model", "processor"}, {"processor.t_s", "-5"}}),
             Catch::Contains("processor.t_s"));
  CHECK_THAT(test::config_error({{"topology.kind", "torus"}, {"node.model", "processor"}, {"processor.t_r", "-1"}}),
             Catch::Contains("processor.t_r"));
  CHECK_THAT(test::config_error({{"node.model", "processor"}}), Catch::Contains("node.model processor"));
  // Building by hand: an endpoint model cannot take all-port channels.
  fresh_kernel();
  SimContext ctx(5000);
  topo::DirectNetworkParams p;
  p.router.ports = "all_port";
  CHECK_THROWS_WITH(topo::DirectNetwork("net",
                                        std::make_shared<const topo::DirectRouting>(DirectTopology::mesh({2, 2}),
                                                                                    RoutingAlgorithm::dor),
                                        p, ctx),
                    Catch::Contains("router.ports: all_port"));
}

TEST_CASE("a direct-network processor refuses bad sends") {
  const DirectTopology t = DirectTopology::mesh({2, 2});
  auto bed = make_bed(t, RoutingAlgorithm::dor, "one_port");
  std::vector<std::string> errors;
  bed->proc(0).set_program([&errors](HostApi& h) {
    auto& d = dynamic_cast<DirectHostApi&>(h);
    auto attempt = [&errors](auto f) {
      try {
        f();
        errors.push_back("no error");
      } catch (const std::invalid_argument& e) {
        errors.push_back(e.what());
      }
    };
    attempt([&] { h.send(0, 4); });
    attempt([&] { h.send(9, 4); });
    attempt([&] { h.send(1, 0); });
    attempt([&] { d.send_ir({1, 2, 1}, 4); });
    attempt([&] { d.send_ir({}, 4); });
    attempt([&] { h.send_multicast({0, 1}, 2, 0, 4); });
  });
  sc_core::sc_start(bed->ctx.clock.delay(10));
  REQUIRE(errors.size() == 6);
  CHECK_THAT(errors[0], Catch::Contains("to itself"));
  CHECK_THAT(errors[1], Catch::Contains("node 9, which does not exist"));
  CHECK_THAT(errors[2], Catch::Contains("0 bytes"));
  CHECK_THAT(errors[3], Catch::Contains("twice"));
  CHECK_THAT(errors[4], Catch::Contains("no destination"));
  CHECK_THAT(errors[5], Catch::Contains("needs an NI"));
  CHECK(bed->ctx.messages.outstanding() == 0);
}

TEST_CASE("one-port: two messages to one node arrive one after the other on its single ejection channel") {
  // As above with one-port nodes: both worms reach (1,1)'s router at the same
  // time and need its one ejection channel. One takes it; the other's header,
  // already routed, waits in place and takes the channel in the cycle after
  // the first's tail left (VC allocation runs before traversal), so its
  // body follows the first's tail L cycles later: tail at t_S + L + 6 + L.
  // Receptions: the first at its arrival + t_R; the second arrives after
  // that (L > t_R), so it is received at its arrival + t_R.
  const DirectTopology t = DirectTopology::torus({4, 4}, true);
  auto bed = make_bed(t, RoutingAlgorithm::btr, "one_port");
  const NodeId x = t.parse_node("(1,1)"), a = t.parse_node("(1,0)"), b = t.parse_node("(1,2)");
  install_receivers(*bed, -1, {{x, 2}});
  for (NodeId s : {a, b}) bed->proc(s).set_program([x](HostApi& h) { h.send(x, bytes); });
  sc_core::sc_start(bed->ctx.clock.delay(2000));
  REQUIRE(bed->got.size() == 2);
  CHECK(bed->got[0].arrived == t_s + L + 6);
  CHECK(bed->got[1].arrived == t_s + L + 6 + L);
  CHECK(bed->got[0].received == bed->got[0].arrived + t_r);
  CHECK(bed->got[1].received == bed->got[1].arrived + t_r);
  CHECK(bed->got[0].src != bed->got[1].src);
  CHECK(bed->ctx.messages.outstanding() == 0);
}
