#include "algorithms/utorus_link_sharing.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_map>

namespace wormcast::algo {

namespace {

using topo::NodeId;
using Wire = std::tuple<int, NodeId, NodeId, int>;   // step, from, to (ordered for three_way), dimension

// The physical wires of unicast u's route, as shared under `mode`.
std::vector<Wire> wires_of(const topo::DirectRouting& r, const TorusUnicast& u, LinkSharing mode) {
  const topo::DirectTopology& t = r.topology();
  if (!t.valid_node(u.sender) || !t.valid_node(u.receiver) || u.sender == u.receiver)
    throw std::invalid_argument("U-torus link sharing: unicast " + std::to_string(u.sender) + " -> " +
                                std::to_string(u.receiver) + " cannot be routed on " + t.spec());
  std::vector<Wire> out;
  for (const topo::RouteHop& h : r.route(u.sender, u.receiver)) {
    NodeId a = h.node, b = h.next;
    if (mode == LinkSharing::three_way && b < a) std::swap(a, b);
    out.emplace_back(u.step, a, b, h.dim);
  }
  return out;
}

}  // namespace

SharedSteps utorus_shared_steps(const topo::DirectRouting& r, const UTorusPlan& plan, LinkSharing mode) {
  const std::size_t n = plan.unicasts.size();
  std::vector<std::vector<Wire>> wires(n);
  std::map<Wire, int> users;   // unicasts of a step per wire
  for (std::size_t i = 0; i < n; ++i) {
    wires[i] = wires_of(r, plan.unicasts[i], mode);
    for (const Wire& w : wires[i]) ++users[w];
  }
  SharedSteps s;
  s.received.assign(n, 0);
  std::unordered_map<NodeId, int> free_at;   // when a node can start its next send
  if (!plan.chain.empty()) free_at[plan.chain.front()] = 0;
  // plan.unicasts is sorted by step: a sender's reception comes before its sends.
  double sum = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const TorusUnicast& u = plan.unicasts[i];
    int k = 1;
    if (mode != LinkSharing::none)
      for (const Wire& w : wires[i]) k = std::max(k, users.at(w));
    s.shared_unicasts += k > 1;
    s.triple_unicasts += k > 2;
    const auto it = free_at.find(u.sender);
    if (it == free_at.end())
      throw std::invalid_argument("U-torus link sharing: node " + std::to_string(u.sender) + " sends in step " +
                                  std::to_string(u.step) + " before it has received");
    const int done = it->second += k;   // (it is not used after the insert below)
    s.received[i] = done;
    free_at[u.receiver] = done;
    s.max = std::max(s.max, done);
    sum += done;
  }
  s.mean = n ? sum / static_cast<double>(n) : 0.0;
  return s;
}

}  // namespace wormcast::algo
