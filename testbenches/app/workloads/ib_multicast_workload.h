// Workload `ib_multicast` (traffic.kind: ib_multicast): seed003's
// experiments (Zhou, Lin, Chung 2007; spec/seed002_004.md SEED 003 §8-§12)
// on an InfiniBand fat tree (topology.kind fat_tree, switch.decoder ib,
// node.model endpoint: the HCA injects one byte per cycle).
//
// A trial draws `sources` senders and a multicast group of `group` members,
// uniformly and independently from the run's seed (a sender may be a
// member; it never receives its own message), or takes the lists
// traffic.senders / traffic.members. All senders start at the
// trial's first cycle, each multicasting one message of message.size bytes
// to the group, by `scheme`:
//  * cyclic: the subnet manager (this workload) programs one MLID per
//    (sender, group) with the union table of the cyclic DLIDs (§7); the
//    sender injects one packet with that MLID;
//  * opensm: one MLID per group with OpenSM's shared spanning tree over the
//    members and the senders (§8: a sender must join, SendOnly, so its port
//    is in the tree); each sender injects one packet with it. Copies that
//    reach a sender that is not a member are delivered to its HCA and
//    discarded there (they use bandwidth; multicast.discarded_copies). With
//    traffic.sender_ports: out_of_tree the same tree loses every branch that
//    leads to no member (the paper leaves the choice open): those senders'
//    packets still climb to the tree, no copy goes toward them;
//  * unicast: each sender sends one unicast per member, back to back in the
//    group's drawn order, with the cyclic DLID (§9).
// With traffic.mtu > 0 a message is split into packets of at most mtu
// payload bytes, sent back to back (each a copy of the message's header).
// A packet is traffic.header_flits + ceil(payload bytes / traffic.flit_bytes)
// flits; one flit crosses a link per cycle.
//
// The trial ends when every copy of every packet has been delivered; the
// next one starts then. Measured per trial (§12): the completion time, from
// the trial's start to the last member's reception of the last byte of the
// last message; and the mean over (sender, member) pairs of the time that
// member had the whole message.
#pragma once

#include "algorithms/ib_scheme.h"

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "rtl_models/node/endpoint.h"
#include "rtl_models/switch/ib_decoder.h"
#include "testbenches/app/workloads/ib_packets.h"
#include "testbenches/app/workloads/synthetic_workload.h"
#include "testbenches/app/workloads/workload.h"

namespace wormcast::tb {

class IbMulticastWorkload : public Workload {
 public:
  std::string scheme = "cyclic";
  int sources = 1;
  int group = 13;
  std::string senders, members;   // fixed lists instead of random draws
  int trials = 10;
  int header_flits = 1;
  int flit_bytes = 1;
  int mtu = 0;
  // The scheme's own options as text, keyed as it declares them
  // (algo::ib_scheme_options: traffic.sender_ports); empty = its default.
  std::map<std::string, std::string> scheme_texts;
  MessageSection message;

  std::unique_ptr<Workload> clone() const override { return std::make_unique<IbMulticastWorkload>(*this); }
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

  struct Run;
  const Run& run() const { return *run_; }

 private:
  std::shared_ptr<const algo::IbScheme> make_scheme() const;   // with its options; std::invalid_argument
  std::shared_ptr<Run> run_;
};

struct IbMulticastWorkload::Run {
  std::shared_ptr<const algo::IbScheme> scheme;   // traffic.scheme (algo::ib_schemes())
  std::shared_ptr<rtl::IbSubnet> subnet;
  std::vector<rtl::Endpoint*> endpoints;
  rtl::SimContext* ctx = nullptr;
  Rng rng{1};
  int sources = 1, group = 1, trials = 1, bytes = 1;
  IbPacketFormat format;
  Cycle stop = UINT64_MAX;

  std::vector<rtl::NodeId> fixed_senders, fixed_members;   // traffic.senders / members (empty: drawn)

  // The trial in progress.
  Cycle start = 0;
  std::vector<rtl::NodeId> senders, members;
  std::vector<char> is_member;                 // per node
  std::uint64_t expected = 0, delivered = 0;   // packet copies to deliver / delivered (members and discards)
  Cycle last_useful = 0;
  std::vector<int> got;                        // per (sender · nodes + node): packets received
  double completion_sum = 0;                   // Σ over (sender, member) of the message's completion
  std::uint64_t completions = 0;
  struct Done {                                // a member has a sender's whole message
    rtl::NodeId member = -1, sender = -1;
    Cycle at = 0;                              // cycles from the trial's start
  };
  std::vector<Done> done;                      // this trial's (after the last, the last trial's)

  // Per completed trial.
  std::vector<std::uint32_t> completion;       // start -> last byte at the last member
  std::vector<double> mean_completion;         // mean over (sender, member) pairs
  std::vector<double> link_traversals;         // the tables' links crossed per packet, summed over senders
  std::vector<double> table_entries;           // switch entries programmed (multicast schemes)
  std::uint64_t discarded = 0;                 // copies delivered to senders that are not members
  std::uint64_t packets_sent = 0;

  void begin_trial();
  void received(rtl::NodeId at, const rtl::Packet& p, Cycle now);
  void send_multicast(rtl::NodeId src, int mlid, std::vector<rtl::NodeId> reach);
  // Returns the links its packets cross (one packet per member).
  double send_unicasts(rtl::NodeId src);
  void inject(rtl::NodeId src, const rtl::PacketHeader& h, int index);
};

}  // namespace wormcast::tb
