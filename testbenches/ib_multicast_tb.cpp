// Testbench of seed003's InfiniBand multicast on an m-port n-tree: cyclic
// multicast (one multicast table per sender and group, the union of the
// cyclic unicast paths), OpenSM's one spanning tree per group, or one
// unicast per member. It runs one sender's message to a group on the
// cycle-accurate model (store-and-forward IB switches whose forwarding
// tables the workload programs as subnet manager, endpoint HCAs) and prints,
// side by side, the planner's multicast table for that group (as `wormcast
// plan ib-cyclic ...`) and when each member had the whole message. It checks
// that every member received it exactly once (besides the run's ledgers,
// flit conservation and deadlock watchdog) and can dump a VCD.
//
//   ib_multicast_tb --scheme cyclic|opensm|unicast [--topology ibft:8,3] [--source 'P(000)']
//                   [--dests 'P(001),P(100)' | --degree 12 --seed 1] [--size 1024] [--mtu 0]
//                   [--vcd FILE [--vcd-filter 'net.sw0*']]
//
// The network runs with the settings of experiments/seed003/ib_fat_tree.yaml
// (docs/seed003.md); buffers hold two packets in a switch, one in an HCA.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <systemc>

#include "testbenches/app/config.h"
#include "testbenches/app/workloads/ib_multicast_workload.h"
#include "testbenches/app/multicast_tb.h"
#include "testbenches/app/runner.h"

using namespace wormcast;

namespace {

struct Args {
  std::string scheme;
  tb::TbSetOptions set{"ibft:8,3", "", "", "", "*", 12, 1};  // 12 members besides the sender: the paper's 10 %
  int size = 1024, mtu = 0;
};

// The experiment of experiments/seed003/ib_fat_tree.yaml for this sender and
// group, one trial.
std::vector<tb::Override> overrides(const tb::TbMulticast& mc, const Args& a) {
  const int packet = (a.mtu > 0 ? std::min(a.mtu, a.size) : a.size) + 1;  // payload + the header flit
  std::vector<tb::Override> o = tb::network_settings(mc);
  o.insert(o.end(), {{"clock.period", "4ns"},
          {"switch.decoder", "ib"},
          {"switch.admission", "store_and_forward"},
          {"switch.next_header", "after_grant"},
          {"switch.route_delay", "24"},
          {"switch.crossbar_delay", "1"},
          {"switch.buffer", std::to_string(2 * packet) + "flits"},
          {"switch.chunk", "32flits"},
          {"link.latency", "5"},
          {"node.model", "endpoint"},
          {"endpoint.rx_buffer", std::to_string(packet) + "flits"},
          {"traffic.kind", "ib_multicast"},
          {"traffic.scheme", a.scheme},
          {"traffic.senders", mc.names({mc.source})},
          {"traffic.members", mc.names(mc.dests)},
          {"traffic.trials", "1"},
          {"traffic.header_flits", "1"},
          {"traffic.flit_bytes", "1"},
          {"traffic.mtu", std::to_string(a.mtu)},
          {"message.size", std::to_string(a.size)},
          {"sim.warmup", "0"},
          {"sim.measure", "1"},
          {"sim.drain_limit", "2000000000"},
          {"sim.watchdog", "200000"}});
  return o;
}

// When each member had the whole message, from the workload's record of its
// (only) trial.
void print_members(const tb::TbMulticast& mc, const tb::IbMulticastWorkload::Run& run, std::ostream& out,
                   std::vector<topo::NodeId>& members) {
  std::vector<tb::IbMulticastWorkload::Run::Done> d = run.done;
  std::sort(d.begin(), d.end(), [](const auto& x, const auto& y) { return x.at < y.at; });
  for (const auto& x : d) {
    out << "  " << mc.net->node_text(x.member) << " has the whole message at cycle " << x.at << "\n";
    members.push_back(x.member);
  }
  if (run.discarded > 0)
    out << "  " << run.discarded << " copies reached the sender, not a member, and were discarded by its HCA\n";
}

}  // namespace

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char* argv[]) {
  CLI::App app{"ib_multicast_tb: one seed003 InfiniBand multicast on the cycle-accurate fat tree, next to its plan"};
  Args a;
  app.add_option("--scheme", a.scheme, "cyclic, opensm or unicast")
      ->required()
      ->check(CLI::IsMember({"cyclic", "opensm", "unicast"}));
  tb::add_set_options(app, a.set, "ibft:M,N, an m-port n-tree (default ibft:8,3, 128 nodes)", "'P(001),P(100)'",
                      "net.sw0*");
  app.add_option("--size", a.size, "message size in bytes (one flit a byte; default 1024)");
  app.add_option("--mtu", a.mtu, "payload bytes per packet (0: one packet)");
  CLI11_PARSE(app, argc, argv);
  spdlog::set_level(spdlog::level::warn);
  try {
    const tb::TbMulticast mc = tb::tb_multicast(a.set);
    if (mc.net->kind != algo::NetworkClass::fat_tree)
      throw std::invalid_argument("--topology " + a.set.topology + ": not an InfiniBand fat tree (ibft:M,N)");
    // Checked here: the buffers are sized from it, and would be refused first.
    if (a.size < 1) throw std::invalid_argument("--size " + std::to_string(a.size) + ": must be at least 1 byte");
    const std::string plan = tb::plan_text("ib-" + a.scheme, mc, {});            // as `wormcast plan` prints it
    const tb::ExperimentConfig cfg = tb::load_experiment("", overrides(mc, a));  // the same multicast, simulated

    std::ostringstream timeline;
    std::vector<topo::NodeId> members;
    const tb::RunResult res = tb::run_tb(cfg, a.set, [&](const tb::Workload& w) {
      print_members(mc, dynamic_cast<const tb::IbMulticastWorkload&>(w).run(), timeline, members);
    });
    if (!res.ok) {
      std::cerr << "ib_multicast_tb: " << res.error << "\n";
      return res.exit_code ? res.exit_code : 3;
    }
    tb::check_exactly_once(mc, members);
    const auto& m = res.json["metrics"]["multicast"];
    std::cout << "ib_multicast_tb: " << a.scheme << " on " << mc.net->spec << " (seed003)\n"
              << "plan (algorithms/):\n"
              << plan << "simulated (cycle-accurate, 4 ns cycles; cycles from the multicast's start):\n"
              << timeline.str() << "  every member received the message exactly once (" << mc.dests.size()
              << " members, " << m["packets_sent"] << (m["packets_sent"].get<int>() == 1 ? " packet" : " packets")
              << " sent)\n"
              << "  completion " << m["completion_cycles"]["max"] << " cycles, " << std::fixed << std::setprecision(1)
              << m["mean_delivery_cycles"]["mean"].get<double>() << " on average over the members\n";
    if (!a.set.vcd.empty()) std::cout << "  waveform: " << a.set.vcd << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "ib_multicast_tb: error: " << e.what() << "\n";
    return 2;
  }
}
