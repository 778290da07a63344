// The elaborator of switch networks: turns a switch-level Topology into
// SystemC hardware — one Switch per switch (with the decoder named by
// `decoder`, up*/down* by default), one Link per direction of every
// inter-switch link and node attachment, and at every node the hardware of
// the node model (an Endpoint, or host + I/O bus + NI) — binds every port, and
// sets each link's initial credits to the receiving buffer's size. As a
// NetworkModel it gives the run loop, invariants, deadlock report and VCD
// tracing their whole-network views. Usable directly (tests, users' own
// testbenches) or through the `irregular` / `file` network kinds.
#pragma once

#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "rtl_models/core/cycle_scheduler.h"
#include "rtl_models/switch/decoder_registry.h"
#include "rtl_models/core/link.h"
#include "rtl_models/node/node_model.h"
#include "rtl_models/core/rng.h"
#include "rtl_models/switch/switch.h"
#include "rtl_models/core/watchdog.h"
#include "topologies/networks/network_kind.h"
#include "topologies/topology.h"
#include "topologies/updown.h"

namespace wormcast::topo {

struct NetworkParams {
  rtl::SwitchParams sw;
  rtl::LinkParams link;
  std::string decoder = "updown";   // rtl::decoder_registry()
  std::string drop_id = "switch_id";   // ID field of SSR / multi-drop headers (switch.drop_id)
  rtl::PortSelection selection = rtl::PortSelection::deterministic;
  Cycle watchdog = 20000;
  std::shared_ptr<const rtl::NodeModel> node_model;   // null: endpoint with defaults
};

class Network : public sc_core::sc_module, public NetworkModel {
 public:
  Network(sc_core::sc_module_name name, const Topology& t, std::shared_ptr<const UpDownRouting> routing,
          const NetworkParams& p, rtl::SimContext& ctx, const Rng& rng);
  ~Network() override;

  std::vector<std::unique_ptr<rtl::Switch>> switches;
  std::vector<std::unique_ptr<rtl::NodeHardware>> nodes;
  std::vector<std::unique_ptr<rtl::Link>> links;

  const Topology& topology() const { return topology_; }
  const UpDownRouting& routing() const { return *routing_; }
  std::shared_ptr<const UpDownRouting> routing_ptr() const { return routing_; }
  // What it was built with (decoder name, switch buffer, ...).
  const NetworkParams& params() const { return params_; }
  // The tables the decoders share (decoder_registry.h); a workload acting as
  // subnet manager programs the IB multicast tables through it.
  const std::shared_ptr<rtl::DecoderShared>& decoder_shared() const { return decoder_shared_; }
  // The Endpoint / host-NI node at node n (throws std::logic_error when the
  // node model is a different one).
  rtl::Endpoint& endpoint(int n);
  rtl::HostProcessor& host(int n);

  // NetworkModel
  int num_nodes() const override { return static_cast<int>(nodes.size()); }
  rtl::NodeHardware& node(int id) override { return *nodes.at(static_cast<std::size_t>(id)); }
  rtl::Watchdog& watchdog() override { return *watchdog_; }
  std::uint64_t flits_in_network() const override;
  std::vector<std::string> describe_blocked(Cycle now) const override;
  int trace(sc_core::sc_trace_file* tf, const std::string& filter) override;
  nlohmann::json describe() const override;
  void register_statistics(rtl::StatsScope scope) const override;
  std::vector<std::uint64_t> flits_sent_per_link() const override;

 private:
  void build_switches(const NetworkParams& p, const Rng& rng);
  void build_links(const NetworkParams& p);
  rtl::Link& make_link(const std::string& name, const NetworkParams& p, int credits);

  Topology topology_;
  std::shared_ptr<const UpDownRouting> routing_;
  NetworkParams params_;
  rtl::SimContext& ctx_;
  // The clock's activity list the switches run from (made before them).
  std::unique_ptr<rtl::CycleScheduler> scheduler_;
  std::unique_ptr<rtl::Watchdog> watchdog_;
  std::shared_ptr<rtl::DecoderShared> decoder_shared_;
};

}  // namespace wormcast::topo
