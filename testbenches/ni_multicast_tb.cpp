// Testbench of NI-based multicast (seed002, seed000 §4): a k-binomial tree
// of unicasts over the chain of the multicast set (CCO-ordered on the
// switch network), forwarded packet by packet by smart NIs (FPFS or FCFS
// firmware) or relayed by the hosts behind conventional NIs. It runs one
// message from a source to a set of destinations on the cycle-accurate
// irregular network (host, I/O bus and NI coprocessor per node, switches
// with up*/down* routing) and prints, side by side, the planner's tree
// (as `wormcast plan kbinomial ...`: steps, packet steps, sends per step)
// and when each destination's host had the message. It checks that every
// destination received it exactly once (besides the run's ledgers, flit
// conservation and deadlock watchdog) and can dump a VCD.
//
//   ni_multicast_tb [--scheme kbinomial|binomial|linear] [--k 0] [--firmware fpfs|fcfs|conventional]
//                   [--topology irregular:16x8p64s1c1] [--source 0] [--dests 5,9,20 | --degree 15 --seed 1]
//                   [--size 256] [--vcd FILE [--vcd-filter 'net.node3*']]
//
// The nodes run with the settings of experiments/seed002/base.yaml
// (docs/seed002.md): 5 ns cycles, t_hs = t_hr = 12.5 us, t_ns = 3 us,
// t_nr = 2 us, 64-byte packets.
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <sstream>
#include <systemc>

#include "algorithms/kbinomial.h"
#include "testbenches/app/config.h"
#include "testbenches/app/multicast_tb.h"
#include "testbenches/app/workloads/multicast_workload.h"
#include "testbenches/app/runner.h"

using namespace wormcast;

namespace {

constexpr int kPacketBytes = 64;  // ni.packet_size of seed002's base experiment

struct Args {
  std::string scheme = "kbinomial", firmware = "fpfs";
  tb::TbSetOptions set{"irregular:16x8p64s1c1", "", "", "", "*", 15, 1};
  int k = 0, size = 256;
};

// The tree's fan-out bound: given or optimal (kbinomial), ceil(log2 n)
// (binomial), 1 (linear).
long long fan_out(const Args& a, long long n) {
  if (a.scheme == "linear") return 1;
  if (a.scheme == "binomial") return algo::binomial_k(static_cast<algo::Count>(n));
  return a.k;  // 0: optimal, chosen by the planner and the workload alike
}

// The experiment of experiments/seed002/base.yaml on the plan's network for
// this set, one repetition.
std::vector<tb::Override> overrides(const tb::TbMulticast& mc, const Args& a) {
  const long long k = fan_out(a, static_cast<long long>(mc.dests.size()) + 1);
  std::vector<tb::Override> o = tb::network_settings(mc);
  o.insert(o.end(), {
          {"clock.period", "5ns"},
          {"node.model", "host_ni"},
          {"host.t_hs", "12.5us"},
          {"host.t_hr", "12.5us"},
          {"iobus.bandwidth", "12800MB/s"},
          {"ni.firmware", a.firmware},
          {"ni.t_ns", "3us"},
          {"ni.t_nr", "2us"},
          {"ni.packet_size", std::to_string(kPacketBytes) + "flits"},
          {"traffic.kind", "single_multicast"},
          {"traffic.scheme", "ni"},
          {"traffic.source", std::to_string(mc.source)},
          {"traffic.destinations", mc.names(mc.dests)},
          {"traffic.k", std::to_string(k)},
          {"traffic.construction", "time_ordered"},
          {"traffic.ordering", "cco_approx"},
          {"traffic.repetitions", "1"},
          {"message.size", std::to_string(a.size)},
          {"sim.warmup", "0"},
          {"sim.measure", "1"},
          {"sim.drain_limit", "20000000"}});
  return o;
}

algo::PlanOptions plan_options(const Args& a) {
  algo::PlanOptions o;
  o["packets"] = std::to_string((a.size + kPacketBytes - 1) / kPacketBytes);
  if (a.scheme == "kbinomial" && a.k > 0) o["k"] = std::to_string(a.k);
  if (a.firmware != "conventional") o["discipline"] = a.firmware;
  return o;
}

}  // namespace

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char* argv[]) {
  CLI::App app{
      "ni_multicast_tb: one NI-based k-binomial multicast (seed002) on the cycle-accurate switch network, "
      "next to its plan"};
  Args a;
  app.add_option("--scheme", a.scheme, "kbinomial (default), binomial or linear")
      ->check(CLI::IsMember({"kbinomial", "binomial", "linear"}));
  app.add_option("--k", a.k, "kbinomial: fan-out bound (default 0: optimal, seed002 Theorem 3)");
  app.add_option("--firmware", a.firmware, "fpfs (default) or fcfs smart NIs, or conventional NIs (hosts relay)")
      ->check(CLI::IsMember({"fpfs", "fcfs", "conventional"}));
  tb::add_set_options(app, a.set, "irregular:SxPpN[sSEED][cCONN] or a topology file (default irregular:16x8p64s1c1)",
                      "5,9,20",
                      "net.node3*");
  app.add_option("--size", a.size, "message size in bytes (64-byte packets; default 256, 4 packets)");
  CLI11_PARSE(app, argc, argv);
  spdlog::set_level(spdlog::level::warn);
  try {
    const tb::TbMulticast mc = tb::tb_multicast(a.set);
    tb::require_switch_network(mc, a.set);
    if (a.size < 1) throw std::invalid_argument("--size " + std::to_string(a.size) + ": must be at least 1 byte");
    const std::string plan = tb::plan_text(a.scheme, mc, plan_options(a));       // as `wormcast plan` prints it
    const tb::ExperimentConfig cfg = tb::load_experiment("", overrides(mc, a));  // the same multicast, simulated

    std::vector<std::pair<rtl::NodeId, Cycle>> got;
    Cycle start = 0;
    const tb::RunResult res = tb::run_tb(cfg, a.set, [&](const tb::Workload& w) {
      const auto& run = dynamic_cast<const tb::SingleMulticastWorkload&>(w).run();
      got = run.arrivals;
      start = run.send_call;
    });
    if (!res.ok) {
      std::cerr << "ni_multicast_tb: " << res.error << "\n";
      return res.exit_code ? res.exit_code : 3;
    }
    std::vector<topo::NodeId> received;
    std::ostringstream timeline;
    for (const auto& [node, at] : got) {
      timeline << "  " << mc.net->node_text(node) << "'s host has the message at cycle " << at - start << "\n";
      received.push_back(node);
    }
    tb::check_exactly_once(mc, received);
    const double cycle_us = 0.005;
    const auto latency = res.json["metrics"]["multicast"]["latency_cycles"]["max"].get<double>();
    std::cout << "ni_multicast_tb: " << a.scheme << " with " << a.firmware << " NIs on " << mc.net->spec
              << " (seed002)\n"
              << "plan (algorithms/, unit steps):\n"
              << plan << "simulated (cycle-accurate, 5 ns cycles; cycles from the source's send call):\n"
              << timeline.str() << "  every destination received the message exactly once (" << mc.dests.size()
              << " destinations)\n"
              << "  latency " << latency << " cycles (" << std::fixed << std::setprecision(2) << latency * cycle_us
              << " us) to the last destination\n";
    if (!a.set.vcd.empty()) std::cout << "  waveform: " << a.set.vcd << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "ni_multicast_tb: error: " << e.what() << "\n";
    return 2;
  }
}
