// Testbench of the switch-based multicast schemes (seed000 §5): one
// multicast (or a few, one after another) with scheme tree, path-lg,
// path-greedy or ssr on any switch network `wormcast plan` names (a
// generated irregular network or a topology file). It prints, side by side,
// the planner's worms for the set (as `wormcast plan SCHEME ...` prints
// them) and when each destination had the message, checks that every
// destination got it exactly once (besides the run's ledgers, flit
// conservation and deadlock watchdog) and can dump a VCD, where a worm's
// replication at a switch shows as several outputs of one switch carrying
// the same packet in the same cycles.
//
//   switch_multicast_tb [--scheme tree|path-lg|path-greedy|ssr] [--topology irregular:8x8p32s1 | FILE]
//                       [--source 0] [--dests 3,7,12 | --degree 8 --seed 1] [--size 64]
//                       [--node-model endpoint|host_ni] [--selection deterministic|round_robin|random|adaptive]
//                       [--drop-id switch_id|node_id] [--repetitions 1] [--vcd FILE [--vcd-filter GLOB]]
#include <CLI/CLI.hpp>
#include <spdlog/spdlog.h>

#include <cstdlib>
#include <iostream>
#include <sstream>
#include <systemc>

#include "algorithms/switch_scheme.h"
#include "testbenches/app/config.h"
#include "testbenches/app/multicast_tb.h"
#include "testbenches/app/runner.h"
#include "testbenches/app/workloads/multicast_workload.h"

using namespace wormcast;

namespace {

struct Args {
  std::string scheme = "tree", node_model = "endpoint", selection = "deterministic", drop_id = "switch_id";
  tb::TbSetOptions set{"irregular:8x8p32s1", "", "", "", "*", 8, 1};
  int size = 64, reps = 1;
};

// The multicast on the plan's network: switches that decode the scheme's
// worms, one multicast (or --repetitions) from the set's source.
std::vector<tb::Override> overrides(const tb::TbMulticast& mc, const Args& a) {
  std::vector<tb::Override> o = tb::network_settings(mc);
  o.insert(o.end(), {{"node.model", a.node_model},
                                          {"switch.decoder", algo::switch_scheme(a.scheme).decoder()},
                                          {"switch.drop_id", a.drop_id},
                                          {"routing.selection", a.selection},
                                          {"traffic.kind", "single_multicast"},
                                          {"traffic.scheme", a.scheme},
                                          {"traffic.source", std::to_string(mc.source)},
                                          {"traffic.destinations", mc.names(mc.dests)},
                                          {"traffic.repetitions", std::to_string(a.reps)},
                                          {"message.size", std::to_string(a.size)},
                                          {"sim.warmup", "0"},
                                          {"sim.measure", "1"},
                                          {"sim.drain_limit", "10000000"}});
  return o;
}

// The plan's options for the ID field the switches read (SSR and the
// path-based schemes; the tree's bit string has none).
algo::PlanOptions plan_options(const Args& a) {
  algo::PlanOptions o;
  if (a.scheme != "tree") o["id"] = a.drop_id == "node_id" ? "node" : "switch";
  return o;
}

void add_options(CLI::App& app, Args& a) {
  app.add_option("--scheme", a.scheme,
                 "a switch-based scheme: " + algo::switch_schemes().joined_names() + " (default tree)")
      ->check(CLI::IsMember(algo::switch_schemes().names()));
  tb::add_set_options(app, a.set, "irregular:SxPpN[sSEED][cCONN] or a topology file (default irregular:8x8p32s1)",
                      "3,7,12", "net.sw0");
  app.add_option("--size", a.size, "message length in flits (default 64)");
  app.add_option("--node-model", a.node_model, "endpoint (default) or host_ni")
      ->check(CLI::IsMember({"endpoint", "host_ni"}));
  app.add_option("--selection", a.selection, "choice among legal ports (routing.selection)");
  app.add_option("--drop-id", a.drop_id, "SSR / multi-drop ID field: switch_id (default) or node_id");
  app.add_option("--repetitions", a.reps, "multicasts one after another (default 1)");
}

}  // namespace

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char* argv[]) {
  CLI::App app{"switch_multicast_tb: one switch-based multicast (seed000 §5) on the cycle-accurate model, next to "
               "its plan"};
  Args a;
  add_options(app, a);
  CLI11_PARSE(app, argc, argv);
  spdlog::set_level(spdlog::level::warn);
  try {
    const tb::TbMulticast mc = tb::tb_multicast(a.set);
    tb::require_switch_network(mc, a.set);
    const std::string plan = tb::plan_text(a.scheme, mc, plan_options(a));       // as `wormcast plan` prints it
    const tb::ExperimentConfig cfg = tb::load_experiment("", overrides(mc, a));  // the same multicast, simulated
    std::vector<std::pair<rtl::NodeId, Cycle>> got;
    Cycle start = 0;
    const tb::RunResult r = tb::run_tb(cfg, a.set, [&](const tb::Workload& w) {
      const auto& run = dynamic_cast<const tb::SingleMulticastWorkload&>(w).run();
      got = run.arrivals;
      start = run.send_call;
    });
    if (!r.ok) {
      std::cerr << "switch_multicast_tb: " << r.error << "\n";
      return r.exit_code ? r.exit_code : 3;
    }
    std::vector<topo::NodeId> received;
    std::ostringstream timeline;
    for (const auto& [node, at] : got) {
      timeline << "  " << mc.net->node_text(node) << " has the message at cycle " << at - start << "\n";
      received.push_back(node);
    }
    tb::check_exactly_once(mc, received);
    const auto& m = r.json["metrics"]["multicast"];
    std::cout << "switch_multicast_tb: " << a.scheme << " on " << mc.net->spec << " (seed000 §5, " << a.node_model
              << " nodes)\nplan (algorithms/):\n"
              << plan << "simulated (cycle-accurate; cycles from the " << (a.reps > 1 ? "last " : "")
              << "multicast's start):\n"
              << timeline.str() << "  every destination received the message exactly once (" << mc.dests.size()
              << " destinations, " << m["worms"] << " worms, longest " << m["set"]["max_worm_flits"]
              << " flits)\n  latency " << m["latency_cycles"]["mean"] << " cycles to the last destination (mean of "
              << m["latency_cycles"]["count"] << ")\n";
    if (!a.set.vcd.empty()) std::cout << "  waveform: " << a.set.vcd << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "switch_multicast_tb: error: " << e.what() << "\n";
    return 2;
  }
}
