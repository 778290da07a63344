#include "embed/multicast.h"

#include <stdexcept>

#include "rtl_models/node/processor_node.h"
#include "topologies/networks/direct_network_kind.h"

namespace wormcast::embed {

Cycle Multicast::latency() const {
  if (!complete())
    throw std::logic_error("embed::Multicast: " + std::to_string(pending_.size()) + " of its " +
                           std::to_string(dests_.size()) + " destinations have not received it yet");
  Cycle last = requested_;
  for (const Delivery& d : deliveries_) last = std::max(last, d.at);
  return last - requested_;
}

namespace {

topo::DirectNetwork& direct_network(Network& net, const std::string& scheme) {
  auto* dn = dynamic_cast<topo::DirectNetwork*>(&net.model());
  if (!dn)
    throw std::invalid_argument("embed::DirectMulticast: scheme '" + scheme + "' needs a direct network (topology.kind " +
                                "torus, mesh or hypercube), not topology.kind " + net.config().network.name);
  if (const topo::RoutingFunction* f = dn->adaptive_routing())
    throw std::invalid_argument("embed::DirectMulticast: scheme '" + scheme + "' plans its messages on the routes of " +
                                "a deterministic routing.function; " + f->name() + " is adaptive");
  return *dn;
}

}  // namespace

DirectMulticast::DirectMulticast(Network& net, const std::string& scheme, const std::map<std::string, std::string>& options)
    : net_(net), scheme_name_(scheme) {
  topo::DirectNetwork& dn = direct_network(net, scheme);
  scheme_ = algo::direct_schemes().make(scheme);   // std::invalid_argument listing the schemes
  // Named as an experiment names them: the network's needs are its keys
  // (routing.function utpr), which is how the embedded network was configured.
  const algo::SchemeKeys keys = algo::experiment_keys(scheme);
  algo::set_options(*scheme_, options, keys);
  algo::require_network(*scheme_, keys, &dn.topology(), &dn.routing());
  const int n = net.num_nodes();
  for (int x = 0; x < n; ++x)
    if (!dynamic_cast<rtl::ProcessorNode*>(&net.node(x)))
      throw std::invalid_argument("embed::DirectMulticast: scheme '" + scheme + "' runs on processors: node.model is " +
                                  net.config().node.name + " (give node.model processor)");
  scheme_->fit_nodes(tb::direct_node_facts(dynamic_cast<rtl::ProcessorNode&>(net.node(0)), dn), keys);
  carrier_ = &tb::direct_carrier(scheme_->carrier());
  routing_ = dn.routing_ptr();
  requests_.assign(static_cast<std::size_t>(n), {});
  part_.assign(static_cast<std::size_t>(n), {});
  sends_.assign(static_cast<std::size_t>(n), {});
  for (int x = 0; x < n; ++x) net.processor(x).set_program([this](rtl::HostApi& h) { program(h); });
}

std::shared_ptr<const Multicast> DirectMulticast::multicast(rtl::NodeId source, const std::vector<rtl::NodeId>& dests,
                                                            int bytes) {
  const int n = net_.num_nodes();
  const auto where = [&] { return "embed::DirectMulticast::multicast(source " + std::to_string(source) + "): "; };
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
  m->source_ = source;
  m->dests_ = dests;
  m->bytes_ = bytes;
  m->requested_ = net_.now();
  const algo::TrialPlan p = scheme_->trial_plan(*routing_, source, dests);
  m->planned_messages_ = static_cast<int>(p.routes.size());
  m->planned_steps_ = p.steps;
  multicasts_.push_back(m);
  requests_[static_cast<std::size_t>(source)].push_back(multicasts_.size() - 1);
  net_.processor(source).interrupt();
  return m;
}

// Each node: start what it was asked, else relay what it received, else
// wait for either.
void DirectMulticast::program(rtl::HostApi& h) {
  const auto me = static_cast<std::size_t>(h.node());
  for (;;) {
    if (!requests_[me].empty()) start(h);
    else if (h.message_waiting()) receive(h);
    else h.wait_for_message(UINT64_MAX);   // a message, or an interrupt from multicast()
  }
}

void DirectMulticast::start(rtl::HostApi& h) {
  const auto me = static_cast<std::size_t>(h.node());
  const std::size_t mc = requests_[me].front();
  requests_[me].pop_front();
  const Multicast& m = *multicasts_[mc];
  part_[me] = scheme_->source_part(*routing_, m.source_, m.dests_);
  send_part(h, mc);
}

// One reception: the message's part becomes this node's. Its own block, so
// that the message (it holds packet references) is gone before the sends
// wait (rtl_models/core/kernel.h).
void DirectMulticast::receive(rtl::HostApi& h) {
  const auto me = static_cast<std::size_t>(h.node());
  std::size_t mc = 0;
  {
    const rtl::ReceivedMessage msg = h.receive();
    const auto it = in_flight_.find(msg.id);
    if (it == in_flight_.end())
      throw std::logic_error("embed::DirectMulticast: node " + std::to_string(me) + " received message " +
                             std::to_string(msg.id) + ", which no multicast sent");
    mc = it->second.multicast;
    if (--it->second.receivers == 0) in_flight_.erase(it);
    part_[me] = carrier_->take(msg, h.node(), parts_);
    delivered(mc, h.node(), msg.received);
  }
  send_part(h, mc);
}

void DirectMulticast::send_part(rtl::HostApi& h, std::size_t mc) {
  const auto me = static_cast<std::size_t>(h.node());
  std::vector<algo::LocalSend>& out = sends_[me];
  out = scheme_->local_sends(*routing_, part_[me]);
  for (std::size_t i = 0; i < out.size(); ++i) {
    Multicast& m = *multicasts_[mc];
    const std::uint64_t id = carrier_->send(h, out[i], m.bytes_, parts_);   // waits t_S
    in_flight_[id] = {mc, static_cast<int>(out[i].blocks.size())};          // in flight for a hop at least
    ++m.sent_;
  }
}

void DirectMulticast::delivered(std::size_t mc, rtl::NodeId at, Cycle when) {
  Multicast& m = *multicasts_[mc];
  if (m.pending_.erase(at) == 0)
    throw std::logic_error("embed::DirectMulticast: node " + std::to_string(at) + " received a multicast from " +
                           std::to_string(m.source_) + " it should not have (not a destination, or twice)");
  m.deliveries_.push_back({at, when});
  if (on_delivery_) on_delivery_(m, at, when);
  if (!m.complete()) return;
  // Nothing invented, nothing lost: the relays' local rules sent the
  // messages the scheme's planner lists for this set.
  if (m.sent_ != m.planned_messages_)
    throw std::logic_error("embed::DirectMulticast: the multicast from " + std::to_string(m.source_) + " sent " +
                           std::to_string(m.sent_) + " messages, its plan " + std::to_string(m.planned_messages_));
  m.completed_.notify(sc_core::SC_ZERO_TIME);
}

}  // namespace wormcast::embed
