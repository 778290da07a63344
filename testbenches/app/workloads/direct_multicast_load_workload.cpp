#include "testbenches/app/workloads/direct_multicast_load_workload.h"

#include <algorithm>
#include <stdexcept>

#include "algorithms/scheme_options.h"
#include "rtl_models/node/processor_node.h"
#include "testbenches/app/config.h"
#include "topologies/networks/direct_network_kind.h"

namespace wormcast::tb {

using Run = DirectMulticastLoadWorkload::Run;

namespace {

const char* kKind = "traffic.kind direct_multicast_load";

}  // namespace

void DirectMulticastLoadWorkload::visit(ParamVisitor& v, const rtl::NodeModel&) {
  v.choice("scheme", scheme, algo::direct_schemes().names(),
           "the multicast scheme of every multicast (`wormcast plan --list` describes each; as traffic.kind "
           "direct_multicast)");
  for (const algo::OptionHelp& o : direct_count_options())
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

void DirectMulticastLoadWorkload::validate(const rtl::ConfigFacts& f, const rtl::NodeModel& nodes) const {
  if (!dynamic_cast<const rtl::ProcessorModel*>(&nodes))
    throw std::invalid_argument(f.where + ": " + kKind + " needs node.model processor");
  try {
    algo::set_options(*algo::direct_schemes().make(scheme), direct_option_texts(scheme_counts), algo::experiment_keys(scheme));
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
  if (!destinations.empty()) run.group = direct_node_list(dn->topology(), destinations, -1, "traffic.destinations");
  std::vector<rtl::NodeId> from;
  if (sources.empty()) {
    for (rtl::NodeId x = 0; x < run.nodes; ++x) from.push_back(x);
  } else {
    from = direct_node_list(dn->topology(), sources, -1, "traffic.sources");
  }
  if (run.group.size() == 1) {   // a source that is the group's one member has no one to send to
    from.erase(std::remove(from.begin(), from.end(), run.group.front()), from.end());
    if (from.empty()) throw ConfigError("traffic.sources: only the one member of traffic.destinations");
  }
  stream_ = run.stream;
  MulticastStream& stream = *run.stream;
  stream.ctx = &ctx;
  stream.add_sources(from, arrival_kind(arrivals), load / static_cast<double>(message.size), rng);
  try {
    run.service = std::make_unique<DirectMulticastService>(net, ctx.clock, ServiceSite{kKind, "", ""}, scheme,
                                                           direct_option_texts(scheme_counts));
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());   // names traffic.scheme and what the network lacks
  }
  Run* r = &run;   // run_ outlives the simulation
  stream.queue_limit = static_cast<std::size_t>(source_queue);
  stream.waiting = [r](const StreamSource& s) { return r->service->waiting(s.node); };
  stream.send = [r](StreamSource& s) { r->send(s); };
  stream.listen(*run.service);
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
  run->stream->register_statistics(s, "the end of t_R at the last destination", "unicasts or worms");
}

}  // namespace wormcast::tb
