// A whole wormcast network inside a user's own SystemC model
// (docs/embedding.md). Built from an experiment file or from settings in
// C++, it is the same hardware `wormcast run` simulates (any network kind,
// any node model), without the run loop: the user's sc_main owns the
// kernel, starts and stops the simulation, and attaches its own modules to
// the nodes:
//   - node.model endpoint: endpoint(i) (inject packets, on_receive);
//   - node.model processor (direct networks) or host_ni: processor(i), a
//     program of HostApi calls (send, receive, compute, the NI's k-binomial
//     multicast), or a multicast scheme run by embed::DirectMulticast;
//   - node.model host_ni with NetworkOptions::user_hosts: no wormcast host;
//     the user's CPU binds to ni(i).host_port (TLM-2.0: descriptors,
//     status) and io_bus(i).to_memory binds to the user's memory.
// A deadlock (no flit moved for sim.watchdog cycles with packets
// outstanding) calls the handler given to on_deadlock() and leaves the
// user's simulation running; without a handler it stops the simulation, as
// `wormcast run` does.
#pragma once

#include <functional>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "rtl_models/core/sim_context.h"
#include "rtl_models/node/endpoint.h"
#include "rtl_models/node/host_processor.h"
#include "rtl_models/node/io_bus.h"
#include "rtl_models/node/network_interface.h"
#include "rtl_models/node/node_model.h"
#include "testbenches/app/experiment.h"
#include "topologies/networks/network_kind.h"

namespace wormcast::embed {

using tb::ExperimentConfig;

// The configuration an experiment file gives, with `settings` applied as
// `wormcast run --set` applies them ("router.vcs=4"). Throws
// tb::ConfigError naming the file, the key, the value and the reason.
ExperimentConfig config_from_file(const std::string& path, const std::vector<std::string>& settings = {});
// The defaults with `settings` applied ({"topology.kind=torus",
// "topology.dims=[4, 4]", "node.model=processor"}). Throws tb::ConfigError.
ExperimentConfig config_from_settings(const std::vector<std::string>& settings);

struct NetworkOptions {
  // node.model host_ni without wormcast's host processors: each node's NI
  // and I/O bus wait for the user's CPU and memory. SystemC refuses an
  // unbound socket, so every node's ni(i).host_port gets a CPU and every
  // io_bus(i).to_memory a memory before sc_start: the user's, or an idle
  // one (Network::idle_cpu, idle_memory).
  bool user_hosts = false;
};

class Network {
 public:
  // Builds cfg's network (its topology, routing, router or switch, link and
  // node sections, sim.watchdog; the traffic and run-control sections are
  // not used) as the SystemC module `name`: a child of the module being
  // constructed, if any. Call it during elaboration, before sc_start.
  // Throws tb::ConfigError (cfg names no network that can be built) or
  // topo::SetupError (its routing failed its check).
  // With options.user_hosts, std::invalid_argument unless node.model is host_ni.
  explicit Network(const ExperimentConfig& cfg, const std::string& name = "wormcast", const NetworkOptions& options = {});
  ~Network();
  Network(const Network&) = delete;
  Network& operator=(const Network&) = delete;

  int num_nodes() const { return net_->num_nodes(); }
  // The node's hardware; throws std::out_of_range naming the id.
  rtl::NodeHardware& node(int id);
  // The packet endpoint of node `id` (node.model endpoint); throws
  // std::invalid_argument naming the node model otherwise.
  rtl::Endpoint& endpoint(int id);
  // The processor of node `id` (node.model processor or host_ni): give it a
  // program with set_program() before sc_start. Throws std::invalid_argument
  // naming the node model otherwise.
  rtl::ProgramHost& processor(int id);
  // The NI and the I/O bus of node `id` (node.model host_ni); throws
  // std::invalid_argument naming the node model otherwise.
  rtl::NetworkInterface& ni(int id);
  rtl::IoBus& io_bus(int id);
  // With user_hosts, for a node the user's model leaves alone: a CPU that
  // never posts a descriptor bound to its NI, a memory that accepts every
  // DMA (and counts its bytes) bound to its I/O bus.
  void idle_cpu(int id);
  void idle_memory(int id);

  const ExperimentConfig& config() const { return cfg_; }
  topo::NetworkModel& model() { return *net_; }
  rtl::SimContext& context() { return *ctx_; }
  const rtl::Clock& clock() const { return ctx_->clock; }
  Cycle now() const { return ctx_->clock.now(); }

  // Called with the deadlock report instead of stopping the simulation.
  void on_deadlock(std::function<void(const std::string& report)> handler);
  bool deadlocked() const;
  std::string deadlock_report() const;

  // Packets and messages still on their way (given to the network, not
  // yet delivered to every destination).
  std::uint64_t packets_outstanding() const { return ctx_->ledger.outstanding(); }
  std::uint64_t messages_outstanding() const { return ctx_->messages.outstanding(); }
  // What the network and its nodes measured so far, as `wormcast run`'s
  // results name it ("link_utilization", "messages.latency_cycles", ...),
  // plus "packets" and "messages": created, delivered, outstanding.
  nlohmann::json statistics() const;
  // The network as the results file's "topology" object describes it.
  nlohmann::json describe() const { return net_->describe(); }
  // Trace the modules whose names match the glob into tf (VCD); returns
  // how many. Throws tb::ConfigError when the glob matches none.
  int trace(sc_core::sc_trace_file* tf, const std::string& filter = "*");

 private:
  ExperimentConfig cfg_;
  NetworkOptions options_;
  std::unique_ptr<rtl::SimContext> ctx_;
  std::unique_ptr<topo::NetworkModel> net_;
  std::vector<std::unique_ptr<sc_core::sc_module>> idle_;   // idle_cpu / idle_memory modules
};

}  // namespace wormcast::embed
