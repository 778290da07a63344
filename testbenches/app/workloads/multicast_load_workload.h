// Workload `multicast_load` (seed000 §6.5, spec §7.5): every node is a
// source of multicasts of `degree` random destinations (itself excluded),
// created by a Bernoulli process at rate load / message.size per cycle, so
// each node creates `load` flits of message data per cycle (B_i) and the
// network must deliver degree · load flits per cycle per node: the
// *effective applied load* m·B_i of the paper (m = degree), the x-axis of
// Figs. 26-28. A created multicast waits in its source's queue until the
// source software is free, then is sent with `scheme`:
//  * tree, path-lg, path-greedy, ssr: switch-based worms (as single_multicast;
//    relays send theirs once they have received the whole message);
//  * ni: a k-binomial tree (node.model host_ni, optimal k for (degree + 1,
//    packets), CCO-approx chain ordering) relayed by smart NIs (ni.firmware
//    fpfs, fcfs); with ni.firmware conventional, `conventional` picks the
//    baseline: host_tree (the hosts relay the same tree, each receiving the
//    whole message and sending it to its children, seed002 §2.2) or separate
//    (the source NI sends each destination its own copy).
// With node.model host_ni one program per host creates, sends, receives and
// relays (received messages first); with endpoints a message is one worm
// packet and relays inject at once.
//
// Measured: multicast.latency_cycles of the multicasts created in the
// measurement window, from creation at the source to the end of t_hr at the
// last destination (endpoint: the last tail).
#pragma once

#include <deque>
#include <map>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "algorithms/kbinomial_tree.h"
#include "rtl_models/node/endpoint.h"
#include "rtl_models/node/host_processor.h"
#include "rtl_models/core/worm_packet.h"
#include "testbenches/app/workloads/synthetic_workload.h"
#include "testbenches/app/workloads/workload.h"

namespace wormcast::tb {

class MulticastLoadWorkload : public Workload {
 public:
  std::string scheme = "tree";
  int degree = 3;
  double load = 0.005;            // B_i, flits of message data created per cycle per node
  int source_queue = 50;          // multicasts waiting at one source before it counts as saturated
  std::string conventional = "host_tree";   // with ni.firmware conventional: host_tree | separate
  MessageSection message;

  std::unique_ptr<Workload> clone() const override { return std::make_unique<MulticastLoadWorkload>(*this); }
  void visit(ParamVisitor& v, const rtl::NodeModel& nodes) override;
  void visit_sections(ParamVisitor& v, const rtl::NodeModel& nodes) override;
  void describe_facts(rtl::ConfigFacts& f) const override;
  void validate(const rtl::ConfigFacts& f, const rtl::NodeModel& nodes) const override;
  void attach(topo::NetworkModel& net, rtl::SimContext& ctx, const Rng& rng) override;
  bool measured_pending(const rtl::SimContext& ctx) const override;
  bool measured_outstanding(const rtl::SimContext& ctx) const override;
  void stop_creating_at(Cycle c) override;
  void register_statistics(rtl::StatsScope s) const override;
  std::string pending_work(const rtl::SimContext& ctx) const override;
  std::string node_count_problem(int nodes) const override;
  WorkCount work_count(const rtl::SimContext& ctx) const override;
  std::string work_unit() const override { return "multicasts"; }

  struct Run;

 private:
  std::shared_ptr<Run> run_;
};

struct MulticastLoadWorkload::Run {
  struct Multicast {
    Cycle created = 0, last = 0;
    std::size_t remaining = 0;
    bool measured = false;
  };
  // host_tree: a relayed message's chain (shared by the messages of one
  // multicast) and the block of it the receiving host relays.
  struct HostRelay {
    std::shared_ptr<const std::vector<rtl::NodeId>> chain;
    algo::RelayBlock block;
  };
  struct Node {
    Rng rng;
    Cycle next = UINT64_MAX;               // next creation
    std::deque<Cycle> queue;               // created, not yet sent
    std::vector<rtl::NodeId> others;       // scratch for the destination draw
    std::vector<rtl::NodeId> dests;
    std::vector<rtl::NodeId> chain;
    std::vector<rtl::WormSend> sends;
    HostRelay relaying;                    // host_tree: the block this host is relaying (a member: sends wait)
    std::vector<algo::RelayBlock> kids;    // host_tree: its children
    rtl::ReceivedMessage got;
    bool overflowed = false;
  };
  bool ni = false;                         // scheme ni
  bool host_relay = false;                 // scheme ni, ni.firmware conventional, conventional host_tree
  std::map<std::uint64_t, HostRelay> relay_of;         // message id -> what its receiver relays
  const algo::SwitchScheme* scheme = nullptr;   // null: scheme ni
  algo::SsrId drop_id = algo::SsrId::switch_id;
  std::shared_ptr<const topo::Topology> topology;
  std::shared_ptr<const topo::UpDownRouting> routing;
  rtl::SimContext* ctx = nullptr;
  int degree = 3, bytes = 128, packets = 1, queue_limit = 50;
  unsigned k = 1;
  double rate = 0;                         // multicasts per cycle per node
  Cycle stop = UINT64_MAX;
  std::vector<Node> nodes;
  std::vector<rtl::Endpoint*> endpoints;
  std::map<std::uint64_t, std::uint64_t> message_of;   // message id -> multicast id (host_ni)
  std::map<std::uint64_t, Multicast> open;             // multicasts not yet complete
  std::uint64_t next_id = 1, created = 0, completed = 0, measured_open = 0, worms = 0;
  std::vector<std::uint32_t> latency;

  Cycle gap(Node& n);
  void create_due(Node& n, Cycle now);
  std::uint64_t start(rtl::NodeId src, Cycle created);   // a new multicast; fills nodes[src].dests
  void delivered(std::uint64_t mc, Cycle at);
  void host_program(rtl::HostApi& h);
  void host_send(rtl::HostApi& h, Node& me);
  void host_relay_sends(rtl::HostApi& h, Node& me, std::uint64_t mc);   // relays me.relaying
  void endpoint_source(rtl::NodeId src);
  void endpoint_received(rtl::NodeId at, const rtl::Packet& p, Cycle now);
  void inject(rtl::NodeId from, std::uint64_t mc, const std::vector<rtl::WormSend>& w);
};

}  // namespace wormcast::tb
