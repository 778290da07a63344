// seed003's InfiniBand schemes (cyclic, opensm, unicast; `wormcast plan
// --list` describes them as ib-*) as a service on a fat tree
// (topology.kind fat_tree, switch.decoder ib) of HCAs (node.model
// endpoint), with the group, the senders and the times of the sends left to
// the caller: embed::IbMulticast (a user's model) and the
// ib_multicast_load workload run it. The service is the subnet manager:
// set_group() programs the multicast tables of a group and its senders as
// the scheme builds them, and multicast() injects a sender's packets (one
// per packet of the message through its table, or one per member for
// unicast) into its HCA. It takes over every endpoint's on_receive. A
// member has the message when its last packet has arrived.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/ib_scheme.h"
#include "rtl_models/switch/ib_decoder.h"
#include "testbenches/app/workloads/ib_packets.h"
#include "testbenches/app/workloads/multicast_service.h"

namespace wormcast::tb {

class IbMulticastService {
 public:
  // Options are the scheme's own, as text: {"sender_ports", "out_of_tree"}
  // for opensm (`wormcast params` lists them as traffic.KEY). Throws
  // std::invalid_argument starting with site.who and naming the scheme, the
  // option or what the network lacks.
  IbMulticastService(topo::NetworkModel& net, const rtl::Clock& clock, const ServiceSite& site,
                     const std::string& scheme, const IbPacketFormat& format = {},
                     const std::map<std::string, std::string>& options = {});
  // Gives the endpoints their on_receive back (empty): destroy the service
  // before the network.
  ~IbMulticastService();
  IbMulticastService(const IbMulticastService&) = delete;
  IbMulticastService& operator=(const IbMulticastService&) = delete;

  // Programs the tables for `members` multicast to by `senders` (a sender
  // may be a member; it never receives its own message), replacing the last
  // group's. Throws std::invalid_argument for a bad node list, and
  // std::logic_error while a packet copy of the last group's multicasts is
  // in flight (the subnet manager reprograms only a quiet fabric).
  void set_group(const std::vector<rtl::NodeId>& senders, const std::vector<rtl::NodeId>& members);
  // Sender `sender` multicasts `bytes` to the group. Its packets enter its
  // HCA in the next cycle, so that calls in one cycle start together
  // whatever order the processes run in; latency() counts from the call.
  // Callable from any process, or before sc_start. Throws
  // std::invalid_argument for a node that is not one of the group's senders
  // or a bad size.
  std::shared_ptr<const Multicast> multicast(rtl::NodeId sender, int bytes);
  void on_delivery(std::function<void(const Multicast&, rtl::NodeId node, Cycle at)> f) { on_delivery_ = std::move(f); }
  // Called when a multicast's last member has received all of it.
  void on_complete(std::function<void(const Multicast&)> f) { on_complete_ = std::move(f); }
  const std::vector<std::shared_ptr<Multicast>>& multicasts() const { return multicasts_; }
  const std::string& scheme() const { return scheme_name_; }
  // Copies delivered to senders that are not members (opensm's SendOnly
  // joins), dropped by their HCA.
  std::uint64_t discarded_copies() const { return discarded_; }
  // The sender's packets not yet sent by its HCA.
  std::size_t queued_packets(rtl::NodeId sender) const;

 private:
  struct Sender {
    int mlid = -1;                    // its table's MLID (a multicast scheme)
    std::vector<rtl::NodeId> reach;   // the members its packets reach
  };
  struct Open {
    std::map<rtl::NodeId, int> got;   // member -> packets received
  };
  void received(rtl::NodeId at, const rtl::Packet& p, Cycle now);
  std::string where(rtl::NodeId sender) const;

  topo::NetworkModel& net_;
  const rtl::Clock& clock_;
  ServiceSite site_;
  std::string scheme_name_;
  std::shared_ptr<const algo::IbScheme> scheme_;
  std::shared_ptr<rtl::IbSubnet> subnet_;
  IbPacketFormat format_;
  std::vector<rtl::Endpoint*> endpoints_;
  std::vector<rtl::NodeId> members_;
  bool unicasts_ = false;              // the scheme sends unicasts, no table
  std::map<rtl::NodeId, Sender> senders_;
  std::vector<std::shared_ptr<Multicast>> multicasts_;
  std::map<std::size_t, Open> open_;   // by index in multicasts_
  std::uint64_t discarded_ = 0, copies_in_flight_ = 0;
  std::function<void(const Multicast&, rtl::NodeId, Cycle)> on_delivery_;
  std::function<void(const Multicast&)> on_complete_;
};

}  // namespace wormcast::tb
