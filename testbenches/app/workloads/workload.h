// Workloads: what the nodes do during a run, as plug-ins selected by
// `traffic.kind`. A Workload declares its parameters (keys of the `traffic`
// section and its own sections), installs packet sources or host programs on
// the nodes of a built network, knows when the work measured in the window is
// complete (the run loop waits for it, within sim.drain_limit), stops
// creating work when told, and registers its statistics.
// Built-ins: the entries of workload_registry() (workload.cpp; `wormcast
// params` lists them). A new workload is a new file plus one entry there.
#pragma once

#include <memory>
#include <string>

#include "rtl_models/node/node_model.h"
#include "rtl_models/core/params.h"
#include "rtl_models/core/registry.h"
#include "rtl_models/core/rng.h"
#include "testbenches/app/saturation.h"
#include "topologies/networks/network_kind.h"

namespace wormcast::tb {

class Workload {
 public:
  virtual ~Workload() = default;
  virtual std::unique_ptr<Workload> clone() const = 0;
  // Keys of `traffic` after `kind`; `nodes` is the selected node model (a
  // workload may need software on the nodes).
  virtual void visit(ParamVisitor& v, const rtl::NodeModel& nodes) = 0;
  // Sections of its own, visited after `traffic`.
  virtual void visit_sections(ParamVisitor&, const rtl::NodeModel&) {}
  // Packets it hands to packet endpoints, for the buffer checks.
  virtual void describe_facts(rtl::ConfigFacts&) const {}
  // Throws std::invalid_argument naming the keys.
  virtual void validate(const rtl::ConfigFacts&, const rtl::NodeModel&) const {}
  // What of its parameters a network of `nodes` nodes cannot hold (a set
  // larger than the network, a source it does not have), in words naming
  // the key; "" when it fits. Asked at validation when the network kind
  // knows its node count (ConfigFacts::nodes), so that a sweep refuses
  // such a point before anything runs, and again before attach.
  virtual std::string node_count_problem(int /*nodes*/) const { return {}; }
  // Why background traffic (section background, background_workload.h)
  // cannot run beside it, naming the keys; "" when it can.
  virtual std::string background_problem() const { return {}; }
  // Install sources / programs. Called once, on a fresh copy (clone()).
  virtual void attach(topo::NetworkModel& net, rtl::SimContext& ctx, const Rng& rng) = 0;
  // Has work created in the measurement window not completed yet?
  virtual bool measured_pending(const rtl::SimContext& ctx) const = 0;
  // Is work created in the measurement window still on its way (created,
  // not yet complete)? Unlike measured_pending, not true for work that a
  // source which stopped for good (its queue full) will never create: the
  // run keeps the load on while this is true, then stops waiting, and
  // measured_pending says whether it saturated (so a run whose source has
  // overflowed does not keep the load on until sim.drain_limit).
  virtual bool measured_outstanding(const rtl::SimContext& ctx) const { return measured_pending(ctx); }
  // Create no new work from cycle c on (work in flight completes).
  virtual void stop_creating_at(Cycle c) = 0;
  virtual void register_statistics(rtl::StatsScope) const {}
  // Why measured work is still pending (for a saturated run), in words.
  virtual std::string pending_work(const rtl::SimContext& ctx) const = 0;
  // Its work so far, in its own unit (work_unit, plural): what arrived at
  // the sources (queued or sent) and what completed. The run loop samples
  // it while the load is on to see whether a backlog grew (saturation.h).
  // By default the packets of the delivery ledger.
  virtual WorkCount work_count(const rtl::SimContext& ctx) const;
  virtual std::string work_unit() const { return "packets"; }
  // A workload of trials (multicasts one after another, each measured)
  // measures all its work: every packet and message of the run counts, not
  // only those of the window sim.warmup .. + sim.measure, and rates per
  // window cycle (offered load, throughput) do not apply.
  virtual bool of_trials() const { return false; }
};

// node_count_problem of a multicast from traffic.source to traffic.set_size
// nodes (the source included; not checked when traffic.destinations lists
// them): the source must be a node, the set no larger than the network.
std::string multicast_set_problem(int source, int set_size, bool destinations_listed, int nodes);

using WorkloadRegistry = Registry<Workload>;
WorkloadRegistry& workload_registry();

}  // namespace wormcast::tb
