// Testbench of the direct-network multicast schemes (algo::direct_schemes():
// seed001's hypercube, torus and path-based IR schemes and its
// separate-addressing baseline, seed004's SCI schemes). It
// runs one multicast from a source to a set of destinations on the
// cycle-accurate model (routers, processor nodes with t_S / t_R, the scheme
// as software on the processors) and prints, side by side, the planner's
// steps for that set (the step model, as `wormcast plan`) and what the
// simulation did: when each message was posted and when it was whole at its
// (last) destination, and when each destination held the message. It
// checks that every destination received the message exactly once (besides
// the run's own ledgers, flit conservation and deadlock watchdog) and can
// dump a VCD of the routers and nodes.
//
//   direct_multicast_tb --scheme mdtorus [--topology torus:8x8:uni] [--source (0,0)]
//                       [--dests '(1,2),(3,0)' | --degree 15 --seed 1] [--size 64] [--r 4]
//                       [--t-s 20 --t-r 16] [--buffer 4] [--vcd FILE [--vcd-filter 'net.router5']]
//
// Each scheme runs with the settings of its experiments (its
// algo::DirectTbDefaults: experiments/seed001, experiments/seed004/sci_torus.yaml);
// docs/user_guide.md, "Multicast testbenches".
#include <spdlog/spdlog.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cstdlib>
#include <iomanip>
#include <iostream>
#include <map>
#include <optional>
#include <sstream>
#include <systemc>

#include "algorithms/direct_scheme.h"
#include "testbenches/app/config.h"
#include "testbenches/app/workloads/direct_multicast_workload.h"
#include "testbenches/app/multicast_tb.h"
#include "testbenches/app/runner.h"

using namespace wormcast;

namespace {

// What the simulation did, from the workload's record of its (only) trial.
void print_timeline(const tb::TbMulticast& mc, const tb::DirectMulticastWorkload::Run& run, std::ostream& out) {
  int i = 0;
  for (const auto& [id, x] : run.transfers)
    out << "  message " << ++i << ": sent by " << mc.net->node_text(x.sender) << ", posted at cycle "
        << x.posted - run.start << " (after t_S), whole at its " << (x.receivers > 1 ? "last " : "")
        << "destination at cycle "
        << x.arrived - run.start << "\n";
  std::vector<std::pair<Cycle, topo::NodeId>> got;
  for (const auto& r : run.received) got.push_back({r.at - run.start, r.node});
  std::sort(got.begin(), got.end());
  for (const auto& [c, n] : got)
    out << "  " << mc.net->node_text(n) << " holds the message at cycle " << c << " (after t_R)\n";
}

struct Args {
  std::string scheme;
  tb::TbSetOptions set;
  std::map<std::string, int> counts;           // the schemes' whole-number options (--r); 0: the scheme's default
  std::optional<int> size, t_s, t_r, buffer;   // given: passed on, and checked by the experiment loader
};

// The scheme's options: its testbench defaults, then those given.
std::map<std::string, std::string> scheme_options(const algo::DirectTbDefaults& d, const Args& a) {
  std::map<std::string, std::string> o = d.options;
  for (const auto& [key, value] : a.counts)
    if (value != 0) o[key] = std::to_string(value);
  return o;
}

// The experiment of the multicast: the scheme's settings on the network of
// the set, the options given, one trial of the set.
std::vector<tb::Override> overrides(const algo::DirectTbDefaults& fam, const tb::TbMulticast& mc, const Args& a) {
  const topo::DirectTopology& t = *mc.net->direct;
  std::vector<tb::Override> o = tb::network_settings(mc);
  o.push_back({"routing.function", t.bidirectional() ? fam.routing_bi : fam.routing_uni});
  o.push_back({"node.model", "processor"});
  for (const auto& [key, value] : fam.settings) o.push_back({key, value});
  if (a.size) o.push_back({"message.size", std::to_string(*a.size)});
  if (a.t_s) o.push_back({"processor.t_s", std::to_string(*a.t_s)});
  if (a.t_r) o.push_back({"processor.t_r", std::to_string(*a.t_r)});
  if (a.buffer) o.push_back({"router.buffer", std::to_string(*a.buffer) + "flits"});
  o.insert(o.end(), {{"traffic.kind", "direct_multicast"},
                     {"traffic.scheme", a.scheme},
                     {"traffic.source", std::to_string(mc.source)},
                     {"traffic.destinations", mc.names(mc.dests)},
                     {"traffic.trials", "1"},
                     {"sim.warmup", "0"},
                     {"sim.measure", "1"},
                     {"sim.drain_limit", "200000000"}});
  for (const auto& [key, text] : scheme_options(fam, a)) o.push_back({"traffic." + key, text});
  return o;
}

}  // namespace

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char* argv[]) {
  CLI::App app{
      "direct_multicast_tb: one seed001 / seed004 multicast on the cycle-accurate direct network, next to its plan"};
  Args a;
  app.add_option("--scheme", a.scheme, "the multicast scheme (`wormcast plan --list` describes each)")
      ->required()
      ->check(CLI::IsMember(algo::direct_schemes().names()));
  tb::add_set_options(app, a.set, "torus:KxK:uni|bi, mesh:KxK or hypercube:N (default: the scheme's)",
                      "3,7,12 or (1,2),(3,0) or 0110,1001", "net.router5");
  app.add_option("--size", a.size, "message size in bytes (default: the scheme's experiments)");
  for (const algo::DirectOptionInfo& o : algo::direct_scheme_options())
    if (o.whole_number)
      app.add_option(algo::plan_keys("").option(o.key), a.counts[o.key],
                     o.described() + " (default: the scheme's testbench default)");
  app.add_option("--t-s", a.t_s, "send overhead t_S in cycles (default: the scheme's)");
  app.add_option("--t-r", a.t_r, "receive overhead t_R in cycles");
  app.add_option("--buffer", a.buffer, "flits per VC buffer");
  CLI11_PARSE(app, argc, argv);
  spdlog::set_level(spdlog::level::warn);
  try {
    const algo::DirectTbDefaults fam = algo::direct_schemes().make(a.scheme)->tb_defaults();
    if (a.set.topology.empty()) a.set.topology = fam.topology;
    const tb::TbMulticast mc = tb::tb_multicast(a.set);
    if (mc.net->kind != algo::NetworkClass::direct)
      throw std::invalid_argument("--topology " + a.set.topology + ": not a torus, mesh or hypercube");
    const std::string plan = tb::plan_text(a.scheme, mc, scheme_options(fam, a));  // the plan, as `wormcast plan` prints it
    const tb::ExperimentConfig cfg = tb::load_experiment("", overrides(fam, mc, a));  // the same multicast, simulated

    std::ostringstream timeline;
    std::vector<topo::NodeId> received;
    const tb::RunResult res = tb::run_tb(cfg, a.set, [&](const tb::Workload& w) {
      const auto& run = dynamic_cast<const tb::DirectMulticastWorkload&>(w).run();
      print_timeline(mc, run, timeline);
      for (const auto& r : run.received) received.push_back(r.node);
    });
    if (!res.ok) {
      std::cerr << "direct_multicast_tb: " << res.error << "\n";
      return res.exit_code ? res.exit_code : 3;
    }
    tb::check_exactly_once(mc, received);
    const auto& m = res.json["metrics"]["multicast"];
    std::cout << "direct_multicast_tb: " << a.scheme << " on " << mc.net->spec << " (" << fam.about << ")\n"
              << "plan (algorithms/, unit steps):\n"
              << plan << "simulated (cycle-accurate; cycles from the multicast's start):\n"
              << timeline.str() << "  every destination received the message exactly once (" << mc.dests.size()
              << " destinations, " << m["messages"] << (m["messages"].get<int>() == 1 ? " message)\n" : " messages)\n")
              << "  latency " << m["latency_cycles"]["max"] << " cycles to the last destination, " << std::fixed
              << std::setprecision(1) << m["mean_latency_cycles"]["mean"].get<double>()
              << " on average over the destinations\n";
    if (!a.set.vcd.empty()) std::cout << "  waveform: " << a.set.vcd << "\n";
    return 0;
  } catch (const std::exception& e) {
    std::cerr << "direct_multicast_tb: error: " << e.what() << "\n";
    return 2;
  }
}
