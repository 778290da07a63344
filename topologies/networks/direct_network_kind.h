// Direct networks as network kinds (seed001 §1, seed004 §3): `torus`, `mesh`
// and `hypercube`. Every node has its own VcRouter (rtl_models/direct/vc_router.h)
// wired to its neighbours, one rtl::VcLink per channel carrying the virtual
// channels that the routing function uses on it, and a node of the selected
// node model on the router's internal channel (an rtl::Link pair). The routing function (routing.function) is
// checked at set-up by the independent topo::check_direct_routing (shortest
// routes, existing VCs, acyclic channel dependencies). router.impl: reference
// builds rtl::ReferenceRouters instead of VcRouters (the plainly written
// oracle of the same router, identical results); both are held as
// rtl::DirectRouter (rtl_models/direct/direct_router.h).
//
//   topology: {kind: torus, dims: [8, 8], direction: bidirectional}
//   routing:  {function: btr}           # dor | ecube | utr | btr | utpr | dateline | west_first
//   router:   {vcs: 0, buffer: 2, route_delay: 1, crossbar_delay: 1}
//
// DirectNetwork is usable directly from tests and users' testbenches.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "rtl_models/core/cycle_scheduler.h"
#include "rtl_models/core/link.h"
#include "rtl_models/node/node_model.h"
#include "rtl_models/direct/direct_router.h"
#include "rtl_models/direct/shared_link.h"
#include "rtl_models/direct/vc_link.h"
#include "rtl_models/direct/router_policies.h"
#include "rtl_models/direct/vc_router.h"
#include "topologies/direct_routing.h"
#include "topologies/routing_function.h"
#include "topologies/networks/network_kind.h"

namespace wormcast::topo {

struct DirectNetworkParams {
  rtl::VcRouterParams router;
  // router.impl: fast (VcRouter) or reference (ReferenceRouter, the plainly
  // written oracle of the same microarchitecture; rtl_models/direct/reference_router.h).
  std::string router_impl = "fast";
  // routing.function when adaptive, and routing.selection (the reference
  // router's; the fast router refuses an adaptive function).
  rtl::RouterPolicies policies;
  rtl::LinkParams link;
  Cycle watchdog = 20000;
  std::shared_ptr<const rtl::NodeModel> node_model;   // null: endpoint with defaults
};

class DirectNetwork : public sc_core::sc_module, public NetworkModel {
 public:
  DirectNetwork(sc_core::sc_module_name name, std::shared_ptr<const DirectRouting> routing,
                const DirectNetworkParams& p, rtl::SimContext& ctx);
  ~DirectNetwork() override;

  std::vector<std::unique_ptr<rtl::DirectRouter>> routers;   // router.impl: VcRouter or ReferenceRouter
  std::vector<std::unique_ptr<rtl::NodeHardware>> nodes;
  // The physical links between routers, one per existing channel.
  std::vector<std::unique_ptr<rtl::VcLink>> vc_links;
  // The internal channels: node to router and back, per link pair.
  std::vector<std::unique_ptr<rtl::Link>> links;
  // router.link_sharing: bidirectional ("3-way"): one arbiter per router pair.
  std::vector<std::unique_ptr<rtl::SharedLink>> shared_links;

  const DirectTopology& topology() const { return routing_->topology(); }
  const DirectRouting& routing() const { return *routing_; }
  std::shared_ptr<const DirectRouting> routing_ptr() const { return routing_; }
  // routing.function when adaptive (its base() is routing()), else null.
  const RoutingFunction* adaptive_routing() const { return routing_function_.get(); }
  int vcs() const { return vcs_; }
  rtl::Endpoint& endpoint(int n);
  // The physical link of channel (x, d, dir) (VcLink::uses_vc: its VCs), or
  // null if the channel does not exist or the routing never uses it.
  rtl::VcLink* channel_link(NodeId x, int d, Direction dir) const;

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
  // router.link_hold: packet with an option that does not follow it: refused.
  static void check_link_hold(const DirectTopology& t, const DirectNetworkParams& p);
  std::unique_ptr<rtl::DirectRouter> make_router(NodeId x, int local_ports, const DirectNetworkParams& p);
  void build_shared_links(const DirectNetworkParams& p);
  void build_channels(const DirectNetworkParams& p);
  std::uint32_t used_vcs(NodeId x, const DirectChannel& ch) const;
  void build_nodes(const DirectNetworkParams& p);
  void bind_pair(const DirectNetworkParams& p, rtl::NodeHardware& node, NodeId x, int pair);

  std::shared_ptr<const DirectRouting> routing_;
  std::shared_ptr<const RoutingFunction> routing_function_;
  rtl::SimContext& ctx_;
  // The clock's activity list: routers and endpoints are evaluated by it
  // (SimContext::scheduler while the network exists).
  std::unique_ptr<rtl::CycleScheduler> scheduler_;
  int vcs_;
  std::vector<rtl::VcLink*> channel_links_;   // [channel_slot]
  int vc_lanes_ = 0;   // (channel, VC) pairs in use
  std::unique_ptr<rtl::Watchdog> watchdog_;
};

// All-port nodes: the internal channel (= node link pair) a packet from x to
// `dest` is injected on: the external port of its first hop times `stride`
// (0 for x itself). stride is the internal channels per external port: 1, or
// the VCs with router.ejection per_vc (the others of a port only eject).
std::function<int(NodeId)> injection_selector(std::shared_ptr<const DirectRouting> routing, NodeId x, int stride = 1);
// The error for router.ports: all_port with a node model of one link pair.
std::string all_port_refusal(const std::string& where);
// The error for an adaptive routing.function on the fast router.
std::string fast_router_refusal(const std::string& function);

struct DirectRoutingSection {
  std::string function = "default";
  std::string selection = "most_free_vcs";   // rtl::selections()
  std::string order = "descending";
  std::string check = "auto";   // auto | always | never
  // `auto` checks networks up to this many nodes: the check is O(N^2), about
  // 1 s of CPU (UTPR 2 s) for 4096 nodes, too much of a 2-s set-up budget.
  static constexpr int auto_check_nodes = 1024;
  void visit(ParamVisitor& v);
};

// Common part of the three kinds: sections, checks, build.
class DirectNetworkKind : public NetworkKind {
 public:
  std::vector<int> dims{8, 8};
  DirectRoutingSection routing;
  rtl::VcRouterParams router;
  std::string router_impl = "fast";   // router.impl (DirectNetworkParams::router_impl)
  rtl::LinkParams link;

  virtual DirectTopology topology() const = 0;
  // Throws std::invalid_argument naming the keys (topology.dims, routing.function, router.vcs).
  // routing.function on the network: DeterministicRouting or an adaptive
  // function; its base() is make_routing's routing (dor for west_first).
  std::shared_ptr<const RoutingFunction> make_routing_function(const std::string& where) const;
  std::shared_ptr<const DirectRouting> make_routing(const std::string& where) const;
  void visit_sections(ParamVisitor& v) override;
  void describe_facts(rtl::ConfigFacts& f) const override;
  void validate(const rtl::ConfigFacts& f) const override;
  std::unique_ptr<NetworkModel> build(const char* name, const BuildInputs& in) const override;
  // Specs: torus:6x6:uni, mesh:8x8, hypercube:6 (parse_direct_spec).
  algo::PlanNetwork plan_network(const std::string& spec) const override;
  void show(const std::string& spec, const SpecOptions& o, std::ostream& os) const override;
  std::vector<std::string> export_spec(const std::string& spec, const SpecOptions& o, std::ostream& os) const override;
  std::vector<std::pair<std::string, std::string>> topology_settings(const std::string& spec) const override;

 private:
  DirectTopology network_topology(const std::string& where) const;
  // router.vcs fits the routing's classes.
  void check_vcs(const DirectRouting& r) const;
};

class TorusKind : public DirectNetworkKind {
 public:
  std::string direction = "bidirectional";
  std::unique_ptr<NetworkKind> clone() const override { return std::make_unique<TorusKind>(*this); }
  std::string spec_prefix() const override { return "torus"; }
  std::string spec_example() const override { return "torus:6x6:uni"; }
  void visit_topology(ParamVisitor& v) override;
  DirectTopology topology() const override;
};

class MeshKind : public DirectNetworkKind {
 public:
  std::unique_ptr<NetworkKind> clone() const override { return std::make_unique<MeshKind>(*this); }
  std::string spec_prefix() const override { return "mesh"; }
  std::string spec_example() const override { return "mesh:8x8"; }
  void visit_topology(ParamVisitor& v) override;
  DirectTopology topology() const override;
};

class HypercubeKind : public DirectNetworkKind {
 public:
  HypercubeKind() { dims = {2, 2, 2, 2}; }
  std::unique_ptr<NetworkKind> clone() const override { return std::make_unique<HypercubeKind>(*this); }
  std::string spec_prefix() const override { return "hypercube"; }
  std::string spec_example() const override { return "hypercube:6"; }
  void visit_topology(ParamVisitor& v) override;
  DirectTopology topology() const override;
};

void register_direct_network_kinds(NetworkKindRegistry& r);

}  // namespace wormcast::topo
