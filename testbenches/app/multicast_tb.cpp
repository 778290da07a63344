#include "testbenches/app/multicast_tb.h"

#include <CLI/CLI.hpp>
#include <algorithm>
#include <sstream>
#include <stdexcept>

#include "topologies/networks/network_kind.h"

namespace wormcast::tb {

std::string TbMulticast::names(const std::vector<topo::NodeId>& nodes) const {
  std::string s;
  for (topo::NodeId x : nodes) s += (s.empty() ? "" : ",") + net->node_text(x);
  return s;
}

TbMulticast tb_multicast(const TbSetOptions& o) {
  TbMulticast m;
  m.net = std::make_shared<const algo::PlanNetwork>(topo::resolve_network_spec(o.topology));
  m.source = o.source.empty() ? 0 : m.net->parse_node(o.source, "--source");
  if (!o.dests.empty()) {
    m.dests = algo::parse_node_list(*m.net, o.dests, m.source, "--dests");
  } else if (o.degree < 1 || o.degree > m.net->num_nodes() - 1) {  // named as this option, not plan's --random
    throw std::invalid_argument("--degree " + std::to_string(o.degree) + ": must be 1.." +
                                std::to_string(m.net->num_nodes() - 1) + " (the nodes other than the source)");
  } else {
    m.dests = algo::random_destinations(m.net->num_nodes(), m.source, o.degree, o.seed);
  }
  return m;
}

std::vector<Override> network_settings(const TbMulticast& m) {
  std::vector<Override> o;
  for (const auto& [key, value] : topo::spec_settings(m.net->spec)) o.push_back({key, value});
  return o;
}

void require_switch_network(const TbMulticast& m, const TbSetOptions& o) {
  if (m.net->kind != algo::NetworkClass::irregular)
    throw std::invalid_argument("--topology " + o.topology +
                                ": not a switch network (irregular:SxPpN... or a topology file)");
}

std::string plan_text(const std::string& scheme, const TbMulticast& m, const algo::PlanOptions& options) {
  algo::PlanRequest req;
  req.network = m.net;
  req.source = m.source;
  req.destinations = m.dests;
  req.options = options;
  std::istringstream in(algo::plan_multicast(scheme, req).to_text());
  std::string line, out;
  while (std::getline(in, line)) out += "  " + line + "\n";
  return out;
}

void check_exactly_once(const TbMulticast& m, std::vector<topo::NodeId> got) {
  std::vector<topo::NodeId> want = m.dests;
  std::sort(want.begin(), want.end());
  std::sort(got.begin(), got.end());
  if (want != got)
    throw std::runtime_error("the destinations that received the message (" + m.names(got) +
                             ") are not the multicast's (" + m.names(want) + ")");
}

void add_set_options(CLI::App& app, TbSetOptions& o, const std::string& topology_help, const std::string& nodes,
                     const std::string& vcd_filter_example) {
  app.add_option("--topology", o.topology, topology_help);
  app.add_option("--source", o.source, "the source node (default: node 0)");
  app.add_option("--dests", o.dests, "destinations, e.g. " + nodes + " (default: --degree random ones)");
  app.add_option("--degree", o.degree, "number of random destinations (default " + std::to_string(o.degree) + ")");
  app.add_option("--seed", o.seed, "seed of the random destinations (as wormcast plan --random K --seed S)");
  app.add_option("--vcd", o.vcd, "write a VCD waveform");
  app.add_option("--vcd-filter", o.vcd_filter, "glob on module names to trace, e.g. '" + vcd_filter_example + "'");
}

RunResult run_tb(const ExperimentConfig& cfg, const TbSetOptions& o, std::function<void(const Workload&)> inspect) {
  RunOptions opt;
  opt.vcd_path = o.vcd;
  opt.vcd_filter = o.vcd_filter;
  opt.inspect = std::move(inspect);
  return run_experiment(cfg, opt);
}

}  // namespace wormcast::tb
