// Helpers shared by the direct schemes' files (cube_scheme.cpp,
// utorus_scheme.cpp, mtorus_scheme.cpp, sci_scheme.cpp,
// separate_addressing.cpp): the plan contract's node names and paths, the
// networks they need, and unicast local rules as LocalSends.
#pragma once

#include <string>
#include <vector>

#include "algorithms/direct_scheme.h"

namespace wormcast::algo::detail {

inline std::vector<std::string> names(const PlanNetwork& net, const std::vector<topo::NodeId>& nodes) {
  std::vector<std::string> out;
  for (topo::NodeId n : nodes) out.push_back(net.node_text(n));
  return out;
}

// The nodes crossed, sender first, from a route's hops.
inline std::vector<std::string> path_names(const PlanNetwork& net, const std::vector<topo::RouteHop>& hops) {
  std::vector<std::string> out;
  if (hops.empty()) return out;
  out.push_back(net.node_text(hops.front().node));
  for (const topo::RouteHop& h : hops) out.push_back(net.node_text(h.next));
  return out;
}

// Links crossed by all messages (seed001 Fig. 6.8's total link visits).
inline int links_of(const std::vector<PlanMessage>& messages) {
  int links = 0;
  for (const PlanMessage& m : messages)
    if (!m.path.empty()) links += static_cast<int>(m.path.size()) - 1;
  return links;
}

// A contract plan's common part.
inline MulticastPlan plan_head(topo::NodeId source, const std::vector<topo::NodeId>& dests, int steps) {
  MulticastPlan p;
  p.source = source;
  p.destinations = dests;
  p.steps = steps;
  return p;
}

// A unicast rule's sends ({to, field} with field[0] == to) as LocalSends.
template <class Send>
std::vector<LocalSend> as_local_sends(std::vector<Send> sends) {
  std::vector<LocalSend> out;
  out.reserve(sends.size());
  for (Send& s : sends) {
    CompoundBlock b{s.to, {}};
    if (!s.field.empty()) b.later.assign(s.field.begin() + 1, s.field.end());
    out.push_back(LocalSend{{std::move(b)}});
  }
  return out;
}

// The routes of a plan's unicasts ({sender, receiver}).
template <class Unicast>
std::vector<std::vector<topo::RouteHop>> unicast_routes(const topo::DirectRouting& r, const std::vector<Unicast>& u) {
  std::vector<std::vector<topo::RouteHop>> out;
  out.reserve(u.size());
  for (const Unicast& x : u) out.push_back(r.route(x.sender, x.receiver));
  return out;
}

// ---- the networks of seed001 and seed004 -------------------------------------

inline bool descending(const topo::DirectRouting& r) { return r.order() == topo::DimOrder::descending; }
inline bool utr_or_btr(const topo::DirectRouting& r) {
  return r.algorithm() == topo::RoutingAlgorithm::utr || r.algorithm() == topo::RoutingAlgorithm::btr;
}
inline bool any_torus(const topo::DirectTopology& t) { return t.is_torus(); }

// seed001 Ch. 4 (U-torus) and its separate-addressing baseline: UTR or BTR
// in the network's own dimension order.
inline NetworkNeed torus_utr_btr() {
  return {any_torus, "a torus", "--topology torus:KxK:uni or torus:KxK:bi",
          [](const topo::DirectRouting& r) { return utr_or_btr(r) && descending(r); },
          "routing.function utr or btr (descending)"};
}

// The testbench experiment of seed001 Ch. 4 (U-torus and its
// separate-addressing baseline): a one-port 8x8 torus with UTR (BTR when
// bidirectional), 4-flit buffers, t_s = 20, t_r = 16, 64-byte messages.
inline DirectTbDefaults chapter4_torus_defaults(const char* about) {
  return {about,
          "torus:8x8:uni",
          "utr",
          "btr",
          {{"router.ports", "one_port"},
           {"router.buffer", "4flits"},
           {"processor.t_s", "20"},
           {"processor.t_r", "16"},
           {"message.size", "64"}},
          {}};
}

// seed004: the SCI testbed routes X then Y (§6).
inline NetworkNeed sci_torus(bool regular) {
  auto xy = [](const topo::DirectRouting& r) { return utr_or_btr(r) && !descending(r); };
  const char* routing = "routing.function utr or btr and routing.order ascending (the SCI testbed's X-then-Y "
                        "dimension order, seed004 §6)";
  if (!regular) return {any_torus, "a torus", "--topology torus:KxK:uni or torus:KxK:bi", xy, routing};
  return {[](const topo::DirectTopology& t) { return t.is_torus() && t.regular(); },
          "a regular k-ary torus (the group is ordered on seed004's Eq. 2 cycle)",
          "--topology torus:KxK:uni or torus:KxK:bi", xy, routing};
}

}  // namespace wormcast::algo::detail
