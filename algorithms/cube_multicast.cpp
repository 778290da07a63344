// Hypercube multicast planners of seed001 Chapter 3; see cube_multicast.h.
#include "algorithms/cube_multicast.h"

#include <algorithm>
#include <array>
#include <cstddef>
#include <deque>
#include <iterator>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <tuple>
#include <unordered_set>
#include <utility>
#include <vector>

namespace wormcast::algo {

using topo::NodeId;

namespace {

constexpr int kMaxDimensions = 30;  // 2^30 nodes keep every address and count inside an int

void check_dimensions(int n, const char* who) {
  if (n < 1 || n > kMaxDimensions)
    throw std::invalid_argument(std::string(who) + ": hypercube dimension n = " + std::to_string(n) +
                                " is outside 1.." + std::to_string(kMaxDimensions));
}

void check_node(NodeId v, int n, const char* who, const char* role) {
  if (v < 0 || v >= (NodeId{1} << n))
    throw std::invalid_argument(std::string(who) + ": " + role + " node " + std::to_string(v) + " is outside 0.." +
                                std::to_string((NodeId{1} << n) - 1) + " of the " + std::to_string(n) + "-cube");
}

// Nodes as the thesis writes them: n bits, σ_{n-1} first ("0111").
std::string bits(NodeId v, int n) {
  std::string s;
  for (int i = n - 1; i >= 0; --i) s += ((v >> i) & 1) ? '1' : '0';
  return s;
}

int bit(NodeId v, int i) { return (v >> i) & 1; }

// CubeCenter (§4.1): [first, last] is cube-ordered inside an S-cube of
// dimension n_s, so the members sharing d_first's bit n_s-1 come first and
// the first one that differs starts the other half. Bits are read on the
// relative address (§7.4); comparing with d_first's own bit rather than
// with 0 is what keeps this right after swaps and for any source.
// The segment is partitioned on that bit, so a binary search is exact even
// after earlier swaps, as the thesis' complexity argument assumes.
std::size_t cube_center(const std::vector<NodeId>& d, std::size_t first, std::size_t last, int n_s, NodeId source) {
  const int b = n_s - 1;
  const int own = bit(d[first] ^ source, b);
  const auto it = std::partition_point(d.begin() + static_cast<std::ptrdiff_t>(first),
                                       d.begin() + static_cast<std::ptrdiff_t>(last) + 1,
                                       [&](NodeId x) { return bit(x ^ source, b) == own; });
  return static_cast<std::size_t>(it - d.begin());  // last + 1 when the other half is empty
}

// Fig. 3.8 verbatim, with positions as indices into d. The swap runs after
// both recursive calls (bottom-up), so `center` was computed on a segment
// the recursion has only permuted within its two halves.
void weighted_sort_rec(std::vector<NodeId>& d, std::size_t first, std::size_t last, int n_s, NodeId source) {
  if (last < first || last - first < 2 || n_s < 1) return;
  const std::size_t center = cube_center(d, first, last, n_s, source);
  weighted_sort_rec(d, first, center - 1, n_s - 1, source);
  if (center <= last) weighted_sort_rec(d, center, last, n_s - 1, source);
  // The (first != 0) guard keeps the source's own S-cube in front (Theorem
  // 3.5(3)); a strictly less populated first half moves behind the other.
  if (first != 0 && center <= last && (center - first) < (last - center + 1))
    std::rotate(d.begin() + static_cast<std::ptrdiff_t>(first), d.begin() + static_cast<std::ptrdiff_t>(center),
                d.begin() + static_cast<std::ptrdiff_t>(last) + 1);
}

// The directed channels (from-node, dimension) of the E-cube path u -> v.
std::vector<std::pair<NodeId, int>> ecube_arcs(NodeId u, NodeId v) {
  std::vector<std::pair<NodeId, int>> arcs;
  NodeId at = u;
  while (at != v) {
    const int d = cube_delta(at, v);
    arcs.emplace_back(at, d);
    at ^= NodeId{1} << d;
  }
  return arcs;
}

void check_plan_nodes(const CubePlan& plan, int n, const char* who) {
  check_dimensions(n, who);
  for (const CubeUnicast& u : plan.unicasts) {
    check_node(u.sender, n, who, "sender");
    check_node(u.receiver, n, who, "receiver");
    if (u.sender == u.receiver)
      throw std::invalid_argument(std::string(who) + ": a unicast from node " + bits(u.sender, n) + " to itself");
  }
}

std::string unicast_text(const CubeUnicast& u, int n) {
  return bits(u.sender, n) + "->" + bits(u.receiver, n) + " (step " + std::to_string(u.step) + ")";
}

}  // namespace

const char* to_string(CubeVariant v) {
  switch (v) {
    case CubeVariant::ucube: return "ucube";
    case CubeVariant::maxport: return "maxport";
    case CubeVariant::combine: return "combine";
    case CubeVariant::wsort: return "wsort";
  }
  return "?";
}

int cube_delta(NodeId u, NodeId v) {
  if (u < 0 || v < 0)
    throw std::invalid_argument("cube_delta: negative node address " + std::to_string(u < 0 ? u : v));
  if (u == v) throw std::invalid_argument("cube_delta: δ(u, v) is undefined for u = v = " + std::to_string(u));
  int d = 0;
  for (NodeId x = u ^ v; x > 1; x >>= 1) ++d;
  return d;
}

std::vector<NodeId> cube_ecube_path(int n, NodeId u, NodeId v) {
  check_dimensions(n, "cube_ecube_path");
  check_node(u, n, "cube_ecube_path", "start");
  check_node(v, n, "cube_ecube_path", "end");
  std::vector<NodeId> path{u};
  for (const auto& arc : ecube_arcs(u, v)) path.push_back(arc.first ^ (NodeId{1} << arc.second));
  return path;
}

bool is_cube_ordered(const std::vector<NodeId>& chain, int n) {
  check_dimensions(n, "is_cube_ordered");
  for (NodeId d : chain)
    if (d < 0 || d >= (NodeId{1} << n)) return false;
  // The S-cubes of dimension n_s are the classes of d >> n_s; a class that
  // reappears after another one has started is split.
  for (int n_s = 0; n_s < n; ++n_s) {
    std::unordered_set<NodeId> closed;
    for (std::size_t i = 0; i < chain.size(); ++i) {
      const NodeId cls = chain[i] >> n_s;
      if (i > 0) {
        const NodeId prev = chain[i - 1] >> n_s;
        if (prev == cls) continue;
        closed.insert(prev);
      }
      if (closed.count(cls)) return false;
    }
  }
  return true;
}

void weighted_sort(std::vector<NodeId>& chain, int n) {
  check_dimensions(n, "weighted_sort");
  if (chain.empty()) throw std::invalid_argument("weighted_sort: empty chain (it must start with the source)");
  std::set<NodeId> seen;
  for (NodeId d : chain) {
    check_node(d, n, "weighted_sort", "chain");
    if (!seen.insert(d).second)
      throw std::invalid_argument("weighted_sort: node " + std::to_string(d) + " appears twice in the chain");
  }
  if (!is_cube_ordered(chain, n))
    throw std::invalid_argument("weighted_sort: the chain starting at node " + std::to_string(chain.front()) +
                                " is not cube-ordered (Definition 3.5)");
  weighted_sort_rec(chain, 0, chain.size() - 1, n, chain.front());
}

std::vector<NodeId> cube_chain(int n, NodeId source, const std::vector<NodeId>& dests, CubeVariant v) {
  check_dimensions(n, "cube_chain");
  check_node(source, n, "cube_chain", "source");
  if (dests.empty()) throw std::invalid_argument("cube_chain: no destinations for source " + std::to_string(source));
  std::set<NodeId> seen;
  for (NodeId d : dests) {
    check_node(d, n, "cube_chain", "destination");
    if (d == source)
      throw std::invalid_argument("cube_chain: destination node " + std::to_string(d) + " is the source");
    if (!seen.insert(d).second)
      throw std::invalid_argument("cube_chain: destination node " + std::to_string(d) + " is listed twice");
  }
  // The d0-relative dimension-ordered chain: high-to-low E-cube makes
  // dimension order the usual numeric order of the relative addresses.
  std::vector<NodeId> chain{source};
  chain.insert(chain.end(), dests.begin(), dests.end());
  std::sort(chain.begin() + 1, chain.end(), [source](NodeId a, NodeId b) { return (a ^ source) < (b ^ source); });
  if (v == CubeVariant::wsort) weighted_sort_rec(chain, 0, chain.size() - 1, n, source);
  return chain;
}

std::vector<CubeSend> cube_local_sends(const std::vector<NodeId>& field, CubeVariant v) {
  if (field.empty()) throw std::invalid_argument("cube_local_sends: empty address field (it must start with the node)");
  for (NodeId d : field)
    if (d < 0) throw std::invalid_argument("cube_local_sends: negative address " + std::to_string(d) + " in the field");
  const NodeId self = field.front();
  std::vector<CubeSend> sends;
  std::size_t right = field.size() - 1;
  // Fig. 3.5's repeat-until, entered only while a destination is left (a
  // leaf's field is just itself and δ(d_left, d_left) is undefined).
  while (right > 0) {
    const int k = cube_delta(self, field[right]);  // step 1
    std::size_t highdim = 1;                        // step 2: leftmost with δ = k
    while (cube_delta(self, field[highdim]) != k) ++highdim;
    const std::size_t center = (right + 1) / 2;     // step 3: left + ⌈(right - left)/2⌉, left = 0
    std::size_t next = center;                      // step 4a
    if (v == CubeVariant::maxport || v == CubeVariant::wsort) next = highdim;  // 4b
    if (v == CubeVariant::combine) next = std::max(highdim, center);          // 4c
    CubeSend s;
    s.to = field[next];
    s.dimension = cube_delta(self, s.to);
    s.field.assign(field.begin() + static_cast<std::ptrdiff_t>(next),
                   field.begin() + static_cast<std::ptrdiff_t>(right) + 1);  // step 5
    sends.push_back(std::move(s));                                            // step 6
    right = next - 1;                                                         // step 7
  }
  return sends;
}

std::vector<int> cube_send_steps(const std::vector<CubeSend>& sends, int receive_step, CubePorts ports,
                                 CubeSteps model) {
  if (receive_step < 0)
    throw std::invalid_argument("cube_send_steps: negative receive step " + std::to_string(receive_step));
  std::vector<int> steps;
  std::array<int, 32> queued{};  // model A: sends already queued per channel
  std::array<bool, 32> used{};   // model B: channels taken in the current step
  int current = receive_step + 1;
  for (std::size_t i = 0; i < sends.size(); ++i) {
    const int d = sends[i].dimension;
    if (d < 0 || d >= 32)
      throw std::invalid_argument("cube_send_steps: send to node " + std::to_string(sends[i].to) +
                                  " has no valid dimension (" + std::to_string(d) + ")");
    if (ports == CubePorts::one_port) {
      steps.push_back(receive_step + 1 + static_cast<int>(i));
    } else if (model == CubeSteps::per_channel_queue) {
      steps.push_back(receive_step + 1 + queued[static_cast<std::size_t>(d)]++);
    } else {
      if (used[static_cast<std::size_t>(d)]) {
        ++current;
        used.fill(false);
      }
      used[static_cast<std::size_t>(d)] = true;
      steps.push_back(current);
    }
  }
  return steps;
}

CubePlan plan_cube_multicast(int n, NodeId source, const std::vector<NodeId>& dests, CubeVariant v, CubePorts ports,
                             CubeSteps model) {
  CubePlan plan;
  plan.chain = cube_chain(n, source, dests, v);
  // Unroll the tree breadth-first: each member runs Algorithm 1 on exactly
  // the field it was sent, as the simulated hosts do.
  struct Holder {
    NodeId node;
    int step;
    std::vector<NodeId> field;
  };
  std::deque<Holder> pending{{source, 0, plan.chain}};
  while (!pending.empty()) {
    Holder h = std::move(pending.front());
    pending.pop_front();
    std::vector<CubeSend> sends = cube_local_sends(h.field, v);
    const std::vector<int> steps = cube_send_steps(sends, h.step, ports, model);
    for (std::size_t i = 0; i < sends.size(); ++i) {
      plan.unicasts.push_back(
          {h.node, sends[i].to, steps[i], sends[i].dimension, sends[i].field, static_cast<int>(i) + 1});
      plan.steps = std::max(plan.steps, steps[i]);
      pending.push_back({sends[i].to, steps[i], std::move(sends[i].field)});
    }
  }
  std::stable_sort(plan.unicasts.begin(), plan.unicasts.end(),
                   [](const CubeUnicast& a, const CubeUnicast& b) { return a.step < b.step; });
  return plan;
}

std::vector<std::string> cube_contention(const CubePlan& plan, int n) {
  check_plan_nodes(plan, n, "cube_contention");
  std::vector<std::string> out;
  const auto& us = plan.unicasts;
  std::map<std::tuple<int, NodeId, int>, std::size_t> port_use;     // (step, sender, dimension) -> unicast
  std::map<std::tuple<int, NodeId, int>, std::size_t> channel_use;  // (step, from, dimension) -> unicast
  std::set<std::pair<std::size_t, std::size_t>> reported;
  for (std::size_t i = 0; i < us.size(); ++i) {
    const CubeUnicast& u = us[i];
    const int delta = cube_delta(u.sender, u.receiver);
    if (u.dimension != delta)
      out.push_back("unicast " + unicast_text(u, n) + " is labelled dimension " + std::to_string(u.dimension) +
                    " but leaves on dimension " + std::to_string(delta));
    const auto port = port_use.emplace(std::make_tuple(u.step, u.sender, delta), i);
    if (!port.second)
      out.push_back("node " + bits(u.sender, n) + " sends twice on dimension " + std::to_string(delta) + " in step " +
                    std::to_string(u.step) + ": to " + bits(us[port.first->second].receiver, n) + " and to " +
                    bits(u.receiver, n));
    for (const auto& arc : ecube_arcs(u.sender, u.receiver)) {
      const auto ch = channel_use.emplace(std::make_tuple(u.step, arc.first, arc.second), i);
      if (ch.second || !reported.insert({ch.first->second, i}).second) continue;
      out.push_back("step " + std::to_string(u.step) + ": unicasts " + unicast_text(us[ch.first->second], n) +
                    " and " + unicast_text(u, n) + " share channel " + bits(arc.first, n) + "->" +
                    bits(arc.first ^ (NodeId{1} << arc.second), n) + " (dimension " + std::to_string(arc.second) +
                    ")");
    }
  }
  return out;
}

namespace {

// The multicast tree of a plan: who delivered to each node, so reachable
// sets (Definition 3.4) are ancestor tests.
struct PlanTree {
  NodeId source = -1;
  std::map<NodeId, std::size_t> delivered_by;         // receiver -> unicast index
  std::map<NodeId, std::vector<std::size_t>> sends;   // sender -> unicast indices
  bool in_reach(const std::vector<CubeUnicast>& us, NodeId x, NodeId root) const {  // x ∈ R_root
    for (NodeId at = x;;) {
      if (at == root) return true;
      const auto it = delivered_by.find(at);
      if (it == delivered_by.end()) return false;
      at = us[it->second].sender;
    }
  }
};

PlanTree plan_tree(const CubePlan& plan, int n, std::vector<std::string>& out) {
  PlanTree t;
  const auto& us = plan.unicasts;
  t.source = !plan.chain.empty() ? plan.chain.front() : (us.empty() ? -1 : us.front().sender);
  for (std::size_t i = 0; i < us.size(); ++i) {
    if (us[i].receiver == t.source || !t.delivered_by.emplace(us[i].receiver, i).second)
      out.push_back("node " + bits(us[i].receiver, n) + " receives more than once (again by " +
                    unicast_text(us[i], n) + ")");
    t.sends[us[i].sender].push_back(i);
  }
  for (const auto& s : t.sends)
    if (s.first != t.source && !t.delivered_by.count(s.first))
      out.push_back("node " + bits(s.first, n) + " sends without having received");
  return t;
}

// Theorem 3.3's conditions 2-4 for the labelling a = (u,v,t), b = (x,y,τ), t <= τ.
bool depth_ordered_ok(const std::vector<CubeUnicast>& us, const PlanTree& t, std::size_t a, std::size_t b,
                      CubeDepthRule rule) {
  const CubeUnicast& first = us[a];
  const CubeUnicast& second = us[b];
  if (first.step > second.step) return false;
  if (second.sender == first.sender) return true;                        // condition 2
  if (t.in_reach(us, second.sender, first.receiver)) return true;        // condition 3
  const auto own = t.sends.find(first.sender);                           // condition 4
  if (own != t.sends.end())
    for (std::size_t w : own->second)
      if ((rule == CubeDepthRule::loop_order ? us[w].order > first.order : us[w].step > first.step) &&
          t.in_reach(us, second.sender, us[w].receiver))
        return true;
  return false;
}

}  // namespace

std::vector<std::string> cube_depth_contention(const CubePlan& plan, int n, CubeDepthRule rule) {
  check_plan_nodes(plan, n, "cube_depth_contention");
  if (rule == CubeDepthRule::loop_order) {
    std::set<std::pair<NodeId, int>> orders;
    for (const CubeUnicast& u : plan.unicasts)
      if (u.order < 1 || !orders.insert({u.sender, u.order}).second)
        throw std::invalid_argument("cube_depth_contention: unicast " + unicast_text(u, n) + " has loop order " +
                                    std::to_string(u.order) + ", not a distinct position >= 1 among its sender's sends");
  }
  std::vector<std::string> out;
  const auto& us = plan.unicasts;
  const PlanTree tree = plan_tree(plan, n, out);
  std::vector<std::vector<std::pair<NodeId, int>>> arcs;
  for (const CubeUnicast& u : us) {
    arcs.push_back(ecube_arcs(u.sender, u.receiver));
    std::sort(arcs.back().begin(), arcs.back().end());
  }
  for (std::size_t a = 0; a < us.size(); ++a) {
    for (std::size_t b = a + 1; b < us.size(); ++b) {
      if (depth_ordered_ok(us, tree, a, b, rule) || depth_ordered_ok(us, tree, b, a, rule)) continue;
      std::vector<std::pair<NodeId, int>> common;                        // condition 1
      std::set_intersection(arcs[a].begin(), arcs[a].end(), arcs[b].begin(), arcs[b].end(),
                            std::back_inserter(common));
      if (common.empty()) continue;
      out.push_back("unicasts " + unicast_text(us[a], n) + " and " + unicast_text(us[b], n) +
                    " may overlap in time (Theorem 3.3) and share channel " + bits(common.front().first, n) + "->" +
                    bits(common.front().first ^ (NodeId{1} << common.front().second), n));
    }
  }
  return out;
}

}  // namespace wormcast::algo
