#include "testbenches/app/workloads/ib_multicast_service.h"

#include <algorithm>
#include <stdexcept>

#include "algorithms/scheme_options.h"
#include "rtl_models/node/endpoint_node.h"
#include "topologies/networks/elaborator.h"

namespace wormcast::tb {

namespace {

topo::Network& ib_network(topo::NetworkModel& net, const ServiceSite& site, const std::string& scheme) {
  auto* sw = dynamic_cast<topo::Network*>(&net);
  if (!sw || sw->params().decoder != "ib")
    throw std::invalid_argument(site.who + ": scheme '" + scheme + "' needs an InfiniBand fat tree " +
                                "(topology.kind fat_tree with switch.decoder ib)" +
                                (site.topology_kind.empty() ? std::string() : ", not topology.kind " + site.topology_kind) +
                                (sw ? " with switch.decoder " + sw->params().decoder : std::string()));
  return *sw;
}

void check_nodes(const std::string& who, const std::vector<rtl::NodeId>& list, int n, const std::string& what) {
  if (list.empty()) throw std::invalid_argument(who + "::set_group: no " + what);
  std::vector<rtl::NodeId> sorted = list;
  std::sort(sorted.begin(), sorted.end());
  for (std::size_t i = 0; i < sorted.size(); ++i) {
    if (sorted[i] < 0 || sorted[i] >= n)
      throw std::invalid_argument(who + "::set_group: " + what + " " + std::to_string(sorted[i]) +
                                  " is no node (the network has nodes 0.." + std::to_string(n - 1) + ")");
    if (i > 0 && sorted[i] == sorted[i - 1])
      throw std::invalid_argument(who + "::set_group: " + what + " " + std::to_string(sorted[i]) + " listed twice");
  }
}

}  // namespace

IbMulticastService::IbMulticastService(topo::NetworkModel& net, const rtl::Clock& clock, const ServiceSite& site,
                                       const std::string& scheme, const IbPacketFormat& format,
                                       const std::map<std::string, std::string>& options)
    : net_(net), clock_(clock), site_(site), scheme_name_(scheme), format_(format) {
  topo::Network& sw = ib_network(net, site, scheme);
  std::unique_ptr<algo::IbScheme> s = algo::ib_schemes().make(scheme);   // std::invalid_argument listing the schemes
  algo::set_options(*s, options, algo::experiment_keys(scheme));
  scheme_ = std::move(s);
  if (format.header_flits < 1 || format.flit_bytes < 1 || format.mtu < 0)
    throw std::invalid_argument(site.who + ": packet format needs header_flits >= 1, flit_bytes >= 1 and mtu >= 0");
  subnet_ = rtl::ib_subnet(*sw.decoder_shared(), sw.topology());
  for (int x = 0; x < net.num_nodes(); ++x) {
    rtl::Endpoint* e = dynamic_cast<rtl::EndpointNode*>(&net.node(x)) ? net.node(x).endpoint() : nullptr;
    if (!e)
      throw std::invalid_argument(site.who + ": scheme '" + scheme + "' sends from HCAs" +
                                  (site.node_model.empty() ? std::string() : ": node.model is " + site.node_model) +
                                  " (give node.model endpoint)");
    endpoints_.push_back(e);
  }
  for (int x = 0; x < net.num_nodes(); ++x)
    endpoints_[static_cast<std::size_t>(x)]->on_receive = [this, x](const rtl::Packet& p, Cycle now) {
      received(x, p, now);
    };
}

IbMulticastService::~IbMulticastService() {
  for (rtl::Endpoint* e : endpoints_) e->on_receive = nullptr;
}

std::string IbMulticastService::where(rtl::NodeId sender) const {
  return site_.who + " " + scheme_name_ + " multicast(sender " + std::to_string(sender) + "): ";
}

std::size_t IbMulticastService::queued_packets(rtl::NodeId sender) const {
  return endpoints_.at(static_cast<std::size_t>(sender))->queued_packets();
}

void IbMulticastService::set_group(const std::vector<rtl::NodeId>& senders, const std::vector<rtl::NodeId>& members) {
  const int n = net_.num_nodes();
  check_nodes(site_.who, senders, n, "sender");
  check_nodes(site_.who, members, n, "member");
  if (copies_in_flight_ > 0)
    throw std::logic_error(site_.who + "::set_group: " + std::to_string(copies_in_flight_) +
                           " packet copies to the last group are still in flight (the subnet manager reprograms only "
                           "a quiet fabric)");
  const topo::FatTree& t = subnet_->tree();
  const algo::IbTrialPlan tp = scheme_->trial(t, senders, members);
  subnet_->clear();
  senders_.clear();
  unicasts_ = tp.unicasts;
  members_ = members;
  for (rtl::NodeId s : senders) senders_[s] = {};
  double links = 0;
  for (const algo::IbTable& table : tp.tables) {
    const int mlid = subnet_->program(table.mft);
    for (std::size_t i : table.senders) {
      Sender& s = senders_.at(senders[i]);
      s.mlid = mlid;
      s.reach = ib_reach(t, senders[i], table.mft, links);
      check_ib_reach(t, senders[i], table.group, s.reach);
    }
  }
  if (!tp.unicasts)
    for (const auto& [node, s] : senders_)
      if (s.mlid < 0 && !(members.size() == 1 && members[0] == node))
        throw std::logic_error(site_.who + ": scheme '" + scheme_name_ + "' programmed no table for sender " +
                               std::to_string(node));
}

std::shared_ptr<const Multicast> IbMulticastService::multicast(rtl::NodeId sender, int bytes) {
  const auto it = senders_.find(sender);
  if (it == senders_.end())
    throw std::invalid_argument(where(sender) + "not a sender of the group (set_group names the senders)");
  if (bytes < 1) throw std::invalid_argument(where(sender) + "a message of " + std::to_string(bytes) + " bytes");
  auto m = std::make_shared<Multicast>();
  m->source_ = sender;
  for (rtl::NodeId d : members_)
    if (d != sender) {
      m->dests_.push_back(d);
      m->pending_.insert(d);
    }
  if (m->dests_.empty()) throw std::invalid_argument(where(sender) + "the group has no member but the sender");
  m->bytes_ = bytes;
  m->requested_ = clock_.now();
  const Cycle start = clock_.now() + 1;
  const int packets = format_.packets(bytes);
  const std::uint64_t id = multicasts_.size() + 1;   // the packets' message (0: none)
  std::vector<rtl::PacketHeader> headers;
  if (!unicasts_) {
    headers.push_back(ib_multicast_header(it->second.mlid, it->second.reach));
  } else {
    for (rtl::NodeId d : m->dests_)   // unicast: one per member, back to back (seed003 §9)
      headers.push_back(ib_unicast_header(subnet_->tree(), sender, d));
  }
  for (const rtl::PacketHeader& h : headers)
    for (int k = 0; k < packets; ++k) {
      rtl::PacketPtr p = format_.packet(h, bytes, k);
      p->message = id;
      endpoints_[static_cast<std::size_t>(sender)]->inject_at(std::move(p), start);
      ++m->sent_;
      copies_in_flight_ += h.dests.empty() ? 1 : h.dests.size();
    }
  m->planned_messages_ = static_cast<int>(headers.size()) * packets;
  multicasts_.push_back(m);
  open_[multicasts_.size() - 1] = {};
  return m;
}

void IbMulticastService::received(rtl::NodeId at, const rtl::Packet& p, Cycle now) {
  if (p.message == 0 || p.message > multicasts_.size())
    throw std::logic_error(site_.who + ": node " + std::to_string(at) + " received a packet no multicast sent");
  const std::size_t mc = p.message - 1;
  Multicast& m = *multicasts_[mc];
  --copies_in_flight_;
  if (!m.pending_.count(at)) {
    if (std::find(m.dests_.begin(), m.dests_.end(), at) != m.dests_.end())
      throw std::logic_error(site_.who + ": member " + std::to_string(at) + " received more of the multicast from " +
                             std::to_string(m.source_) + " than it sent");
    if (!senders_.count(at))
      throw std::logic_error(site_.who + ": node " + std::to_string(at) + ", neither member nor sender, received "
                             "a packet of the multicast from " + std::to_string(m.source_));
    ++discarded_;   // a SendOnly sender's copy: its HCA drops it
    return;
  }
  if (++open_.at(mc).got[at] < p.msg_packets) return;
  m.pending_.erase(at);
  m.deliveries_.push_back({at, now});
  if (on_delivery_) on_delivery_(m, at, now);
  if (!m.complete()) return;
  open_.erase(mc);
  m.completed_.notify(sc_core::SC_ZERO_TIME);
  if (on_complete_) on_complete_(m);
}

}  // namespace wormcast::tb
