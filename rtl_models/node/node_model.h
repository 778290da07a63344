// Node models: what sits at each processing node of a network, as plug-ins
// selected by `node.model`. A NodeModel declares its parameters (its own
// sections of the experiment file), builds the hardware of one node
// (NodeHardware: two link ports toward the network plus whatever the node
// contains), and registers the statistics it measures. Network kinds call
// build() for every node and bind its ports; workloads drive the node either
// at packet level (an Endpoint) or through software (a HostProcessor).
// Built-ins: `endpoint` (packet source/sink) and `host_ni` (host + I/O bus +
// NI coprocessor, seed000 §2.3). A new node model is a new file plus one line
// in node_model.cpp.
#pragma once

#include <functional>
#include <memory>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include "rtl_models/node/endpoint.h"
#include "rtl_models/node/host_processor.h"
#include "rtl_models/core/link.h"
#include "rtl_models/core/params.h"
#include "rtl_models/core/registry.h"
#include "rtl_models/core/sim_context.h"
#include "rtl_models/core/statistics.h"

namespace wormcast::rtl {

// What plug-ins may need to know of each other for cross-parameter checks.
// Each message names the keys involved.
struct ConfigFacts {
  std::string where = "configuration";    // the experiment file, for messages
  Cycle watchdog = 0;                      // sim.watchdog
  int workload_packet_flits = 0;           // packets a workload hands to endpoints (0: none)
  std::string workload_packet_key;         // e.g. "traffic.packet_size"
  int packet_flits = 0;                    // largest packet on the wire
  std::string packet_what;                 // its keys, e.g. "ni.packet_size + ni.header_flits"
  bool whole_packet_admission = false;     // network admits a head only with room for the whole packet
  bool direct_network = false;             // routers with internal channels (torus, mesh, hypercube)
  bool multi_port_nodes = false;           // the node model can have several link pairs (NodeModel::multi_port)
  int nodes = 0;                           // the network's nodes, when known before it is built (0: not
                                           // known, e.g. a topology file: checked once built)
};

// One built node.
class NodeHardware {
 public:
  virtual ~NodeHardware() = default;
  virtual FlitOutPort& link_out() = 0;   // toward the network
  virtual FlitInPort& link_in() = 0;     // from the network
  virtual int receive_credits() const = 0;
  // Packet-level access (traffic sources, tests), if the node has it.
  virtual Endpoint* endpoint() { return nullptr; }
  // Software access, if the node runs programs.
  virtual HostProcessor* host() { return nullptr; }
  // The processor workloads give programs to (host(), or a node without an NI).
  virtual ProgramHost* software() { return host(); }
  // Nodes with several link pairs (all-port nodes of direct networks,
  // seed001 §1.4): pair 0 is link_out()/link_in().
  virtual int link_pairs() const { return 1; }
  virtual FlitOutPort& pair_out(int pair) { return pair == 0 ? link_out() : no_pair<FlitOutPort>(pair); }
  virtual FlitInPort& pair_in(int pair) { return pair == 0 ? link_in() : no_pair<FlitInPort>(pair); }
  // Multi-pair nodes: the network tells the node on which pair a packet to
  // `dest` (the first address of an IR worm) must be injected.
  virtual void set_pair_selector(std::function<int(NodeId dest)>) {}
  // Background traffic (Packet::background; the background workload): can
  // the node send and receive packets beside its own work, sharing its
  // channels but not its software or NI firmware, as another device at the
  // node would?
  virtual bool carries_background() const { return false; }
  // Queues unicast packet `p` (header and length set), created at cycle
  // `at`, on the channel a packet to its destination leaves by, before that
  // cycle's injection whatever order modules run in: `at` is later than
  // now, or now before the simulation starts. It is marked background and
  // registered with the run's ledger. Only where carries_background().
  virtual void inject_background(PacketPtr, Cycle /*at*/) {
    throw std::logic_error("node carries no background traffic");
  }
  // Who receives the background packets that arrive here (all of them).
  virtual void set_background_sink(std::function<void(const Packet&, Cycle)>) {
    throw std::logic_error("node carries no background traffic");
  }
  // VCD: trace what matches the glob; returns the number of modules traced
  // (with tf null, only counts them).
  virtual int trace(sc_core::sc_trace_file* tf, const std::string& filter) = 0;
  // A line for the deadlock report when the node holds work, else empty.
  virtual std::string describe_blocked(Cycle now) const = 0;

 private:
  template <class Port>
  Port& no_pair(int pair) {
    throw std::logic_error("node has one link pair, not pair " + std::to_string(pair));
  }
};

// What statistics probes read: the run's context and its final cycle.
struct StatsScope {
  Statistics& stats;
  const SimContext& ctx;
  const Cycle& now;    // cycles simulated (read when the run ends)
};

class NodeModel {
 public:
  virtual ~NodeModel() = default;
  virtual std::unique_ptr<NodeModel> clone() const = 0;
  // Declare the model's own sections (visited right after `node`).
  virtual void visit(ParamVisitor& v) = 0;
  virtual bool runs_software() const = 0;
  // Largest packet this model puts on the wire, given the workload's packets.
  virtual void packet_bound(ConfigFacts& f) const = 0;
  virtual void validate(const ConfigFacts& f) const = 0;
  virtual std::unique_ptr<NodeHardware> build(const std::string& name, NodeId id, int num_nodes, SimContext& ctx,
                                              bool whole_packet_admission) const = 0;
  // Can a node have several link pairs (router.ports: all_port)?
  virtual bool multi_port() const { return false; }
  // A node with `pairs` link pairs; only for multi_port() models.
  virtual std::unique_ptr<NodeHardware> build_ports(const std::string& name, NodeId id, int num_nodes, SimContext& ctx,
                                                    int pairs) const {
    if (pairs == 1) return build(name, id, num_nodes, ctx, false);
    throw std::logic_error(name + ": node model has one link pair");
  }
  virtual void register_statistics(StatsScope scope, const std::vector<NodeHardware*>& nodes) const = 0;
  // For a saturated run: the node resource that is (nearly) always busy, in
  // words ("host CPUs: busy 99.6% of the time at node 7"), or "" if none is.
  virtual std::string bottleneck(const std::vector<NodeHardware*>&, Cycle) const { return {}; }
};

using NodeModelRegistry = Registry<NodeModel>;
NodeModelRegistry& node_model_registry();

}  // namespace wormcast::rtl
