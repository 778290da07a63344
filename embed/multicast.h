// Multicast schemes as a service to a user's modules (docs/embedding.md):
// the scheme's software runs on every processor of an embedded network, and
// any user process asks a node to multicast, at any time, as often as it
// likes; several multicasts may be on their way at once (the service itself
// is tb::MulticastService, testbenches/app/workloads/multicast_service.h, which
// the direct_multicast_load workload also runs). DirectMulticast
// runs `wormcast plan`'s schemes for tori, meshes and hypercubes (seed001's,
// seed004's) as the direct_multicast workload runs them: the source on the
// whole destination set, each relay on the part its message handed it, t_S
// per send and t_R per reception. SwitchMulticast runs the switch-network
// schemes (seed000's worms, seed002's NI trees) on host and NI nodes as the
// single_multicast workload does. IbMulticast runs seed003's InfiniBand
// schemes on a fat tree of HCAs as the ib_multicast workload does: the
// subnet manager programs a group's tables, then senders multicast to it.
#pragma once

#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <string>
#include <systemc>
#include <vector>

#include "algorithms/direct_scheme.h"
#include "algorithms/switch_scheme.h"
#include "topologies/topology.h"
#include "topologies/updown.h"
#include "embed/network.h"
#include "algorithms/ib_scheme.h"
#include "rtl_models/switch/ib_decoder.h"
#include "testbenches/app/workloads/direct_carrier.h"
#include "testbenches/app/workloads/ib_multicast_service.h"
#include "testbenches/app/workloads/ib_packets.h"
#include "testbenches/app/workloads/multicast_service.h"

namespace wormcast::embed {

using Multicast = tb::Multicast;
using MulticastService = tb::MulticastService;

// The direct-network schemes (seed001, seed004) on a torus, mesh or
// hypercube of processors (tb::DirectMulticastService, which the
// direct_multicast_load workload also runs).
class DirectMulticast : public tb::DirectMulticastService {
 public:
  // Runs `scheme` (wormcast plan's name: utorus, mdtorus, storus, mutorus,
  // wsort, ...; `wormcast plan --list` lists them) with its options as
  // text ({"r", "4"}) on every processor of `net`, a torus, mesh or
  // hypercube with node.model processor and a deterministic routing: it
  // gives each processor its program, so call it during elaboration, and
  // leave those processors' programs to it. Throws std::invalid_argument
  // naming the scheme, the option or what the network lacks.
  DirectMulticast(Network& net, const std::string& scheme, const std::map<std::string, std::string>& options = {});
};

// The switch-network schemes (seed000, seed002) on a switch network
// (topology.kind irregular or file) with node.model host_ni: `ni`, the NIs'
// k-binomial tree (seed002; the NI firmware relays it: ni.firmware fpfs or
// fcfs; conventional firmware sends each destination its own copy from the
// source's NI, the workload's traffic.conventional separate), or
// the switch-based worms `tree`, `path-lg`, `path-greedy`, `ssr` (seed000
// §4-§5; the switches need their decoder, switch.decoder). The host costs
// t_hs per send and t_hr per reception, the NI t_ns and t_nr per packet.
class SwitchMulticast : public MulticastService {
 public:
  // Options: {"k", "3"} fixes the `ni` tree's fan-out bound (default: the
  // optimal k for the set and the message's packets, seed002 Theorem 3).
  // Throws std::invalid_argument naming the scheme, the option or what the
  // network lacks.
  SwitchMulticast(Network& net, const std::string& scheme, const std::map<std::string, std::string>& options = {});

 private:
  Planned plan(rtl::NodeId source, const std::vector<rtl::NodeId>& dests, int bytes) const override;
  void start(rtl::HostApi& h, std::size_t mc) override;
  void take(const rtl::ReceivedMessage& msg, rtl::NodeId me) override;
  void relay(rtl::HostApi& h, std::size_t mc) override;
  unsigned fan_out(std::size_t chain, int bytes) const;

  const algo::SwitchScheme* worms_ = nullptr;   // null: the ni scheme
  unsigned k_ = 0;                              // ni: 0 = optimal
  int packet_bytes_ = 1, buffer_flits_ = 0;
  algo::SsrId drop_id_{};
  std::shared_ptr<const topo::Topology> topology_;
  std::shared_ptr<const topo::UpDownRouting> routing_;
  // Per node: the relay work its last worm carried, its sends, its chain.
  std::vector<std::shared_ptr<const algo::RelayWorm>> got_;
  std::vector<std::vector<algo::WormSend>> sends_;
  std::vector<std::vector<rtl::NodeId>> chain_;
};

// seed003's InfiniBand schemes on a fat tree of HCAs
// (tb::IbMulticastService, testbenches/app/workloads/ib_multicast_service.h,
// which the ib_multicast_load workload also runs): set_group() programs a
// group's tables, multicast() sends; it takes over every endpoint's
// on_receive until it is destroyed (before the network).
class IbMulticast : public tb::IbMulticastService {
 public:
  // Options are the scheme's own, as text: {"sender_ports", "out_of_tree"}
  // for opensm (`wormcast params` lists them as traffic.KEY). Throws
  // std::invalid_argument naming the scheme, the option or what the network
  // lacks.
  IbMulticast(Network& net, const std::string& scheme, const tb::IbPacketFormat& format = {},
              const std::map<std::string, std::string>& options = {});
};

}  // namespace wormcast::embed
