#include "embed/network.h"

#include <stdexcept>
#include <tlm_utils/simple_initiator_socket.h>
#include <tlm_utils/simple_target_socket.h>

#include "rtl_models/core/cycle_scheduler.h"
#include "rtl_models/core/statistics.h"
#include "rtl_models/node/host_ni_node.h"
#include "testbenches/app/config.h"
#include "testbenches/app/runner.h"

namespace wormcast::embed {

namespace {

std::vector<tb::Override> overrides_of(const std::vector<std::string>& settings) {
  std::vector<tb::Override> o;
  for (const std::string& s : settings) o.push_back(tb::parse_override(s));
  return o;
}

}  // namespace

ExperimentConfig config_from_file(const std::string& path, const std::vector<std::string>& settings) {
  if (path.empty()) throw tb::ConfigError("embed::config_from_file: no file named (config_from_settings takes settings alone)");
  return tb::load_experiment(path, overrides_of(settings));
}

ExperimentConfig config_from_settings(const std::vector<std::string>& settings) {
  return tb::load_experiment("", overrides_of(settings));
}

Network::Network(const ExperimentConfig& cfg, const std::string& name, const NetworkOptions& options)
    : cfg_(cfg), options_(options), ctx_(std::make_unique<rtl::SimContext>(cfg.period_ps)) {
  if (options.user_hosts) {
    auto* m = dynamic_cast<rtl::HostNiModel*>(cfg_.node.plugin.get());
    if (!m)
      throw std::invalid_argument("embed::Network: user_hosts drives each node's NI from the user's CPU: it needs "
                                  "node.model host_ni, not " + cfg_.node.name);
    m->external_hosts = true;
  }
  // Every packet measured (the user decides what a window is), and no
  // streams or run-ahead: they need the run loop's stopping points
  // (SimContext::stream_horizon), and results are the same without them.
  ctx_->window = rtl::MeasureWindow{0, UINT64_MAX};
  ctx_->streams = false;
  try {
    net_ = cfg_.network->build(name.c_str(), topo::BuildInputs{*ctx_, cfg_.node.plugin->clone(), Rng(cfg_.seed),
                                                                cfg_.sim.watchdog});
  } catch (const topo::TopologyError& e) {
    throw tb::ConfigError(cfg_.where() + ": topology: " + e.what());
  }
}

Network::~Network() = default;

rtl::NodeHardware& Network::node(int id) {
  if (id < 0 || id >= num_nodes())
    throw std::out_of_range("embed::Network: node " + std::to_string(id) + " does not exist (the network has nodes 0.." +
                            std::to_string(num_nodes() - 1) + ")");
  return net_->node(id);
}

rtl::Endpoint& Network::endpoint(int id) {
  rtl::Endpoint* e = node(id).endpoint();
  if (!e)
    throw std::invalid_argument("embed::Network: node " + std::to_string(id) + " has no packet endpoint: node.model is " +
                                cfg_.node.name + " (endpoints: node.model endpoint)");
  return *e;
}

rtl::ProgramHost& Network::processor(int id) {
  rtl::ProgramHost* p = node(id).software();
  if (!p)
    throw std::invalid_argument("embed::Network: node " + std::to_string(id) + " runs no software: " +
                                (options_.user_hosts ? std::string("its host is the user's (NetworkOptions::user_hosts)")
                                                     : "node.model is " + cfg_.node.name +
                                                           " (processors: node.model processor or host_ni)"));
  return *p;
}

namespace {

template <class Part>
Part* ni_part(rtl::NodeHardware& h, Part rtl::NiNode::*in_ni_node, Part rtl::ComputeNode::*in_compute_node) {
  if (auto* n = dynamic_cast<rtl::NiOnlyNode*>(&h)) return &(n->node().*in_ni_node);
  if (auto* n = dynamic_cast<rtl::HostNiNode*>(&h)) return &(n->node().*in_compute_node);
  return nullptr;
}

}  // namespace

rtl::NetworkInterface& Network::ni(int id) {
  if (auto* p = ni_part(node(id), &rtl::NiNode::ni, &rtl::ComputeNode::ni)) return *p;
  throw std::invalid_argument("embed::Network: node " + std::to_string(id) + " has no NI: node.model is " +
                              cfg_.node.name + " (NIs: node.model host_ni)");
}

namespace {

struct IdleCpu : sc_core::sc_module {
  tlm_utils::simple_initiator_socket<IdleCpu> socket;
  explicit IdleCpu(sc_core::sc_module_name n) : sc_core::sc_module(n), socket("socket") {}
};

struct IdleMemory : sc_core::sc_module {
  tlm_utils::simple_target_socket<IdleMemory> socket;
  std::uint64_t bytes = 0;
  explicit IdleMemory(sc_core::sc_module_name n) : sc_core::sc_module(n), socket("socket") {
    socket.register_b_transport(this, &IdleMemory::b_transport);
  }
  void b_transport(::tlm::tlm_generic_payload& t, sc_core::sc_time&) {
    bytes += t.get_data_length();
    t.set_response_status(::tlm::TLM_OK_RESPONSE);
  }
};

}  // namespace

void Network::idle_cpu(int id) {
  rtl::NetworkInterface& n = ni(id);
  auto cpu = std::make_unique<IdleCpu>(("idle_cpu" + std::to_string(id)).c_str());
  cpu->socket.bind(n.host_port);
  idle_.push_back(std::move(cpu));
}

void Network::idle_memory(int id) {
  rtl::IoBus& bus = io_bus(id);
  auto mem = std::make_unique<IdleMemory>(("idle_memory" + std::to_string(id)).c_str());
  bus.to_memory.bind(mem->socket);
  idle_.push_back(std::move(mem));
}

rtl::IoBus& Network::io_bus(int id) {
  if (auto* p = ni_part(node(id), &rtl::NiNode::bus, &rtl::ComputeNode::bus)) return *p;
  throw std::invalid_argument("embed::Network: node " + std::to_string(id) + " has no I/O bus: node.model is " +
                              cfg_.node.name + " (node.model host_ni)");
}

void Network::on_deadlock(std::function<void(const std::string&)> handler) {
  net_->watchdog().set_on_trip(std::move(handler));
}

bool Network::deadlocked() const { return net_->watchdog().tripped(); }

std::string Network::deadlock_report() const { return net_->watchdog().report(); }

nlohmann::json Network::statistics() const {
  Statistics stats;
  const Cycle now = ctx_->clock.now();
  const rtl::StatsScope scope{stats, *ctx_, now};
  const double us = ctx_->clock.cycles_to_us(1.0);
  const rtl::SimContext& ctx = *ctx_;
  stats.add("latency_cycles", "cycles", "packet latency: creation to tail delivered",
            [&ctx, us] { return summarize_cycles(ctx.stats.latency, us); });
  stats.add("network_latency_cycles", "cycles", "packet latency: head injected to tail delivered",
            [&ctx, us] { return summarize_cycles(ctx.stats.network_latency, us); });
  net_->register_statistics(scope);
  std::vector<rtl::NodeHardware*> nodes;
  for (int i = 0; i < net_->num_nodes(); ++i) nodes.push_back(&net_->node(i));
  cfg_.node->register_statistics(scope, nodes);
  nlohmann::json j = stats.collect();
  j["cycles"] = now;
  j["packets"] = {{"created", ctx.ledger.created()},
                  {"delivered", ctx.ledger.completed()},
                  {"outstanding", ctx.ledger.outstanding()}};
  j["messages"]["outstanding"] = ctx.messages.outstanding();
  return j;
}

int Network::trace(sc_core::sc_trace_file* tf, const std::string& filter) {
  tb::require_vcd_matches(*net_, filter);
  return net_->trace(tf, filter);
}

}  // namespace wormcast::embed
