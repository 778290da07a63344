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

namespace {

tb::ServiceSite site_of(Network& net, const std::string& who) {
  return {who, net.config().network.name, net.config().node.name};
}

}  // namespace

DirectMulticast::DirectMulticast(Network& net, const std::string& scheme, const std::map<std::string, std::string>& options)
    : tb::DirectMulticastService(net.model(), net.clock(), site_of(net, "embed::DirectMulticast"), scheme, options) {}

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
    : MulticastService(net.model(), net.clock(), site_of(net, "embed::SwitchMulticast"), scheme) {
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
