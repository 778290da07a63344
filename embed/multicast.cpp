#include "embed/multicast.h"

#include <stdexcept>

#include "algorithms/chain_ordering.h"
#include "algorithms/kbinomial.h"
#include "rtl_models/core/worm_packet.h"
#include "rtl_models/node/host_ni_node.h"
#include "rtl_models/node/processor_node.h"
#include "rtl_models/switch/drop_decoder.h"
#include "topologies/networks/direct_network_kind.h"
#include "topologies/networks/elaborator.h"

namespace wormcast::embed {

Cycle Multicast::latency() const {
  if (!complete())
    throw std::logic_error("embed::Multicast: " + std::to_string(pending_.size()) + " of its " +
                           std::to_string(dests_.size()) + " destinations have not received it yet");
  Cycle last = requested_;
  for (const Delivery& d : deliveries_) last = std::max(last, d.at);
  return last - requested_;
}

// ---- what every service does ---------------------------------------------

MulticastService::MulticastService(Network& net, std::string scheme)
    : net_(net), scheme_name_(std::move(scheme)), requests_(static_cast<std::size_t>(net.num_nodes())) {}

void MulticastService::install_programs() {
  for (int x = 0; x < net_.num_nodes(); ++x) net_.processor(x).set_program([this](rtl::HostApi& h) { program(h); });
}

std::shared_ptr<const Multicast> MulticastService::multicast(rtl::NodeId source, const std::vector<rtl::NodeId>& dests,
                                                             int bytes) {
  const int n = net_.num_nodes();
  const auto where = [&] { return "embed::" + scheme_name_ + " multicast(source " + std::to_string(source) + "): "; };
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
  m->requested_ = net_.now();
  m->planned_messages_ = p.messages;
  m->planned_steps_ = p.steps;
  multicasts_.push_back(m);
  requests_[static_cast<std::size_t>(source)].push_back(multicasts_.size() - 1);
  net_.processor(source).interrupt();
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
      throw std::logic_error("embed::" + scheme_name_ + ": node " + std::to_string(h.node()) + " received message " +
                             std::to_string(msg.id) + ", which no multicast sent");
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
    throw std::logic_error("embed::" + scheme_name_ + ": node " + std::to_string(at) + " received a multicast from " +
                           std::to_string(m.source_) + " it should not have (not a destination, or twice)");
  m.deliveries_.push_back({at, when});
  if (on_delivery_) on_delivery_(m, at, when);
  if (!m.complete()) return;
  // Nothing invented, nothing lost: the relays sent the messages the
  // scheme's planner lists for this set.
  if (m.sent_ != m.planned_messages_)
    throw std::logic_error("embed::" + scheme_name_ + ": the multicast from " + std::to_string(m.source_) + " sent " +
                           std::to_string(m.sent_) + " messages, its plan " + std::to_string(m.planned_messages_));
  m.completed_.notify(sc_core::SC_ZERO_TIME);
}

// ---- direct networks --------------------------------------------------------

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
    : MulticastService(net, scheme) {
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
  part_.assign(static_cast<std::size_t>(n), {});
  sends_.assign(static_cast<std::size_t>(n), {});
  install_programs();
}

MulticastService::Planned DirectMulticast::plan(rtl::NodeId source, const std::vector<rtl::NodeId>& dests, int) const {
  const algo::TrialPlan p = scheme_->trial_plan(*routing_, source, dests);
  return {static_cast<int>(p.routes.size()), p.steps};
}

void DirectMulticast::start(rtl::HostApi& h, std::size_t mc) {
  const Multicast& m = multicast_at(mc);
  part_[static_cast<std::size_t>(h.node())] = scheme_->source_part(*routing_, m.source(), m.destinations());
  send_part(h, mc);
}

void DirectMulticast::take(const rtl::ReceivedMessage& msg, rtl::NodeId me) {
  part_[static_cast<std::size_t>(me)] = carrier_->take(msg, me, parts_);
}

void DirectMulticast::relay(rtl::HostApi& h, std::size_t mc) { send_part(h, mc); }

void DirectMulticast::send_part(rtl::HostApi& h, std::size_t mc) {
  const auto me = static_cast<std::size_t>(h.node());
  std::vector<algo::LocalSend>& out = sends_[me];
  out = scheme_->local_sends(*routing_, part_[me]);
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::uint64_t id = carrier_->send(h, out[i], multicast_at(mc).bytes(), parts_);   // waits t_S
    sent(mc, id, static_cast<int>(out[i].blocks.size()));
  }
}

// ---- switch networks --------------------------------------------------------

namespace {

topo::Network& switch_network(Network& net, const std::string& scheme) {
  auto* sw = dynamic_cast<topo::Network*>(&net.model());
  if (!sw)
    throw std::invalid_argument("embed::SwitchMulticast: scheme '" + scheme + "' needs a switch network " +
                                "(topology.kind irregular or file), not topology.kind " + net.config().network.name);
  for (int x = 0; x < net.num_nodes(); ++x)
    if (!dynamic_cast<rtl::HostNiNode*>(&net.node(x)))
      throw std::invalid_argument("embed::SwitchMulticast: scheme '" + scheme + "' runs on hosts with NIs: node.model " +
                                  "host_ni with wormcast's hosts (not " + net.config().node.name +
                                  (net.config().node.name == "host_ni" ? " with user_hosts" : "") + ")");
  return *sw;
}

unsigned k_option(const std::map<std::string, std::string>& options, const std::string& scheme) {
  unsigned k = 0;
  for (const auto& [key, value] : options) {
    if (key != "k" || scheme != "ni")
      throw std::invalid_argument("embed::SwitchMulticast: scheme '" + scheme + "' has no option '" + key + "'" +
                                  (scheme == "ni" ? " (it takes k)" : " (it takes none)"));
    try {
      std::size_t used = 0;
      const long v = std::stol(value, &used);
      if (used != value.size() || v < 1 || v > 64) throw std::invalid_argument(value);
      k = static_cast<unsigned>(v);
    } catch (const std::exception&) {
      throw std::invalid_argument("embed::SwitchMulticast: option k '" + value + "': a whole number 1..64");
    }
  }
  return k;
}

}  // namespace

SwitchMulticast::SwitchMulticast(Network& net, const std::string& scheme, const std::map<std::string, std::string>& options)
    : MulticastService(net, scheme) {
  topo::Network& sw = switch_network(net, scheme);
  k_ = k_option(options, scheme);
  if (scheme != "ni") {
    worms_ = &algo::switch_scheme(scheme);   // std::invalid_argument naming the schemes
    const std::string need = worms_->decoder();
    if (sw.params().decoder != need && sw.params().decoder != "multicast")
      throw std::invalid_argument("embed::SwitchMulticast: scheme '" + scheme + "' needs switch.decoder: " + need +
                                  " or multicast (it is '" + sw.params().decoder + "')");
  }
  drop_id_ = rtl::parse_drop_id(sw.params().drop_id);
  topology_ = std::make_shared<const topo::Topology>(sw.topology());
  routing_ = sw.routing_ptr();
  packet_bytes_ = net.ni(0).params().packet_size;
  buffer_flits_ = sw.params().sw.buffer_flits;
  const auto n = static_cast<std::size_t>(net.num_nodes());
  got_.assign(n, nullptr);
  sends_.assign(n, {});
  chain_.assign(n, {});
  install_programs();
}

unsigned SwitchMulticast::fan_out(std::size_t chain, int bytes) const {
  if (k_ > 0) return k_;
  const int packets = (bytes + packet_bytes_ - 1) / packet_bytes_;
  return algo::optimal_k(chain, static_cast<algo::Count>(packets)).k;
}

MulticastService::Planned SwitchMulticast::plan(rtl::NodeId source, const std::vector<rtl::NodeId>& dests,
                                                int bytes) const {
  if (!worms_) {   // one multicast message; the NIs relay it
    const int packets = (bytes + packet_bytes_ - 1) / packet_bytes_;
    const algo::OptimalK best = algo::optimal_k(dests.size() + 1, static_cast<algo::Count>(packets));
    return {1, static_cast<int>(k_ > 0 ? 0 : best.total_steps)};
  }
  const std::vector<algo::WormSend> all =
      algo::all_worms(*worms_, *topology_, *routing_, drop_id_, source, dests, bytes);
  // A worm must fit in a switch input buffer (seed000 §2.2): its header and one NI packet.
  const int payload = std::min(packet_bytes_, bytes);
  for (const algo::WormSend& w : all)
    if (rtl::worm_header_flits(w.header_bits.size()) + payload > buffer_flits_)
      throw std::invalid_argument("embed::SwitchMulticast: scheme '" + scheme() + "': a worm of " +
                                  std::to_string(rtl::worm_header_flits(w.header_bits.size()) + payload) +
                                  " flits exceeds switch.buffer (" + std::to_string(buffer_flits_) + " flits)");
  return {static_cast<int>(all.size()), 0};
}

void SwitchMulticast::start(rtl::HostApi& h, std::size_t mc) {
  const Multicast& m = multicast_at(mc);
  const auto me = static_cast<std::size_t>(h.node());
  if (!worms_) {
    chain_[me] = algo::cco_approx_chain(*topology_, *routing_, m.source(), m.destinations());
    const std::uint64_t id = h.send_multicast(chain_[me], fan_out(chain_[me].size(), m.bytes()), 0, m.bytes());
    sent(mc, id, static_cast<int>(m.destinations().size()));
    return;
  }
  sends_[me] = worms_->source_worms(*topology_, *routing_, drop_id_, m.source(), m.destinations(), m.bytes());
  for (const algo::WormSend& w : sends_[me]) sent(mc, h.send_worm(w), static_cast<int>(w.dests.size()));
}

void SwitchMulticast::take(const rtl::ReceivedMessage& msg, rtl::NodeId me) {
  got_[static_cast<std::size_t>(me)] = msg.relay_worm;
}

void SwitchMulticast::relay(rtl::HostApi& h, std::size_t mc) {
  const auto me = static_cast<std::size_t>(h.node());
  if (!worms_) return;   // the NIs relay the tree
  sends_[me] = worms_->relay_worms(*topology_, drop_id_, got_[me].get(), h.node(), multicast_at(mc).bytes());
  got_[me].reset();
  for (const algo::WormSend& w : sends_[me]) sent(mc, h.send_worm(w), static_cast<int>(w.dests.size()));
}

}  // namespace wormcast::embed
