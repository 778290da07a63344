// Workload `direct_multicast_load` (traffic.kind: direct_multicast_load;
// node.model processor on a torus, mesh or hypercube): a stream of
// multicasts at an offered load, every multicast sent by a direct-network
// scheme (seed001's, seed004's; the entries of `wormcast plan --list` for
// tori, meshes and hypercubes) running as software on the processors, many
// on their way at once. This is the latency-against-load experiment of a
// network simulator, with multicasts as the traffic.
//
// Each source (traffic.sources; default every node) creates multicasts by
// its own arrival process (traffic.arrivals: bernoulli or poisson) at
// load / message.size per cycle, so that it creates `load` flits of message
// data per cycle, and the network must deliver degree · load flits per
// cycle per source (the effective load, as multicast_load's m·B_i). A
// multicast goes to `degree` destinations drawn uniformly at random per
// multicast (itself excluded), or to the fixed group traffic.destinations
// (less the source, when it is a member). A created multicast waits at its
// source until the source's software is free (it sends and relays in the
// order work arrives: tb::MulticastService); traffic.source_queue waiting
// multicasts at one source stops it for good and marks the run saturated.
//
// Measured, for the multicasts created in the measurement window: the
// latency from creation to the end of the last destination's t_R (and the
// mean over its destinations), the multicasts created and completed, and
// the rates per cycle per source. The run loop keeps the load on until they
// have all completed (within sim.drain_limit).
#pragma once

#include <map>
#include <memory>
#include <string>
#include <vector>

#include "testbenches/app/workloads/multicast_service.h"
#include "testbenches/app/workloads/multicast_stream.h"
#include "testbenches/app/workloads/synthetic_workload.h"
#include "testbenches/app/workloads/workload.h"

namespace wormcast::tb {

class DirectMulticastLoadWorkload : public StreamWorkload {
 public:
  std::string scheme = "utorus";
  // The schemes' whole-number options as traffic.KEY (traffic.r); 0: the scheme's default.
  std::map<std::string, int> scheme_counts;
  int degree = 8;                     // destinations per multicast (random sets)
  std::string destinations;           // a fixed group instead of random sets
  std::string sources;                // the nodes that create multicasts; empty: every node
  std::string arrivals = "bernoulli";
  double load = 0.01;                 // flits of message data created per cycle per source
  int source_queue = 50;              // multicasts waiting at one source before it counts as saturated
  MessageSection message;

  std::unique_ptr<Workload> clone() const override { return std::make_unique<DirectMulticastLoadWorkload>(*this); }
  void visit(ParamVisitor& v, const rtl::NodeModel& nodes) override;
  void visit_sections(ParamVisitor& v, const rtl::NodeModel& nodes) override;
  void validate(const rtl::ConfigFacts& f, const rtl::NodeModel& nodes) const override;
  std::string node_count_problem(int nodes) const override;
  void attach(topo::NetworkModel& net, rtl::SimContext& ctx, const Rng& rng) override;
  void register_statistics(rtl::StatsScope s) const override;

  struct Run;

 private:
  const char* queue_unit() const override { return "multicasts"; }
  std::shared_ptr<Run> run_;
};

// The state the arrival thread, the service and the statistics share.
struct DirectMulticastLoadWorkload::Run {
  std::unique_ptr<DirectMulticastService> service;
  std::shared_ptr<MulticastStream> stream = std::make_shared<MulticastStream>();
  int degree = 1, bytes = 1, nodes = 0;
  std::vector<rtl::NodeId> group;     // fixed destinations (empty: random sets)
  std::vector<rtl::NodeId> pool;      // scratch for drawing sets
  void send(StreamSource& s);
};

}  // namespace wormcast::tb
