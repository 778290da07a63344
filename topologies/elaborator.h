// The elaborator: turns a switch-level Topology into SystemC hardware — one
// Switch per switch (with its up*/down* decoder), one Link per direction of
// every inter-switch link and node attachment, one Endpoint or ComputeNode
// (host + I/O bus + NI) per node — binds
// every port, and sets each link's initial credits to the receiving buffer's
// size. It also gathers whole-network views used by the invariant checks,
// the deadlock report and VCD tracing.
#pragma once

#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "rtl_models/compute_node.h"
#include "rtl_models/endpoint.h"
#include "rtl_models/link.h"
#include "rtl_models/rng.h"
#include "rtl_models/switch.h"
#include "rtl_models/updown_decoder.h"
#include "rtl_models/watchdog.h"
#include "topologies/topology.h"
#include "topologies/updown.h"

namespace wormcast::topo {

struct NetworkParams {
  rtl::SwitchParams sw;
  rtl::LinkParams link;
  std::string node_model = "endpoint";   // endpoint | host_ni
  rtl::EndpointParams endpoint;
  rtl::HostParams host;
  rtl::IoBusParams bus;
  rtl::NiParams ni;
  rtl::PortSelection selection = rtl::PortSelection::deterministic;
  Cycle watchdog = 20000;
};

rtl::PortSelection parse_selection(const std::string& s);

class Network : public sc_core::sc_module {
 public:
  Network(sc_core::sc_module_name name, const Topology& t, std::shared_ptr<const UpDownRouting> routing,
          const NetworkParams& p, rtl::SimContext& ctx, const Rng& rng);

  std::vector<std::unique_ptr<rtl::Switch>> switches;
  std::vector<std::unique_ptr<rtl::Endpoint>> endpoints;     // node_model endpoint
  std::vector<std::unique_ptr<rtl::ComputeNode>> nodes;      // node_model host_ni
  std::vector<std::unique_ptr<rtl::Link>> links;

  rtl::Watchdog& watchdog() { return *watchdog_; }
  // Flit copies inside the network (on links and in input buffers), counted
  // by inspecting every link and buffer.
  std::uint64_t flits_in_network() const;
  // Every non-empty buffer and busy endpoint, for deadlock reports.
  std::vector<std::string> describe_blocked(Cycle now) const;
  // Trace the per-port state of every switch/endpoint/NI whose hierarchical
  // name (net.sw3, net.node5, net.node5.ni) matches the glob `filter`
  // (fnmatch). Returns how many modules matched.
  int trace(sc_core::sc_trace_file* tf, const std::string& filter);

 private:
  rtl::SimContext& ctx_;
  std::unique_ptr<rtl::Watchdog> watchdog_;
};

}  // namespace wormcast::topo
