// Workload `direct_multicast` (traffic.kind: direct_multicast; node.model
// processor on a direct network): the multicast schemes of seed001
// (Robinson) run as software on the modelled processors, as in the thesis's
// simulations (§5): one source multicasts a message of message.size bytes,
// `trials` times one after another, each trial to a fresh uniformly random
// destination set of set_size - 1 nodes (or to the listed destinations).
//
// Schemes (the planners of algorithms/cube_multicast.h and
// algorithms/torus_multicast.h; `wormcast plan` prints the same plans):
//  * ucube, maxport, combine, wsort: hypercube (routing ecube), unicasts
//    (Algorithm 1, Fig. 3.5; all-port nodes with router.ports all_port);
//  * utorus: torus (routing utr or btr), unicasts (Fig. 4.9), one-port;
//  * storus, mdtorus, mutorus (with traffic.r): regular unidirectional
//    torus (routing utpr, all-port), IR worms with the compound header of
//    Fig. 6.2 (Fig. 6.1).
// Every node runs the scheme's local rule (DESIGN.md principle 1): the
// source on the whole chain, a relay on what it received. A unicast's
// address field (the nodes its receiver becomes responsible for) travels
// with the message out of band (not counted in its flits); a compound IR
// worm's later-phase lists are its header flits, and a relay reads its
// block from the header its router delivered (ReceivedMessage::header).
// Software costs t_S per send and t_R per reception (processor.t_s, t_r).
//
// Measured per trial (seed001 §5.3): the latency of each destination, from
// the start of the trial (the source's first send call) to the end of its
// t_R; reported as the maximum and the mean over the destinations, and the
// scheme's analytical step count (the plan's steps) for comparison.
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "algorithms/compound_header.h"
#include "algorithms/torus_multicast.h"
#include "testbenches/lib/synthetic_workload.h"
#include "testbenches/lib/workload.h"
#include "topologies/direct_routing.h"

namespace wormcast::tb {

class DirectMulticastWorkload : public Workload {
 public:
  std::string scheme = "utorus";
  int r = 0;                          // mutorus: partitions per phase (required, >= 2)
  int source = 0;                     // -1: a random node (drawn once from the run's seed)
  int set_size = 16;                  // n: source + destinations (random sets)
  std::string destinations;           // "3,7,12" or "(1,2),(3,0)": this set in every trial
  int trials = 10;
  MessageSection message;

  std::unique_ptr<Workload> clone() const override { return std::make_unique<DirectMulticastWorkload>(*this); }
  void visit(ParamVisitor& v, const rtl::NodeModel& nodes) override;
  void visit_sections(ParamVisitor& v, const rtl::NodeModel& nodes) override;
  void validate(const rtl::ConfigFacts& f, const rtl::NodeModel& nodes) const override;
  void attach(topo::NetworkModel& net, rtl::SimContext& ctx, const Rng& rng) override;
  bool measured_pending(const rtl::SimContext& ctx) const override;
  void stop_creating_at(Cycle c) override;
  void register_statistics(rtl::StatsScope s) const override;
  std::string pending_work(const rtl::SimContext& ctx) const override;

  struct Run;
  const Run& run() const { return *run_; }

 private:
  std::shared_ptr<Run> run_;
};

// The state the node programs share. Per-node state lives here, not in
// program locals (rtl_models/kernel.h: no owning local across a wait()).
struct DirectMulticastWorkload::Run {
  enum class Family { cube, utorus, mtorus, sci };
  Family family = Family::utorus;
  int variant = 0;                    // algo::CubeVariant, algo::MTorusPartition or algo::SciScheme, by family
  int r = 2;
  bool all_port = false;              // hypercube step model of the plan: ports,
  bool in_order = false;              // and processor.send_model in_order (model B, seed001 §7.1)
  std::shared_ptr<const topo::DirectRouting> routing;
  rtl::NodeId source = 0;
  int bytes = 1;
  int trials = 1;
  Cycle stop = UINT64_MAX;
  // Trial sets: fixed, or drawn per trial.
  std::vector<rtl::NodeId> fixed;
  int set_size = 2;
  Rng rng{1};

  // The trial in progress.
  std::vector<rtl::NodeId> dests;
  std::vector<char> expected;         // per node: a destination of this trial not yet served
  std::size_t remaining = 0;
  Cycle start = 0;
  struct Reception {
    rtl::NodeId node;                 // a destination of this trial
    Cycle at;                         // the end of its t_R
  };
  std::vector<Reception> received;    // in the order they happened
  std::unique_ptr<sc_core::sc_event> all_received;

  // Per completed trial.
  std::vector<std::uint32_t> max_latency;
  std::vector<double> mean_latency;
  std::vector<std::uint32_t> steps;   // the plan's steps (phases)
  // utorus: seed001 §5.2's step model per trial (utorus_link_sharing.h): the
  // mean reception step without sharing, and the last and mean reception
  // step with link sharing (3-way when router.link_sharing is bidirectional).
  bool three_way = false;
  std::vector<double> mean_step, shared_steps, shared_mean_step;
  std::vector<double> type1, type2;   // Fig. 4.17: unicasts sharing with one other (2-way), with two (3-way)
  std::vector<double> link_visits;    // the plan's links crossed, per trial
  std::vector<double> used_links, link_utilization;   // its distinct links, visits / distinct
  std::vector<double> plan_concurrency, root_targets;  // sci: the step model's most unicasts per step; the root's targets
  // Measured per trial (measure_transfers).
  std::vector<double> concurrency, root_busy, root_utilization;
  struct Transfer {
    Cycle posted = 0, arrived = 0;
    rtl::NodeId sender = -1;
  };
  std::map<std::uint64_t, Transfer> transfers;   // this trial's messages by id
  std::uint64_t messages_sent = 0;
  std::uint64_t trial_first_message = 0;

  // Per node: what it is sending (kept across the sends' waits).
  std::vector<std::vector<rtl::NodeId>> field;                 // its address field / part, itself first
  std::vector<std::vector<algo::MTorusWorm>> worm;             // mtorus: the worms it is sending
  std::vector<std::vector<std::pair<rtl::NodeId, std::vector<rtl::NodeId>>>> unicasts;   // (to, field) in loop order
  std::map<std::uint64_t, std::vector<rtl::NodeId>> payload;   // unicast message id -> the field it carries

  void source_program(rtl::HostApi& h);
  void relay_program(rtl::HostApi& h);
  void receive(rtl::HostApi& h);
  void send_part(rtl::HostApi& h);            // the local rule on field[h.node()]
  void begin_trial(Cycle now);
  void note_received(rtl::NodeId at, Cycle when);
  void note_posted(std::uint64_t id, rtl::NodeId sender, Cycle when);
  void note_arrived(std::uint64_t id, Cycle when);
  void measure_transfers(Cycle last);
  void end_trial();
  std::pair<int, int> plan();   // the plan's steps and messages for this trial's set (utorus: the step model too)
};

}  // namespace wormcast::tb
