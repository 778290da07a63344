#include "testbenches/app/workloads/multicast_service.h"

#include <stdexcept>

#include "algorithms/scheme_options.h"
#include "rtl_models/node/processor_node.h"
#include "topologies/networks/direct_network_kind.h"

namespace wormcast::tb {

Cycle Multicast::latency() const {
  if (!complete())
    throw std::logic_error("Multicast: " + std::to_string(pending_.size()) + " of its " +
                           std::to_string(dests_.size()) + " destinations have not received it yet");
  Cycle last = requested_;
  for (const Delivery& d : deliveries_) last = std::max(last, d.at);
  return last - requested_;
}

// ---- what every service does ---------------------------------------------

MulticastService::MulticastService(topo::NetworkModel& net, const rtl::Clock& clock, ServiceSite site,
                                   std::string scheme)
    : net_(net),
      clock_(clock),
      site_(std::move(site)),
      scheme_name_(std::move(scheme)),
      requests_(static_cast<std::size_t>(net.num_nodes())) {}

rtl::ProgramHost& MulticastService::host(rtl::NodeId x) const {
  rtl::ProgramHost* h = net_.node(x).software();
  if (!h)
    throw std::invalid_argument(site_.who + ": node " + std::to_string(x) + " runs no software" +
                                (site_.node_model.empty() ? std::string() : " (node.model is " + site_.node_model + ")"));
  return *h;
}

void MulticastService::install_programs() {
  for (int x = 0; x < net_.num_nodes(); ++x) host(x);   // refuse before any program is replaced
  for (int x = 0; x < net_.num_nodes(); ++x) host(x).set_program([this](rtl::HostApi& h) { program(h); });
}

std::shared_ptr<const Multicast> MulticastService::multicast(rtl::NodeId source, const std::vector<rtl::NodeId>& dests,
                                                             int bytes) {
  const int n = net_.num_nodes();
  const auto where = [&] { return site_.who + " " + scheme_name_ + " multicast(source " + std::to_string(source) + "): "; };
  if (source < 0 || source >= n)
    throw std::invalid_argument(where() + "no such node (the network has nodes 0.." + std::to_string(n - 1) + ")");
  if (dests.empty()) throw std::invalid_argument(where() + "no destinations");
  if (bytes < 1) throw std::invalid_argument(where() + "a message of " + std::to_string(bytes) + " bytes");
  auto m = std::make_shared<Multicast>();
  for (rtl::NodeId d : dests) {
    if (d < 0 || d >= n) throw std::invalid_argument(where() + "destination " + std::to_string(d) + " is no node");
    if (d == source) throw std::invalid_argument(where() + "the source is not its own destination");
    if (!m->pending_.insert(d).second)
      throw std::invalid_argument(where() + "destination " + std::to_string(d) + " listed twice");
  }
  const Planned p = plan(source, dests, bytes);   // may refuse the set
  m->source_ = source;
  m->dests_ = dests;
  m->bytes_ = bytes;
  m->requested_ = clock_.now();
  m->planned_messages_ = p.messages;
  m->planned_steps_ = p.steps;
  multicasts_.push_back(m);
  requests_[static_cast<std::size_t>(source)].push_back(multicasts_.size() - 1);
  host(source).interrupt();
  return m;
}

void MulticastService::program(rtl::HostApi& h) {
  auto& asked = requests_[static_cast<std::size_t>(h.node())];
  for (;;) {
    if (!asked.empty()) {
      const std::size_t mc = asked.front();
      asked.pop_front();
      start(h, mc);
    } else if (h.message_waiting()) {
      receive(h);
    } else {
      h.wait_for_message(UINT64_MAX);   // a message, or an interrupt from multicast()
    }
  }
}

// One reception, in a block of its own so that the message (it holds packet
// references) is gone before the relay's sends wait (rtl_models/core/kernel.h).
void MulticastService::receive(rtl::HostApi& h) {
  std::size_t mc = 0;
  {
    const rtl::ReceivedMessage msg = h.receive();
    const auto it = in_flight_.find(msg.id);
    if (it == in_flight_.end())
      throw std::logic_error(site_.who + " " + scheme_name_ + ": node " + std::to_string(h.node()) +
                             " received message " + std::to_string(msg.id) + ", which no multicast sent");
    mc = it->second.multicast;
    if (--it->second.receivers == 0) in_flight_.erase(it);
    take(msg, h.node());
    delivered(mc, h.node(), msg.received);
  }
  relay(h, mc);
}

void MulticastService::sent(std::size_t mc, std::uint64_t id, int receivers) {
  in_flight_[id] = {mc, receivers};   // in flight for a hop at least: known before it can arrive
  ++multicasts_[mc]->sent_;
}

void MulticastService::delivered(std::size_t mc, rtl::NodeId at, Cycle when) {
  Multicast& m = *multicasts_[mc];
  if (m.pending_.erase(at) == 0)
    throw std::logic_error(site_.who + " " + scheme_name_ + ": node " + std::to_string(at) +
                           " received a multicast from " + std::to_string(m.source_) +
                           " it should not have (not a destination, or twice)");
  m.deliveries_.push_back({at, when});
  if (on_delivery_) on_delivery_(m, at, when);
  if (!m.complete()) return;
  // Nothing invented, nothing lost: the relays sent the messages the
  // scheme's planner lists for this set.
  if (m.sent_ != m.planned_messages_)
    throw std::logic_error(site_.who + " " + scheme_name_ + ": the multicast from " + std::to_string(m.source_) +
                           " sent " + std::to_string(m.sent_) + " messages, its plan " +
                           std::to_string(m.planned_messages_));
  m.completed_.notify(sc_core::SC_ZERO_TIME);
  if (on_complete_) on_complete_(m);
}

// ---- direct networks --------------------------------------------------------

namespace {

topo::DirectNetwork& direct_network(topo::NetworkModel& net, const ServiceSite& site, const std::string& scheme) {
  auto* dn = dynamic_cast<topo::DirectNetwork*>(&net);
  if (!dn)
    throw std::invalid_argument(site.who + ": scheme '" + scheme + "' needs a direct network (topology.kind " +
                                "torus, mesh or hypercube)" +
                                (site.topology_kind.empty() ? "" : ", not topology.kind " + site.topology_kind));
  if (const topo::RoutingFunction* f = dn->adaptive_routing())
    throw std::invalid_argument(site.who + ": scheme '" + scheme + "' plans its messages on the routes of " +
                                "a deterministic routing.function; " + f->name() + " is adaptive");
  return *dn;
}

}  // namespace

DirectMulticastService::DirectMulticastService(topo::NetworkModel& net, const rtl::Clock& clock, const ServiceSite& site,
                                               const std::string& scheme,
                                               const std::map<std::string, std::string>& options)
    : MulticastService(net, clock, site, scheme) {
  topo::DirectNetwork& dn = direct_network(net, site, scheme);
  scheme_ = algo::direct_schemes().make(scheme);   // std::invalid_argument listing the schemes
  // Named as an experiment names them: the network's needs are its keys
  // (routing.function utpr), which is how the network was configured.
  const algo::SchemeKeys keys = algo::experiment_keys(scheme);
  algo::set_options(*scheme_, options, keys);
  algo::require_network(*scheme_, keys, &dn.topology(), &dn.routing());
  const int n = net.num_nodes();
  for (int x = 0; x < n; ++x)
    if (!dynamic_cast<rtl::ProcessorNode*>(&net.node(x)))
      throw std::invalid_argument(site.who + ": scheme '" + scheme + "' runs on processors" +
                                  (site.node_model.empty() ? std::string() : ": node.model is " + site.node_model) +
                                  " (give node.model processor)");
  scheme_->fit_nodes(direct_node_facts(dynamic_cast<rtl::ProcessorNode&>(net.node(0)), dn), keys);
  carrier_ = &direct_carrier(scheme_->carrier());
  routing_ = dn.routing_ptr();
  part_.assign(static_cast<std::size_t>(n), {});
  sends_.assign(static_cast<std::size_t>(n), {});
  install_programs();
}

MulticastService::Planned DirectMulticastService::plan(rtl::NodeId source, const std::vector<rtl::NodeId>& dests,
                                                       int) const {
  const algo::TrialPlan p = scheme_->trial_plan(*routing_, source, dests);
  return {static_cast<int>(p.routes.size()), p.steps};
}

void DirectMulticastService::start(rtl::HostApi& h, std::size_t mc) {
  const Multicast& m = multicast_at(mc);
  part_[static_cast<std::size_t>(h.node())] = scheme_->source_part(*routing_, m.source(), m.destinations());
  send_part(h, mc);
}

void DirectMulticastService::take(const rtl::ReceivedMessage& msg, rtl::NodeId me) {
  part_[static_cast<std::size_t>(me)] = carrier_->take(msg, me, parts_);
}

void DirectMulticastService::relay(rtl::HostApi& h, std::size_t mc) { send_part(h, mc); }

void DirectMulticastService::send_part(rtl::HostApi& h, std::size_t mc) {
  const auto me = static_cast<std::size_t>(h.node());
  std::vector<algo::LocalSend>& out = sends_[me];
  out = scheme_->local_sends(*routing_, part_[me]);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::uint64_t id = carrier_->send(h, out[i], multicast_at(mc).bytes(), parts_);   // waits t_S
    sent(mc, id, static_cast<int>(out[i].blocks.size()));
  }
}

}  // namespace wormcast::tb
