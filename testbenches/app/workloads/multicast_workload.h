// Workload `single_multicast` (traffic.kind: single_multicast; node.model
// host_ni): one source multicasts a message of message.size bytes (m =
// ceil(size / ni.packet_size) packets) to a destination set, `repetitions`
// times one after another (the next starts when the last destination has
// received the previous one). The message travels on a k-binomial tree over
// a chain ordering of the set; with smart NI firmware (ni.firmware fpfs or
// fcfs) the NIs relay it. With conventional firmware the HOSTS relay it
// (traffic.conventional: host_tree, the seed002 §2.2 baseline): an
// intermediate host receives the whole message (t_hr), then sends it to each
// of its children (t_hs + the NI's t_ns per packet, per child); with
// traffic.conventional: separate the source NI sends each destination its
// own copy (separate addressing).
//
// `scheme` (default ni) selects the multicast scheme (seed000 §4-§5):
//  * ni: the smart-NI k-binomial tree above (node.model host_ni);
//  * tree, path-lg, path-greedy, ssr: switch-based worms (docs/switch_multicast.md).
//    The source's host software sends the worms the scheme assigns it
//    (rtl::source_worms); a destination whose worm carried relay work sends
//    its worms once it has received the whole message (rtl::relay_worms,
//    decided from the received payload alone). With node.model host_ni every
//    worm costs its sender t_hs and t_ns per packet, every reception t_nr per
//    packet and t_hr; with node.model endpoint a message is one worm packet
//    (message.size payload flits plus the encoded header) and relays inject
//    at once. The switches need the scheme's decoder (switch.decoder
//    reachability for tree, ssr otherwise).
//
// Measured: multicast.latency_cycles, per repetition, from the source's send
// call to the end of t_hr at the LAST destination (endpoint: to the last
// destination's tail); the tree used; the peak NI memory of each chain
// member's NI.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/kbinomial_tree.h"
#include "rtl_models/node/network_interface.h"
#include "rtl_models/core/worm_packet.h"
#include "testbenches/app/workloads/synthetic_workload.h"
#include "testbenches/app/workloads/workload.h"

namespace wormcast::tb {

class SingleMulticastWorkload : public Workload {
 public:
  int source = 0;                     // -1: random (from the run's seed)
  int set_size = 16;                  // n: source + destinations (random set)
  std::string destinations;           // "3,7,12": this list instead of a random set
  int k = 0;                          // 0: optimal for (n, m)
  std::string construction = "time_ordered";
  std::string ordering = "cco_approx";
  std::string scheme = "ni";
  int repetitions = 5;
  std::string conventional = "host_tree";   // conventional firmware: host_tree or separate
  MessageSection message;

  std::unique_ptr<Workload> clone() const override { return std::make_unique<SingleMulticastWorkload>(*this); }
  void visit(ParamVisitor& v, const rtl::NodeModel& nodes) override;
  void visit_sections(ParamVisitor& v, const rtl::NodeModel& nodes) override;
  void describe_facts(rtl::ConfigFacts& f) const override;
  void validate(const rtl::ConfigFacts& f, const rtl::NodeModel& nodes) const override;
  void attach(topo::NetworkModel& net, rtl::SimContext& ctx, const Rng& rng) override;
  bool measured_pending(const rtl::SimContext& ctx) const override;
  void stop_creating_at(Cycle c) override;
  void register_statistics(rtl::StatsScope s) const override;
  std::string pending_work(const rtl::SimContext& ctx) const override;
  std::string node_count_problem(int nodes) const override;
  bool of_trials() const override { return true; }

  // The state the host programs share (public for tests).
  struct Run;
  const Run& run() const { return *run_; }

 private:
  std::vector<int> destination_set(int nodes, int source, const Rng& rng) const;
  void attach_worms(topo::NetworkModel& net, rtl::SimContext& ctx, int source, const std::vector<int>& dests);
  std::shared_ptr<Run> run_;
};

struct SingleMulticastWorkload::Run {
  std::vector<rtl::NodeId> chain;     // source first
  unsigned k = 1;
  int construction = 0;
  int bytes = 0;
  int packets = 1;                    // m
  int repetitions = 1;
  Cycle stop = UINT64_MAX;
  std::vector<std::uint32_t> latency; // per completed repetition
  std::vector<const rtl::NetworkInterface*> nis;   // by chain position
  // the repetition in progress
  Cycle send_call = 0, last_received = 0;
  // The last repetition's (destination, its receive), in order: the host's
  // receive (host_ni) or the worm's tail at the endpoint.
  std::vector<std::pair<rtl::NodeId, Cycle>> arrivals;
  std::size_t remaining = 0;
  // Host programs wait on it; made only when hosts run programs (endpoint
  // worms are driven from the endpoints' receive callbacks and need none).
  std::unique_ptr<sc_core::sc_event> all_received;
  void notify_all_received() { if (all_received) all_received->notify(sc_core::SC_ZERO_TIME); }
  std::vector<int> received_once;     // per chain position, this repetition (exactly-once check)
  void source_program(rtl::HostApi& h);
  void destination_program(rtl::HostApi& h);

  // Switch-based schemes (scheme != ni). Per-node state lives here, not in
  // program locals (no owning local across a wait()).
  bool worms = false;
  const algo::SwitchScheme* scheme = nullptr;
  algo::SsrId drop_id = algo::SsrId::switch_id;
  std::shared_ptr<const topo::Topology> topology;
  std::shared_ptr<const topo::UpDownRouting> routing;
  std::vector<std::vector<rtl::WormSend>> sends;   // by node: the worms it is sending
  std::vector<rtl::ReceivedMessage> got;           // by node: the last message received
  std::vector<rtl::Endpoint*> endpoints;           // node.model endpoint
  std::uint64_t worms_sent = 0;
  int max_worm_flits = 0;                          // longest worm packet (header + payload)
  void worm_source_program(rtl::HostApi& h);
  void worm_destination_program(rtl::HostApi& h);
  void endpoint_repetition(rtl::SimContext& ctx);
  void endpoint_received(rtl::SimContext& ctx, rtl::NodeId at, const rtl::Packet& p, Cycle now);
  void inject_worms(rtl::NodeId from, const std::vector<rtl::WormSend>& w);
  void note_received(rtl::NodeId node, Cycle at);

  void count_receipt(rtl::NodeId node);

  // Conventional NI, host-relayed tree (seed002 §2.2): each hop is a unicast
  // message whose payload starts with the receiver's block of the chain (the
  // same information a smart NI's relay header carries). The model stores no
  // message data, so `payload` stands in for those bytes: the sender writes
  // the entry of the message it sent, the receiving host reads (and erases)
  // the entry of the message it received, and computes its children from it
  // alone (algo::relay_children).
  bool host_relay = false;
  std::map<std::uint64_t, algo::RelayBlock> payload;
  std::vector<std::vector<algo::RelayBlock>> host_children;   // per chain position (kept across send()'s wait)
  void host_relay_sends(rtl::HostApi& h, const algo::RelayBlock& mine);
  algo::RelayBlock read_payload(const rtl::ReceivedMessage& m);
};

}  // namespace wormcast::tb
