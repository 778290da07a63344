#include "testbenches/app/plan_command.h"

#include <CLI/CLI.hpp>

#include <iostream>
#include <memory>
#include <sstream>
#include <type_traits>
#include <stdexcept>

#include "algorithms/plan_network.h"
#include "testbenches/app/atomic_file.h"
#include "topologies/networks/network_kind.h"

namespace wormcast::tb {

using algo::NetworkClass;
using algo::PlanNetwork;

namespace {

bool irregular_params_given(const PlanCliArgs& a) {
  return a.switches || a.ports || a.nodes || a.connectivity || a.topo_seed;
}

std::shared_ptr<const PlanNetwork> make_network(const PlanCliArgs& a) {
  if (a.topology && irregular_params_given(a))
    throw std::invalid_argument(
        "--topology cannot be combined with --switches/--ports/--nodes/--connectivity/--topo-seed");
  if (a.topology) return std::make_shared<const PlanNetwork>(topo::resolve_network_spec(*a.topology));
  if (!irregular_params_given(a)) return nullptr;
  topo::IrregularParams p;
  p.switches = a.switches.value_or(p.switches);
  p.ports = a.ports.value_or(p.ports);
  p.nodes = a.nodes.value_or(p.nodes);
  p.connectivity = a.connectivity.value_or(p.connectivity);
  p.seed = a.topo_seed.value_or(p.seed);
  return std::make_shared<const PlanNetwork>(algo::irregular_network(p));
}

// Without a network only chain positions exist: the source is 0.
topo::NodeId parse_source(const PlanCliArgs& a, const PlanNetwork* net) {
  if (!a.source) return 0;
  if (net) return net->parse_node(*a.source, "--source");
  if (*a.source != "0") throw std::invalid_argument("--source: without --topology the source is chain position 0");
  return 0;
}

std::vector<topo::NodeId> parse_dests(const PlanCliArgs& a, const PlanNetwork* net, topo::NodeId src) {
  if (a.dests && a.random) throw std::invalid_argument("--dests and --random cannot both be given");
  if (a.seed && !a.random) throw std::invalid_argument("--seed applies only to --random");
  if ((a.dests || a.random) && !net)
    throw std::invalid_argument(std::string(a.dests ? "--dests" : "--random") +
                                " needs --topology (without one the set is chain positions 0..n-1 of --set-size)");
  if (a.dests) return algo::parse_node_list(*net, *a.dests, src, "--dests");
  if (a.random) return algo::random_destinations(net->num_nodes(), src, *a.random, a.seed.value_or(1));
  return {};
}

void print_schemes(std::ostream& out) {
  for (const algo::SchemeInfo& s : algo::scheme_registry().entries()) {
    out << s.name << ": " << s.description << "\n  options:";
    const std::vector<std::string> options = s.option_names();
    for (const std::string& o : options) out << " " << o;
    out << (options.empty() ? " none\n" : "\n");
  }
}

}  // namespace

algo::PlanRequest make_plan_request(const PlanCliArgs& a) {
  algo::scheme_registry().at(a.scheme);   // an unknown scheme is the first thing to report
  algo::PlanRequest q;
  q.network = make_network(a);
  q.source = parse_source(a, q.network.get());
  q.destinations = parse_dests(a, q.network.get(), *q.source);
  q.options = a.options;
  return q;
}

int run_plan(const PlanCliArgs& a, std::ostream& out, std::ostream& err) {
  try {
    if (a.list) {
      print_schemes(out);
      check_written(out, "standard output");
      return 0;
    }
    if (!a.errors.empty()) throw std::invalid_argument(a.errors.front());
    if (a.scheme.empty())
      throw std::invalid_argument("give a scheme (known: " + algo::scheme_registry().joined_names() + ")");
    const algo::MulticastPlan p = algo::plan_multicast(a.scheme, make_plan_request(a));
    if (a.json) out << p.to_json().dump(2) << "\n";
    else out << p.to_text();
    check_written(out, "standard output");
    return 0;
  } catch (const std::exception& e) {
    err << "wormcast: error: " << e.what() << "\n";
    return 1;
  }
}

namespace {

// Strict conversions: the whole text must be the number.
bool convert(const std::string& text, std::string& out) {
  out = text;
  return true;
}
template <class T>
bool convert(const std::string& text, T& out) {
  std::istringstream is(text);
  if (std::is_unsigned<T>::value && text.find('-') != std::string::npos) return false;
  is >> out;
  return !is.fail() && is.peek() == std::char_traits<char>::eof();
}

// Binds `--name` to an optional that is set only when the option is given. A
// value that does not convert is kept as an error for run_plan to report, so
// that it too ends as "wormcast: error: ..." with exit code 1.
template <class T>
void optional_option(CLI::App* c, const std::string& name, std::optional<T>& target,
                     std::vector<std::string>& errors, const std::string& desc) {
  c->add_option_function<std::string>(
      name,
      [&target, &errors, name](const std::string& text) {
        T value{};
        if (convert(text, value)) target = value;
        else errors.push_back(name + ": '" + text + "' is not a " +
                              (std::is_floating_point<T>::value ? "number" : "whole number"));
      },
      desc)
      ->type_name(std::is_floating_point<T>::value ? "NUMBER" : std::is_integral<T>::value ? "INT" : "TEXT");
}

void add_network_options(CLI::App* c, PlanCliArgs& a) {
  optional_option(c, "--topology", a.topology, a.errors, topo::network_spec_forms());
  optional_option(c, "--switches", a.switches, a.errors, "irregular network without --topology: switches (default 8)");
  optional_option(c, "--ports", a.ports, a.errors, "... ports per switch (default 8)");
  optional_option(c, "--nodes", a.nodes, a.errors, "... processing nodes (default 32)");
  optional_option(c, "--connectivity", a.connectivity, a.errors, "... fraction of free ports linked (default 0.8)");
  optional_option(c, "--topo-seed", a.topo_seed, a.errors, "... generator seed (default 1)");
  optional_option(c, "--source", a.source, a.errors, "source node (default node 0)");
  optional_option(c, "--dests", a.dests, a.errors, "destinations, e.g. 3,5,9 or (0,1),(2,3): visiting order as given");
  optional_option(c, "--random", a.random, a.errors, "K random distinct destinations (never the source)");
  optional_option(c, "--seed", a.seed, a.errors, "seed of --random (default 1)");
}

// Every scheme's own options as its declaration states them (merged over
// the registry: the same key may mean something per scheme), kept as text
// for the scheme to check and read.
void add_scheme_options(CLI::App* c, algo::PlanOptions& o) {
  std::vector<std::pair<std::string, algo::OptionSchema>> schemas;
  for (const algo::SchemeInfo& s : algo::scheme_registry().entries()) schemas.emplace_back(s.name, s.options);
  for (const algo::SchemeOptionInfo& info : algo::merge_options(schemas)) {
    const std::string key = info.key;
    const std::string name = algo::plan_keys("").option(key);
    if (info.flag) {
      c->add_flag_function(name, [&o, key](std::int64_t) { o[key] = "true"; }, info.described());
      continue;
    }
    c->add_option_function<std::string>(name, [&o, key](const std::string& text) { o[key] = text; }, info.described())
        ->type_name(info.whole_number ? "INT" : "TEXT");
  }
}

}  // namespace

void add_plan_command(CLI::App& app) {
  auto args = std::make_shared<PlanCliArgs>();
  CLI::App* c = app.add_subcommand("plan", "print the worms/messages and steps of a multicast scheme (docs/plan.md)");
  c->add_option("scheme", args->scheme, algo::scheme_registry().joined_names() + " (--list)");
  c->add_flag("--list", args->list, "list the schemes and their options");
  c->add_flag("--json", args->json, "print one JSON object (the plan contract)");
  add_network_options(c, *args);
  add_scheme_options(c, args->options);
  c->callback([args] { throw CLI::RuntimeError(run_plan(*args, std::cout, std::cerr)); });
}

}  // namespace wormcast::tb
