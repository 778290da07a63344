// Routing as "candidates, then selection": a RoutingFunction lists the hops a
// header may take at a node, best first, and the router's selection
// (rtl_models/direct/router_policies.h) picks one of them. The deterministic
// functions of direct_routing.h are the one-candidate case
// (DeterministicRouting); an adaptive function offers several and is a
// class plus one registration in adaptive_routings():
//
//   west_first  the turn model's west-first routing on 2-D meshes (Glass and
//               Ni): a header whose destination lies west (lower σ_0) goes
//               west first, deterministically; otherwise it may take any
//               minimal hop east, north or south. The two turns into west
//               are forbidden, which breaks every cycle of channel
//               dependencies with one VC class (check_routing_function
//               verifies it on the network at set-up).
//
// An adaptive function runs on the VC classes of a deterministic base
// routing of the same network that it makes itself (for west_first: dor's
// one class), which keeps the links, the VC numbering and the tables of the
// rest of the tool.
// Only the reference router (router.impl: reference) evaluates an adaptive
// function; the fast router implements the deterministic ones.
// Plain C++, no SystemC.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "rtl_models/core/registry.h"
#include "topologies/direct_routing.h"

namespace wormcast::topo {

// What routing is asked for one header: the node, the destination the header
// is routed on, the class of the VC it arrived on (local when injected) and
// the input port it came through (-1: injected, or a fresh decision at an
// intermediate destination of an IR worm).
struct RouteQuery {
  NodeId at = -1;
  NodeId dst = -1;
  VcClass in_class = VcClass::local;
  int in_port = -1;
};

class RoutingFunction {
 public:
  virtual ~RoutingFunction() = default;
  // The legal next hops, best first; exactly {arrived} at the destination.
  virtual std::vector<DirectHop> candidates(const RouteQuery& q) const = 0;
  // One candidate everywhere: the fast router can run it.
  virtual bool deterministic() const = 0;
  // routing.function's value, for results and messages.
  virtual std::string name() const = 0;
  // The deterministic routing whose VC classes (and links) it uses.
  virtual std::shared_ptr<const DirectRouting> base() const = 0;
};

// DirectRouting::next_hop: exactly one candidate.
class DeterministicRouting final : public RoutingFunction {
 public:
  explicit DeterministicRouting(std::shared_ptr<const DirectRouting> routing) : routing_(std::move(routing)) {}
  std::vector<DirectHop> candidates(const RouteQuery& q) const override {
    return {routing_->next_hop(q.at, q.dst, q.in_class, q.in_port)};
  }
  bool deterministic() const override { return true; }
  std::string name() const override { return to_string(routing_->algorithm()); }
  std::shared_ptr<const DirectRouting> base() const override { return routing_; }

 private:
  std::shared_ptr<const DirectRouting> routing_;
};

// West-first on a 2-D mesh (dimension 0 is east-west: σ_0 grows eastwards).
// Candidates east, north, south come in the base routing's dimension order
// (dor's descending order: north/south before east).
class WestFirstRouting final : public RoutingFunction {
 public:
  // Throws TopologyError unless t is a 2-D mesh; the base is dor in `order`.
  WestFirstRouting(const DirectTopology& t, DimOrder order);
  std::vector<DirectHop> candidates(const RouteQuery& q) const override;
  bool deterministic() const override { return false; }
  std::string name() const override { return "west_first"; }
  std::shared_ptr<const DirectRouting> base() const override { return base_; }

 private:
  std::shared_ptr<const DirectRouting> base_;
};

// The adaptive functions by routing.function name, each made for a network
// and routing.order (throwing TopologyError, saying why, on a network it
// does not fit).
using AdaptiveRoutingRegistry = Registry<RoutingFunction, const DirectTopology&, DimOrder>;
const AdaptiveRoutingRegistry& adaptive_routings();

// Independent check of any routing function on its network (its own BFS
// distances and channel graph; nothing of the function's code): from every
// source towards every destination, every state a header can reach has at
// least one candidate; every candidate is an existing channel one hop closer
// to the destination (minimal, so no livelock) on a VC class the base lists
// there, or `arrived` exactly at the destination; and the channel
// dependency graph over (channel, class) pairs, holding an edge for every
// (arriving pair, candidate) of every reachable state, is acyclic (with
// every candidate legal at every state, an acyclic graph is Dally and
// Seitz's condition for deadlock freedom; several VCs per class lift it as
// check_direct_routing explains). A cycle is reported with its channels.
// Returns problems (empty: all good), at most a few.
std::vector<std::string> check_routing_function(const RoutingFunction& f);

}  // namespace wormcast::topo
