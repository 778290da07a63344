#include "testbenches/app/workloads/ib_multicast_load_workload.h"

#include <stdexcept>

#include "rtl_models/node/endpoint_node.h"
#include "testbenches/app/config.h"
#include "testbenches/app/workloads/ib_workload_keys.h"
#include "topologies/networks/elaborator.h"

namespace wormcast::tb {

namespace {
const char* kKind = "traffic.kind ib_multicast_load";
}  // namespace

void IbMulticastLoadWorkload::visit(ParamVisitor& v, const rtl::NodeModel&) {
  v.choice("scheme", scheme, algo::ib_schemes().names(), ib_scheme_help());
  for (const algo::OptionHelp& o : ib_option_helps()) v.text(o.key.c_str(), scheme_texts[o.key], o.help.c_str());
  v.count("sources", sources, "senders, drawn uniformly once per run", 1, 1 << 20);
  v.count("group", group, "multicast group members, drawn uniformly once per run (a sender may be one)", 1, 1 << 20);
  v.text("senders", senders, "these senders instead of `sources` random ones (\"P(000),P(201)\" or \"000,201\")");
  v.text("members", members, "this group instead of `group` random members (same forms)");
  v.choice("arrivals", arrivals, {"bernoulli", "poisson"},
           "each sender's arrival process: bernoulli (at most one multicast per cycle) or poisson (exponential gaps)");
  v.real("load", load, "bytes/cycle/sender",
         "message bytes created per cycle per sender (multicasts at load / message.size per cycle)", 0.0, 1.0);
  v.count("source_queue", source_queue,
          "packets waiting in one sender's HCA before it stops and the run counts as saturated", 1, 1 << 30);
  visit_ib_packet_keys(v, header_flits, flit_bytes, mtu);
}

void IbMulticastLoadWorkload::visit_sections(ParamVisitor& v, const rtl::NodeModel&) {
  v.begin_section("message", "every multicast's message");
  message.visit(v);
  v.end_section();
}

void IbMulticastLoadWorkload::describe_facts(rtl::ConfigFacts& f) const {
  describe_ib_facts(f, IbPacketFormat{header_flits, flit_bytes, mtu}, message.size);
}

void IbMulticastLoadWorkload::validate(const rtl::ConfigFacts& f, const rtl::NodeModel& nodes) const {
  if (!dynamic_cast<const rtl::EndpointModel*>(&nodes))
    throw std::invalid_argument(f.where + ": " + kKind + " needs node.model endpoint (the HCAs)");
  if (f.direct_network) throw std::invalid_argument(f.where + ": " + kKind + " needs topology.kind fat_tree");
  try {
    algo::set_options(*algo::ib_schemes().make(scheme), ib_option_texts(scheme_texts), algo::experiment_keys(scheme));
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(f.where + ": " + e.what());
  }
}

std::string IbMulticastLoadWorkload::node_count_problem(int n) const {
  if (senders.empty() && sources > n)
    return "traffic.sources: " + std::to_string(sources) + " senders, but the network has " + std::to_string(n) + " nodes";
  if (members.empty() && group > n)
    return "traffic.group: " + std::to_string(group) + " members, but the network has " + std::to_string(n) + " nodes";
  return {};
}

void IbMulticastLoadWorkload::attach(topo::NetworkModel& net, rtl::SimContext& ctx, const Rng& rng) {
  auto* sw = dynamic_cast<topo::Network*>(&net);
  if (!sw || sw->params().decoder != "ib")
    throw ConfigError(std::string(kKind) + " needs topology.kind fat_tree with switch.decoder ib");
  run_ = std::make_shared<Run>();
  Run& run = *run_;
  std::shared_ptr<rtl::IbSubnet> subnet;
  try {
    subnet = rtl::ib_subnet(*sw->decoder_shared(), sw->topology());   // shared with the service's
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
  const topo::FatTree& t = subnet->tree();
  Rng draws = rng.fork(0x1B10000000ULL);
  run.senders = senders.empty() ? draw_nodes(draws, net.num_nodes(), sources) : ib_node_list(t, senders, "traffic.senders");
  run.members = members.empty() ? draw_nodes(draws, net.num_nodes(), group) : ib_node_list(t, members, "traffic.members");
  if (run.members.size() == 1)
    for (rtl::NodeId s : run.senders)
      if (s == run.members.front())
        throw ConfigError("traffic.members: the group's one member is also a sender, which never receives its own "
                          "message (give group >= 2 or other senders)");
  run.bytes = message.size;
  try {
    run.service = std::make_unique<IbMulticastService>(net, ctx.clock, ServiceSite{kKind, "", ""}, scheme,
                                                       IbPacketFormat{header_flits, flit_bytes, mtu}, ib_option_texts(scheme_texts));
    run.service->set_group(run.senders, run.members);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
  stream_ = run.stream;
  MulticastStream& stream = *run.stream;
  stream.ctx = &ctx;
  stream.add_sources(run.senders, arrival_kind(arrivals), load / static_cast<double>(message.size), rng);
  Run* r = &run;   // run_ outlives the simulation
  stream.queue_limit = static_cast<std::size_t>(source_queue);
  stream.waiting = [r](const StreamSource& s) { return r->service->queued_packets(s.node); };
  stream.send = [r](StreamSource& s) { r->service->multicast(s.node, r->bytes); };
  stream.listen(*run.service);
  stream.spawn("ib_multicast_arrivals");
}

void IbMulticastLoadWorkload::register_statistics(rtl::StatsScope s) const {
  auto run = run_;
  if (!run) return;
  run->stream->register_statistics(s, "the last member's reception of its last packet", "packets");
  s.stats.add("multicast.discarded_copies", "packets", "copies delivered to senders that are not members (opensm's "
              "SendOnly joins), dropped by their HCA", [run] { return run->service->discarded_copies(); });
  s.stats.add("multicast.group", "", "the group: members and senders", [run] {
    return nlohmann::json{{"members", run->members.size()}, {"senders", run->senders.size()}};
  });
}

}  // namespace wormcast::tb
