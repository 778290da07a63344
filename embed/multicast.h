// A direct-network multicast scheme as a service to a user's modules
// (docs/embedding.md): the scheme's software runs on every processor of an
// embedded network, and any user process asks a node to multicast, at any
// time, as often as it likes; several multicasts may be on their way at
// once. The schemes are `wormcast plan`'s for tori, meshes and hypercubes
// (seed001's, seed004's), and each runs as in the direct_multicast
// workload: the source on the whole destination set, each relay on the part
// its message handed it, t_S per send and t_R per reception
// (processor.t_s, t_r).
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
#include "embed/network.h"
#include "testbenches/app/workloads/direct_carrier.h"

namespace wormcast::embed {

// One multicast asked of the service.
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
  // The scheme's plan for this set: its messages and steps.
  int planned_messages() const { return planned_messages_; }
  int planned_steps() const { return planned_steps_; }

 private:
  friend class DirectMulticast;
  rtl::NodeId source_ = 0;
  std::vector<rtl::NodeId> dests_;
  int bytes_ = 0;
  Cycle requested_ = 0;
  std::set<rtl::NodeId> pending_;
  std::vector<Delivery> deliveries_;
  int sent_ = 0, planned_messages_ = 0, planned_steps_ = 0;
  sc_core::sc_event completed_;
};

class DirectMulticast {
 public:
  // Runs `scheme` (wormcast plan's name: utorus, mdtorus, storus, mutorus,
  // wsort, ...; `wormcast plan --list` lists them) with its options as
  // text ({"r", "4"}) on every processor of `net`, a torus, mesh or
  // hypercube with node.model processor and a deterministic routing: it
  // gives each processor its program, so call it during elaboration, and
  // leave those processors' programs to it. Throws std::invalid_argument
  // naming the scheme, the option or what the network lacks.
  DirectMulticast(Network& net, const std::string& scheme, const std::map<std::string, std::string>& options = {});

  // Asks node `source` to multicast `bytes` to `dests` (each once, not the
  // source): returns at once, the source's software starts on it in this
  // cycle (after what it is doing). Callable from any process, or before
  // sc_start. Throws std::invalid_argument naming a bad node or size.
  std::shared_ptr<const Multicast> multicast(rtl::NodeId source, const std::vector<rtl::NodeId>& dests, int bytes);
  // Called at each destination's reception (after its t_R).
  void on_delivery(std::function<void(const Multicast&, rtl::NodeId node, Cycle at)> f) { on_delivery_ = std::move(f); }
  // Every multicast asked so far, in the order asked.
  const std::vector<std::shared_ptr<Multicast>>& multicasts() const { return multicasts_; }
  const std::string& scheme() const { return scheme_name_; }

 private:
  struct InFlight {
    std::size_t multicast;   // index in multicasts_
    int receivers;           // destinations still to receive it (an IR worm has several)
  };
  void program(rtl::HostApi& h);
  void start(rtl::HostApi& h);
  void receive(rtl::HostApi& h);
  void send_part(rtl::HostApi& h, std::size_t mc);
  void delivered(std::size_t mc, rtl::NodeId at, Cycle when);

  Network& net_;
  std::string scheme_name_;
  std::unique_ptr<algo::DirectScheme> scheme_;
  const tb::DirectCarrier* carrier_ = nullptr;
  std::shared_ptr<const topo::DirectRouting> routing_;
  std::vector<std::shared_ptr<Multicast>> multicasts_;
  // Per node: the multicasts asked of it, not started; its part of the one
  // it is sending (itself first) and that multicast; its sends. Members, not
  // program locals (rtl_models/core/kernel.h: no owning local across a wait).
  std::vector<std::deque<std::size_t>> requests_;
  std::vector<std::vector<rtl::NodeId>> part_;
  std::vector<std::vector<algo::LocalSend>> sends_;
  std::map<std::uint64_t, InFlight> in_flight_;   // by message id
  tb::CarriedParts parts_;
  std::function<void(const Multicast&, rtl::NodeId, Cycle)> on_delivery_;
};

}  // namespace wormcast::embed
