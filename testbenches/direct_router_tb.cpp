// Testbench of the direct-network router features (seed001 §1.5–1.7, §5.2;
// docs/direct_networks.md): one small scenario per feature on the
// cycle-accurate VcRouter, printing what happens cycle by cycle.
//
//   direct_router_tb --case vc_mux      two worms on the p and h VCs of one physical link of a
//                                       unidirectional 8-ring (UTR): per-cycle progress, half bandwidth each
//   direct_router_tb --case ir          an IR worm through several destinations of a 4x4 mesh: each
//                                       local copy, the header shrinking (with --vcd: the waveform)
//   direct_router_tb --case three_way   two opposite worms on one bidirectional wire (link_sharing)
//   direct_router_tb --case replication a tree-shaped worm replicated at routers (router.replication)
//   direct_router_tb --case link_hold   two worms on the two VCs of one link of a line of 8 routers with
//                                       router.link_hold: packet: the second waits for the first's tail
//   options: [--length 12] [--link-hold flit|packet (the case's own)] [--vcd FILE] [--vcd-filter 'net.router*']
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <systemc>

#include "rtl_models/core/kernel.h"
#include "testbenches/app/runner.h"
#include "testbenches/app/vcd_sink.h"
#include "topologies/networks/direct_network_kind.h"
#include "topologies/direct_paths.h"

using namespace wormcast;
using namespace wormcast::rtl;
using topo::DirectTopology;
using topo::Direction;
using topo::RoutingAlgorithm;

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}

namespace {

struct Scenario {
  DirectTopology topo = DirectTopology::mesh({2});
  RoutingAlgorithm routing = RoutingAlgorithm::dor;
  topo::DirectNetworkParams params;
  // (source, packet) pairs injected at cycle 5; channels whose per-VC flit
  // counts are printed every cycle: (node, dimension, direction).
  std::vector<std::pair<NodeId, PacketPtr>> worms;
  std::vector<std::tuple<NodeId, int, Direction>> watch;
};

PacketPtr unicast(NodeId dst, int length) {
  auto p = std::make_shared<Packet>();
  p->header.dest = dst;
  p->length = length;
  return p;
}

PacketPtr multicast(std::vector<NodeId> dests, int header_flits, int length, bool tree) {
  auto p = std::make_shared<Packet>();
  p->header.kind = HeaderKind::multicast;
  p->header.dests = std::move(dests);
  p->header.direct_tree = tree;
  p->header_flits = header_flits;
  p->length = length;
  return p;
}

Scenario make(const std::string& name, int L) {
  Scenario s;
  s.params.router.buffer_flits = 4;   // covers the credit round trip: one VC alone streams
  if (name == "vc_mux") {              // 4 -> 1 wraps (p VC), 5 -> 7 does not (h VC): both cross 5->6 and 6->7
    s.topo = DirectTopology::torus({8}, false);
    s.routing = RoutingAlgorithm::utr;
    s.worms = {{4, unicast(1, L)}, {5, unicast(7, L)}};
    s.watch = {{5, 0, Direction::plus}, {6, 0, Direction::plus}};
  } else if (name == "ir") {           // (0,0) -> (0,2) -> (2,2) -> (3,0) on a 4x4 mesh
    s.topo = DirectTopology::mesh({4, 4});
    const std::vector<NodeId> d{s.topo.parse_node("(0,2)"), s.topo.parse_node("(2,2)"), s.topo.parse_node("(3,0)")};
    s.worms = {{0, multicast(d, topo::ir_header_flits(3), topo::ir_header_flits(3) + L, false)}};
    s.watch = {{0, 0, Direction::plus}, {2, 1, Direction::plus}};
  } else if (name == "three_way") {    // 0 -> 1 and 1 -> 0 over one shared wire
    s.params.router.link_sharing = "bidirectional";
    s.worms = {{0, unicast(1, L)}, {1, unicast(0, L)}};
    s.watch = {{0, 0, Direction::plus}, {1, 0, Direction::minus}};
  } else if (name == "link_hold") {    // 2 -> 5 and 1 -> 3 on a line, 2 VCs: both cross 2->3, 2 -> 5 first
    s.topo = DirectTopology::mesh({8});
    s.params.router.vcs = 2;
    s.params.router.link_hold = "packet";
    s.worms = {{2, unicast(5, L)}, {1, unicast(3, L)}};
    s.watch = {{2, 0, Direction::plus}};
  } else {                             // replication: (1,1) -> six nodes of a 4x4 mesh
    s.topo = DirectTopology::mesh({4, 4});
    s.params.router.replication = true;
    std::vector<NodeId> d;
    for (const char* n : {"(1,3)", "(3,1)", "(3,3)", "(0,0)", "(1,0)", "(2,2)"}) d.push_back(s.topo.parse_node(n));
    s.worms = {{s.topo.parse_node("(1,1)"), multicast(d, 1, L, true)}};
    s.watch = {{5, 1, Direction::plus}, {5, 0, Direction::plus}, {5, 1, Direction::minus}, {5, 0, Direction::minus}};
  }
  return s;
}

// One line per cycle in which a watched channel carried a flit: which VC.
void print_cycle(topo::DirectNetwork& net, const Scenario& s, Cycle now, std::vector<std::uint64_t>& last) {
  std::string line;
  std::size_t i = 0;
  for (const auto& [x, d, dir] : s.watch)
    for (int v = 0; v < net.vcs(); ++v, ++i) {
      const rtl::VcLink* l = net.channel_link(x, d, dir);
      const std::uint64_t sent = l && l->uses_vc(v) ? l->flits_sent(v) : 0;
      if (sent != last[i])
        line += "  " + net.topology().name(x) + " d" + std::to_string(d) + (dir == Direction::plus ? "+" : "-") +
                " vc" + std::to_string(v) + " flit " + std::to_string(sent);
      last[i] = sent;
    }
  if (!line.empty()) std::cout << "cycle " << now << ":" << line << "\n";
}

}  // namespace

int sc_main(int argc, char* argv[]) {
  CLI::App app{"direct_router_tb: one scenario per direct-network router feature (seed001)"};
  std::string which = "vc_mux", vcd, vcd_filter = "net.router*", link_hold;
  int length = 12;
  app.add_option("--case", which, "vc_mux, ir, three_way, replication or link_hold")
      ->check(CLI::IsMember({"vc_mux", "ir", "three_way", "replication", "link_hold"}));
  app.add_option("--link-hold", link_hold, "router.link_hold for the case: flit or packet (default: the case's)")
      ->check(CLI::IsMember({"flit", "packet"}));
  app.add_option("--length", length, "body flits (unicast: whole packet) per worm")->check(CLI::Range(1, 10000));
  app.add_option("--vcd", vcd, "write a VCD waveform (FILE without .vcd)");
  app.add_option("--vcd-filter", vcd_filter, "glob on module names to trace");
  CLI11_PARSE(app, argc, argv);
  spdlog::set_level(spdlog::level::warn);
  try {
    fresh_kernel();
    SimContext ctx(5000);
    Scenario s = make(which, length);
    if (!link_hold.empty()) s.params.router.link_hold = link_hold;
    topo::DirectNetwork net("net", std::make_shared<const topo::DirectRouting>(s.topo, s.routing), s.params, ctx);
    for (int x = 0; x < net.num_nodes(); ++x)
      net.endpoint(x).on_receive = [&, x](const Packet& pk, Cycle now) {
        std::cout << "cycle " << now << ": " << s.topo.name(x) << " receives packet " << pk.id << " from "
                  << s.topo.name(pk.src) << ": " << pk.length << " flits (" << pk.header_flits
                  << " header), latency " << now - pk.created << "\n";
      };
    if (!vcd.empty()) tb::require_vcd_matches(net, vcd_filter);
    // Through a VcdSink: a waveform that does not reach its file whole is an error.
    std::unique_ptr<tb::VcdSink> sink = vcd.empty() ? nullptr : std::make_unique<tb::VcdSink>(vcd + ".vcd");
    sc_core::sc_trace_file* tf = sink ? sc_core::sc_create_vcd_trace_file(sink->systemc_base().c_str()) : nullptr;
    if (tf) std::cout << "tracing " << net.trace(tf, vcd_filter) << " modules to " << vcd << ".vcd\n";
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    sc_core::sc_start(ctx.clock.delay(5));
    for (auto& [src, pk] : s.worms) net.endpoint(src).inject(pk);
    std::vector<std::uint64_t> last(s.watch.size() * static_cast<std::size_t>(net.vcs()), 0);
    for (Cycle c = 0; c < 400 && (ctx.ledger.outstanding() > 0 || c == 0); ++c) {
      sc_core::sc_start(ctx.clock.delay(1));
      print_cycle(net, s, ctx.clock.now(), last);
    }
    if (tf) {
      sc_core::sc_close_vcd_trace_file(tf);
      sink->finish();
    }
    const bool ok = ctx.ledger.outstanding() == 0 && net.flits_in_network() == 0;
    std::cout << (ok ? "all delivered exactly once, flits conserved" : "NOT all delivered") << " (flit copies "
              << ctx.flits.extra_copies << ")\n";
    return ok ? 0 : 1;
  } catch (const std::exception& e) {
    std::cerr << "direct_router_tb: " << e.what() << "\n";
    return 2;
  }
}
