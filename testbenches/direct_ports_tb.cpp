// Testbench of one-port vs all-port processor nodes on a direct network
// (seed001 §1.4, §1.8, §7.1): one source sends a message to each of a set of
// destinations (default: its neighbours, 2n on a bidirectional torus) by
// separate addressing, once with one-port nodes and once with all-port
// nodes, and prints per destination the internal channel used, the cycle
// the tail arrived, the cycle receive() returned (after t_R) and the
// latency from the start. Every message is checked delivered exactly once.
//
//   direct_ports_tb [--dims 4x4] [--direction bidirectional|unidirectional] [--source 5]
//                   [--dests 1,4,6,9] [--size 40] [--t-s 20] [--t-r 16] [--send-model per_channel|in_order]
//                   [--vcd FILE]
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>
#include <systemc>

#include "rtl_models/core/kernel.h"
#include "rtl_models/node/processor_node.h"
#include "testbenches/app/vcd_sink.h"
#include "topologies/networks/direct_network_kind.h"

using namespace wormcast;
using namespace wormcast::rtl;

namespace {

struct Row {
  NodeId dest = -1;
  int channel = 0;
  Cycle arrived = 0, received = 0;
};

struct Setup {
  topo::DirectTopology topology = topo::DirectTopology::torus({4, 4}, true);
  NodeId source = 5;
  std::vector<NodeId> dests;
  int size = 40;
  ProcessorParams proc;
  std::string vcd;
};

// Runs the separate-addressing send once with `ports`; returns one row per destination.
std::vector<Row> run(const Setup& s, const std::string& ports) {
  fresh_kernel();
  SimContext ctx(5000);
  topo::DirectNetworkParams p;
  p.router.buffer_flits = 4;
  p.router.ports = ports;
  auto model = std::make_shared<ProcessorModel>();
  model->params = s.proc;
  p.node_model = model;
  auto routing = std::make_shared<const topo::DirectRouting>(s.topology, topo::default_routing(s.topology));
  topo::DirectNetwork net("net", routing, p, ctx);
  auto proc = [&net](NodeId x) -> DirectProcessor& { return static_cast<ProcessorNode&>(net.node(x)).processor(); };
  std::map<NodeId, Row> rows;
  for (NodeId d : s.dests) {
    const auto selector = topo::injection_selector(routing, s.source);
    rows[d] = Row{d, ports == "all_port" ? selector(d) : 0, 0, 0};
    Row* row = &rows[d];
    proc(d).set_program([row](HostApi& h) {
      const ReceivedMessage m = h.receive();
      row->arrived = m.completed;
      row->received = m.received;
    });
  }
  std::vector<DirectSend> sends;
  for (NodeId d : s.dests) sends.push_back(DirectSend{{d}, s.size});
  proc(s.source).set_program([sends](HostApi& h) { dynamic_cast<DirectHostApi&>(h).send_all(sends); });
  // Through a VcdSink: a waveform that does not reach its file whole is an error.
  std::unique_ptr<tb::VcdSink> sink;
  sc_core::sc_trace_file* tf = nullptr;
  if (!s.vcd.empty()) {
    sink = std::make_unique<tb::VcdSink>(s.vcd + "_" + ports + ".vcd");
    tf = sc_core::sc_create_vcd_trace_file(sink->systemc_base().c_str());
    net.trace(tf, "*");
  }
  sc_core::sc_start(ctx.clock.delay(100000));
  if (tf) {
    sc_core::sc_close_vcd_trace_file(tf);
    sink->finish();
  }
  if (ctx.messages.outstanding() != 0 || ctx.ledger.outstanding() != 0 || net.flits_in_network() != 0)
    throw std::runtime_error(ports + ": not every message was delivered (ledger: " +
                             std::to_string(ctx.messages.outstanding()) + " outstanding)");
  std::vector<Row> out;
  for (NodeId d : s.dests) out.push_back(rows[d]);
  return out;
}

std::vector<NodeId> parse_dests(const topo::DirectTopology& t, NodeId source, const std::string& list) {
  std::vector<NodeId> v;
  if (list.empty()) {
    for (const auto& ch : t.channels(source)) v.push_back(ch.to);
    return v;
  }
  std::stringstream ss(list);
  for (std::string item; std::getline(ss, item, ',');) v.push_back(std::stoi(item));
  return v;
}

}  // namespace

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char* argv[]) {
  CLI::App app{"direct_ports_tb: one-port vs all-port processor nodes, separate addressing (seed001 §1.4, §7.1)"};
  std::string dims = "4x4", direction = "bidirectional", dests, send_model = "per_channel", vcd;
  int source = 5, size = 40;
  Cycle t_s = 20, t_r = 16;
  app.add_option("--dims", dims, "torus radices, highest dimension first (e.g. 4x4, 4x4x4)");
  app.add_option("--direction", direction, "bidirectional or unidirectional")
      ->check(CLI::IsMember({"bidirectional", "unidirectional"}));
  app.add_option("--source", source, "source node id");
  app.add_option("--dests", dests, "comma-separated destination ids (default: the source's neighbours)");
  app.add_option("--size", size, "message bytes (1 flit each, + 1 header flit)");
  app.add_option("--t-s", t_s, "send overhead t_S (cycles)");
  app.add_option("--t-r", t_r, "receive overhead t_R (cycles)");
  app.add_option("--send-model", send_model, "per_channel (model A) or in_order (model B)")
      ->check(CLI::IsMember({"per_channel", "in_order"}));
  app.add_option("--vcd", vcd, "write VCD waveforms FILE_one_port.vcd and FILE_all_port.vcd");
  CLI11_PARSE(app, argc, argv);
  spdlog::set_level(spdlog::level::warn);
  try {
    Setup s;
    std::vector<int> k;
    std::stringstream ss(dims);
    for (std::string item; std::getline(ss, item, 'x');) k.push_back(std::stoi(item));
    s.topology = topo::DirectTopology::torus(k, direction == "bidirectional");
    if (!s.topology.valid_node(source)) throw std::invalid_argument("--source " + std::to_string(source) + " is not a node");
    s.source = source;
    s.dests = parse_dests(s.topology, source, dests);
    s.size = size;
    s.proc.t_s = t_s;
    s.proc.t_r = t_r;
    s.proc.send_model = send_model;
    s.vcd = vcd;
    std::printf("%s, source %s, %zu messages of %d bytes (%d flits), t_S = %llu, t_R = %llu, send model %s\n",
                s.topology.spec().c_str(), s.topology.name(source).c_str(), s.dests.size(), size, size + 1,
                static_cast<unsigned long long>(t_s), static_cast<unsigned long long>(t_r), send_model.c_str());
    for (const std::string ports : {"one_port", "all_port"}) {
      const std::vector<Row> rows = run(s, ports);
      std::printf("\n%s\n  %-10s %8s %10s %10s\n", ports.c_str(), "dest", "channel", "tail_at", "received");
      Cycle last = 0;
      double sum = 0;
      for (const Row& r : rows) {
        std::printf("  %-10s %8d %10llu %10llu\n", s.topology.name(r.dest).c_str(), r.channel,
                    static_cast<unsigned long long>(r.arrived), static_cast<unsigned long long>(r.received));
        last = std::max(last, r.received);
        sum += static_cast<double>(r.received);
      }
      std::printf("  latency (send call at 0 to end of t_R): mean %.1f, max %llu cycles; exactly once: yes\n",
                  sum / static_cast<double>(rows.size()), static_cast<unsigned long long>(last));
    }
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "direct_ports_tb: " << e.what() << "\n";
    return 1;
  }
}
