// Multicasts as a service of the simulated software: every processor of a
// network runs a scheme's program, and anyone (a user's module, a load
// generator) asks a node to multicast, at any time, as often as it likes;
// several multicasts may be on their way at once. The embedded services
// (embed/multicast.h) and the direct_multicast_load workload share it, so a
// scheme runs alike in a user's model and under `wormcast run`.
//
// DirectMulticastService runs `wormcast plan`'s schemes for tori, meshes and
// hypercubes (seed001's, seed004's) as the direct_multicast workload runs
// them: the source on the whole destination set, each relay on the part its
// message handed it, t_S per send and t_R per reception.
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
#include "rtl_models/core/clock.h"
#include "testbenches/app/workloads/direct_carrier.h"
#include "topologies/direct_routing.h"
#include "topologies/networks/network_kind.h"

namespace wormcast::tb {

// Where a service runs, for its error messages: who asks ("embed::DirectMulticast"),
// and the network's topology.kind and node.model when the caller knows them.
struct ServiceSite {
  std::string who;
  std::string topology_kind, node_model;
};

// One multicast asked of a service.
class Multicast {
 public:
  struct Delivery {
    rtl::NodeId node;
    Cycle at;   // the end of the destination's t_R
  };
  rtl::NodeId source() const { return source_; }
  const std::vector<rtl::NodeId>& destinations() const { return dests_; }
  int bytes() const { return bytes_; }
  Cycle requested() const { return requested_; }   // the cycle multicast() was called in
  bool complete() const { return pending_.empty(); }
  // Notified when the last destination has received the message.
  const sc_core::sc_event& completed() const { return completed_; }
  const std::vector<Delivery>& deliveries() const { return deliveries_; }
  // From the request to the last destination's reception; throws
  // std::logic_error while the multicast is not complete.
  Cycle latency() const;
  int messages_sent() const { return sent_; }
  // The scheme's plan for this set: its messages, and its steps where the
  // scheme counts them (the direct schemes' phases, the optimal k-binomial
  // tree's T_1 + (m-1)k; 0 for the switch-based worms and a fixed k).
  int planned_messages() const { return planned_messages_; }
  int planned_steps() const { return planned_steps_; }

 private:
  friend class MulticastService;
  friend class IbMulticastService;
  rtl::NodeId source_ = 0;
  std::vector<rtl::NodeId> dests_;
  int bytes_ = 0;
  Cycle requested_ = 0;
  std::set<rtl::NodeId> pending_;
  std::vector<Delivery> deliveries_;
  int sent_ = 0, planned_messages_ = 0, planned_steps_ = 0;
  sc_core::sc_event completed_;
};

// What the multicast services share: the requests each node is asked, the
// program every processor runs (start what it was asked, else relay what
// it received, else wait for either), and the bookkeeping of each
// multicast's messages and deliveries. A scheme family is a subclass
// (DirectMulticastService, embed::SwitchMulticast) that says how the source
// sends and how a relay hands on what it received.
class MulticastService {
 public:
  virtual ~MulticastService() = default;
  MulticastService(const MulticastService&) = delete;
  MulticastService& operator=(const MulticastService&) = delete;

  // Asks node `source` to multicast `bytes` to `dests` (each once, not the
  // source): returns at once, the source's software starts on it in this
  // cycle (after what it is doing). Callable from any process, or before
  // sc_start. Throws std::invalid_argument naming a bad node or size, or a
  // set the scheme cannot serve.
  std::shared_ptr<const Multicast> multicast(rtl::NodeId source, const std::vector<rtl::NodeId>& dests, int bytes);
  // Called at each destination's reception (after its t_R).
  void on_delivery(std::function<void(const Multicast&, rtl::NodeId node, Cycle at)> f) { on_delivery_ = std::move(f); }
  // Called when a multicast's last destination has received it.
  void on_complete(std::function<void(const Multicast&)> f) { on_complete_ = std::move(f); }
  // Every multicast asked so far, in the order asked.
  const std::vector<std::shared_ptr<Multicast>>& multicasts() const { return multicasts_; }
  // Multicasts asked of `node` that its software has not started yet.
  std::size_t waiting(rtl::NodeId node) const { return requests_[static_cast<std::size_t>(node)].size(); }
  const std::string& scheme() const { return scheme_name_; }

 protected:
  // site.who starts every error message.
  MulticastService(topo::NetworkModel& net, const rtl::Clock& clock, ServiceSite site, std::string scheme);
  // Gives every processor the service's program: a subclass's constructor
  // ends with it, once nothing can be refused.
  void install_programs();
  // The scheme's plan for a set: its messages and steps. Throws
  // std::invalid_argument for a set the scheme cannot serve.
  struct Planned {
    int messages = 0, steps = 0;
  };
  virtual Planned plan(rtl::NodeId source, const std::vector<rtl::NodeId>& dests, int bytes) const = 0;
  // The source's sends of multicast `mc`; each send is reported to sent().
  virtual void start(rtl::HostApi& h, std::size_t mc) = 0;
  // Keeps what a received message of `mc` hands node `me` (in members: the
  // message is gone before relay() waits).
  virtual void take(const rtl::ReceivedMessage& msg, rtl::NodeId me) = 0;
  // The node's sends for what it took; each is reported to sent().
  virtual void relay(rtl::HostApi& h, std::size_t mc) = 0;
  // A message of multicast `mc` posted, for `receivers` destinations.
  void sent(std::size_t mc, std::uint64_t id, int receivers);
  const Multicast& multicast_at(std::size_t mc) const { return *multicasts_[mc]; }
  const ServiceSite& site() const { return site_; }

  topo::NetworkModel& net_;

 private:
  struct InFlight {
    std::size_t multicast;   // index in multicasts_
    int receivers;           // destinations still to receive it (an IR worm, an NI tree: several)
  };
  rtl::ProgramHost& host(rtl::NodeId x) const;
  void program(rtl::HostApi& h);
  void receive(rtl::HostApi& h);
  void delivered(std::size_t mc, rtl::NodeId at, Cycle when);

  const rtl::Clock& clock_;
  ServiceSite site_;
  std::string scheme_name_;
  std::vector<std::shared_ptr<Multicast>> multicasts_;
  // Per node: the multicasts asked of it, not started (a member, not a
  // program local: rtl_models/core/kernel.h, no owning local across a wait).
  std::vector<std::deque<std::size_t>> requests_;
  std::map<std::uint64_t, InFlight> in_flight_;   // by message id
  std::function<void(const Multicast&, rtl::NodeId, Cycle)> on_delivery_;
  std::function<void(const Multicast&)> on_complete_;
};

// The direct-network schemes (seed001, seed004) on a torus, mesh or
// hypercube of processors.
class DirectMulticastService : public MulticastService {
 public:
  // Runs `scheme` (wormcast plan's name: utorus, mdtorus, storus, mutorus,
  // wsort, ...; `wormcast plan --list` lists them) with its options as
  // text ({"r", "4"}) on every processor of `net`, a torus, mesh or
  // hypercube with node.model processor and a deterministic routing: it
  // gives each processor its program, so call it during elaboration, and
  // leave those processors' programs to it. Throws std::invalid_argument
  // starting with site.who and naming the scheme, the option or what the
  // network lacks.
  DirectMulticastService(topo::NetworkModel& net, const rtl::Clock& clock, const ServiceSite& site,
                         const std::string& scheme, const std::map<std::string, std::string>& options = {});
  const algo::DirectScheme& scheme_record() const { return *scheme_; }

 private:
  Planned plan(rtl::NodeId source, const std::vector<rtl::NodeId>& dests, int bytes) const override;
  void start(rtl::HostApi& h, std::size_t mc) override;
  void take(const rtl::ReceivedMessage& msg, rtl::NodeId me) override;
  void relay(rtl::HostApi& h, std::size_t mc) override;
  void send_part(rtl::HostApi& h, std::size_t mc);

  std::unique_ptr<algo::DirectScheme> scheme_;
  const DirectCarrier* carrier_ = nullptr;
  std::shared_ptr<const topo::DirectRouting> routing_;
  // Per node: its part of the multicast it is sending (itself first), its sends.
  std::vector<std::vector<rtl::NodeId>> part_;
  std::vector<std::vector<algo::LocalSend>> sends_;
  CarriedParts parts_;
};

}  // namespace wormcast::tb
