#include "testbenches/app/workloads/direct_multicast_load_workload.h"

#include <algorithm>
#include <stdexcept>

#include "algorithms/plan_network.h"
#include "algorithms/scheme_options.h"
#include "rtl_models/core/statistics.h"
#include "rtl_models/node/processor_node.h"
#include "testbenches/app/config.h"
#include "topologies/networks/direct_network_kind.h"

namespace wormcast::tb {

using Run = DirectMulticastLoadWorkload::Run;

namespace {

const char* kKind = "traffic.kind direct_multicast_load";

// The schemes' whole-number options, as direct_multicast declares them.
const std::vector<algo::OptionHelp>& count_options() {
  static const std::vector<algo::OptionHelp> list =
      algo::option_helps(algo::direct_scheme_options(), "; 0 = not set", true);
  return list;
}

std::vector<rtl::NodeId> node_list(const topo::DirectNetwork& dn, const std::string& text, const std::string& key) {
  try {
    return algo::parse_node_list(algo::direct_network(dn.topology()), text, -1, key);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
}

}  // namespace

void DirectMulticastLoadWorkload::visit(ParamVisitor& v, const rtl::NodeModel&) {
  v.choice("scheme", scheme, algo::direct_schemes().names(),
           "the multicast scheme of every multicast (`wormcast plan --list` describes each; as traffic.kind "
           "direct_multicast)");
  for (const algo::OptionHelp& o : count_options())
    v.count(o.key.c_str(), scheme_counts[o.key], o.help.c_str(), 0, 1 << 20);
  v.count("degree", degree, "destinations per multicast, drawn uniformly per multicast (the source excluded)", 1,
          1 << 20);
  v.text("destinations", destinations,
         "a fixed group (node numbers or names such as (1,2)): every multicast goes to its members but the source; "
         "empty: random sets of `degree` nodes");
  v.text("sources", sources, "the nodes that create multicasts (node numbers or names); empty: every node");
  v.choice("arrivals", arrivals, {"bernoulli", "poisson"},
           "each source's arrival process: bernoulli (at most one multicast per cycle) or poisson (exponential gaps)");
  v.real("load", load, "flits/cycle/source",
         "message flits created per cycle per source (multicasts at load / message.size per cycle); the "
         "network delivers degree * load", 0.0, 1.0);
  v.count("source_queue", source_queue,
          "multicasts waiting at one source before it stops and the run counts as saturated", 1, 1 << 20);
}

void DirectMulticastLoadWorkload::visit_sections(ParamVisitor& v, const rtl::NodeModel&) {
  v.begin_section("message", "every multicast's message (one packet: header flits + 1 flit per byte)");
  message.visit(v);
  v.end_section();
}

std::map<std::string, std::string> DirectMulticastLoadWorkload::scheme_options() const {
  std::map<std::string, std::string> given;
  for (const auto& [key, value] : scheme_counts)
    if (value != 0) given[key] = std::to_string(value);
  return given;
}

void DirectMulticastLoadWorkload::validate(const rtl::ConfigFacts& f, const rtl::NodeModel& nodes) const {
  if (!dynamic_cast<const rtl::ProcessorModel*>(&nodes))
    throw std::invalid_argument(f.where + ": " + kKind + " needs node.model processor");
  try {
    algo::set_options(*algo::direct_schemes().make(scheme), scheme_options(), algo::experiment_keys(scheme));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(f.where + ": " + e.what());
  }
}

std::string DirectMulticastLoadWorkload::node_count_problem(int nodes) const {
  if (destinations.empty() && degree >= nodes)
    return "traffic.degree " + std::to_string(degree) + " needs more than the " + std::to_string(nodes) +
           " nodes of the network";
  return {};
}

void DirectMulticastLoadWorkload::attach(topo::NetworkModel& net, rtl::SimContext& ctx, const Rng& rng) {
  auto* dn = dynamic_cast<topo::DirectNetwork*>(&net);
  if (!dn)
    throw ConfigError(std::string(kKind) + " needs a direct network (topology.kind torus, mesh or hypercube); "
                      "on a switch network use traffic.kind multicast_load");
  run_ = std::make_shared<Run>();
  Run& run = *run_;
  run.nodes = net.num_nodes();
  run.degree = degree;
  run.bytes = message.size;
  if (!destinations.empty()) run.group = node_list(*dn, destinations, "traffic.destinations");
  std::vector<rtl::NodeId> from;
  if (sources.empty()) {
    for (rtl::NodeId x = 0; x < run.nodes; ++x) from.push_back(x);
  } else {
    from = node_list(*dn, sources, "traffic.sources");
  }
  if (run.group.size() == 1) {   // a source that is the group's one member has no one to send to
    from.erase(std::remove(from.begin(), from.end(), run.group.front()), from.end());
    if (from.empty()) throw ConfigError("traffic.sources: only the one member of traffic.destinations");
  }
  stream_ = run.stream;
  MulticastStream& stream = *run.stream;
  stream.ctx = &ctx;
  const ArrivalKind kind = arrival_kind(arrivals);
  const double rate = load / static_cast<double>(message.size);
  for (rtl::NodeId x : from)
    stream.sources.push_back({x, ArrivalProcess(kind, rate, rng.fork(0x6d6c000000ULL + static_cast<std::uint64_t>(x))),
                              rng.fork(0x6d73000000ULL + static_cast<std::uint64_t>(x))});
  try {
    run.service = std::make_unique<DirectMulticastService>(net, ctx.clock, ServiceSite{kKind, "", ""}, scheme,
                                                           scheme_options());
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());   // names traffic.scheme and what the network lacks
  }
  Run* r = &run;   // run_ outlives the simulation
  const int limit = source_queue;
  stream.full = [r, limit](const StreamSource& s) { return r->service->waiting(s.node) >= static_cast<std::size_t>(limit); };
  stream.waiting = [r](const StreamSource& s) { return r->service->waiting(s.node); };
  stream.send = [r](StreamSource& s) { r->send(s); };
  run.service->on_delivery([r](const Multicast&, rtl::NodeId, Cycle at) { r->stream->delivered(at); });
  run.service->on_complete([r](const Multicast& m) {
    r->messages += static_cast<std::uint64_t>(m.messages_sent());
    r->stream->completed(m);
  });
  stream.spawn("direct_multicast_arrivals");
}

void Run::send(StreamSource& s) {
  std::vector<rtl::NodeId> dests;
  if (!group.empty()) {
    for (rtl::NodeId d : group)
      if (d != s.node) dests.push_back(d);
  } else {
    pool.clear();
    for (rtl::NodeId x = 0; x < nodes; ++x)
      if (x != s.node) pool.push_back(x);
    draw_to_front(s.rng, pool, static_cast<std::size_t>(degree));
    dests.assign(pool.begin(), pool.begin() + degree);
  }
  service->multicast(s.node, dests, bytes);
}

void DirectMulticastLoadWorkload::register_statistics(rtl::StatsScope s) const {
  auto run = run_;
  if (!run) return;
  run->stream->register_statistics(s, "the end of t_R at the last destination", [run] { return run->messages; });
}

}  // namespace wormcast::tb
