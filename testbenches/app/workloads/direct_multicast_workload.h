// Workload `direct_multicast` (traffic.kind: direct_multicast; node.model
// processor on a direct network): the multicast schemes of seed001
// (Robinson) run as software on the modelled processors, as in the thesis's
// simulations (§5): one source multicasts a message of message.size bytes,
// `trials` times one after another, each trial to a fresh uniformly random
// destination set of set_size - 1 nodes (or to the listed destinations).
//
// Schemes: the entries of algorithms/direct_scheme.h's direct_schemes()
// (seed001's hypercube and torus schemes, seed004's SCI schemes; `wormcast
// plan` prints the same plans). The workload knows none of them: it asks the
// scheme for the network it needs, the source's part and each node's local
// rule (docs/design.md principle 1: the source on the whole chain, a relay on
// what it received), the plan of each trial and the statistics that plan
// adds. How a message hands on its part is the scheme's carrier: a
// unicast's address field (the nodes its receiver becomes responsible for)
// travels with the message out of band (not counted in its flits); a
// compound IR worm's later-phase lists are its header flits, and a relay
// reads its block from the header its router delivered
// (ReceivedMessage::header). The schemes' whole-number options are
// traffic.KEY (traffic.r for mutorus and sci-mutorus); their choices are
// `plan` options whose values a simulation takes from its nodes (the
// hypercube schemes' port and step model). Software costs t_S per send and
// t_R per reception (processor.t_s, t_r).
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

#include "algorithms/direct_scheme.h"
#include "testbenches/app/workloads/direct_carrier.h"
#include "testbenches/app/workloads/synthetic_workload.h"
#include "testbenches/app/workloads/workload.h"
#include "topologies/direct_routing.h"

namespace wormcast::tb {

class DirectMulticastWorkload : public Workload {
 public:
  std::string scheme = "utorus";
  // The schemes' whole-number options as traffic.KEY (today r: mutorus,
  // sci-mutorus); 0: not set, the scheme's default.
  std::map<std::string, int> scheme_counts;
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
  std::string node_count_problem(int nodes) const override;
  bool of_trials() const override { return true; }

  struct Run;
  const Run& run() const { return *run_; }

 private:
  // The scheme of traffic.scheme with its options set (std::invalid_argument naming the key).
  std::unique_ptr<algo::DirectScheme> configured_scheme() const;
  std::shared_ptr<Run> run_;
};

// The state the node programs share. Per-node state lives here, not in
// program locals (rtl_models/core/kernel.h: no owning local across a wait()).
struct DirectMulticastWorkload::Run {
  std::unique_ptr<algo::DirectScheme> scheme;   // its options set, fitted to the nodes
  const DirectCarrier* carrier = nullptr;   // how its messages hand on their parts (scheme->carrier())
  bool all_port = false;
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
  std::vector<algo::TrialMetric> metrics;           // the scheme's own per-trial statistics
  std::vector<std::vector<double>> metric_values;   // per metrics entry, per trial
  std::vector<double> link_visits;    // the plan's links crossed, per trial
  std::vector<double> used_links, link_utilization;   // its distinct links, visits / distinct
  // Measured per trial (measure_transfers).
  std::vector<double> concurrency, root_busy, root_utilization;
  struct Transfer {
    Cycle posted = 0, arrived = 0;
    rtl::NodeId sender = -1;
    int receivers = 0;                // that have it (an IR worm: each of its destinations)
  };
  std::map<std::uint64_t, Transfer> transfers;   // this trial's messages by id
  std::uint64_t messages_sent = 0;
  std::uint64_t trial_first_message = 0;

  // Per node: what it is sending (kept across the sends' waits).
  std::vector<std::vector<rtl::NodeId>> field;                 // its address field / part, itself first
  std::vector<std::vector<algo::LocalSend>> sends;             // its local rule's sends, in order
  CarriedParts payload;   // unicast message id -> the field it carries

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
  std::pair<int, int> plan();   // the plan's steps and messages for this trial's set (and the scheme's metrics)
};

}  // namespace wormcast::tb
