#include "algorithms/torus_multicast.h"

#include <algorithm>
#include <iterator>
#include <map>
#include <set>
#include <stdexcept>
#include <tuple>
#include <unordered_map>
#include <unordered_set>

#include "algorithms/chain_ordering.h"
#include "algorithms/direct_members.h"

namespace wormcast::algo {
namespace {

using topo::DirectRouting;
using topo::DirectTopology;
using topo::NodeId;

// The path-based schemes need ℋ (Eq. 5.2) and UTPR, which exist only on
// regular unidirectional tori; DirectRouting refuses utpr elsewhere, so the
// algorithm test is the real guard and the topology test names the network.
void require_utpr(const DirectRouting& utpr, const std::string& who) {
  const DirectTopology& t = utpr.topology();
  if (!t.is_torus() || t.bidirectional() || !t.regular())
    throw std::invalid_argument(who + " (seed001 Ch. 5/6) needs a regular unidirectional torus with UTPR; " + t.spec() +
                                " is not one");
  if (utpr.algorithm() != topo::RoutingAlgorithm::utpr)
    throw std::invalid_argument(who + " (seed001 Ch. 5/6) needs RoutingAlgorithm::utpr, not " +
                                topo::to_string(utpr.algorithm()) + " (on " + t.spec() + ")");
}

void require_r(int r, const std::string& who) {
  if (r < 2)
    throw std::invalid_argument(who + ": M_u-torus(r) needs r >= 2 partitions per phase (got r = " + std::to_string(r) +
                                ")");
}

// σ_i(a) = σ_i(b) for order <= i <= n-1: same order-`order` sub-torus (Def. 6.2).
bool same_subtorus(const DirectTopology& t, NodeId a, NodeId b, int order) {
  for (int i = order; i < t.dimensions(); ++i)
    if (t.sigma(a, i) != t.sigma(b, i)) return false;
  return true;
}

// Def. 6.2 on a sequence already known to be an ℋ-cycle. Order-d sub-tori
// are aligned label blocks, so along the cycle each is one run, except the
// block where the cycle wraps round ℋ, which may show up at the head (labels
// >= ℓ(sender)) and again at the tail; starting a part at the wrap as well
// keeps the tail separate even when nothing lies between (§7.5).
std::vector<std::vector<NodeId>> split_dimensional(const DirectRouting& utpr, const std::vector<NodeId>& cycle,
                                                   int order) {
  const DirectTopology& t = utpr.topology();
  std::vector<std::vector<NodeId>> parts{{cycle.front()}};
  for (std::size_t i = 1; i < cycle.size(); ++i) {
    const bool wraps = utpr.label(cycle[i]) < utpr.label(cycle[i - 1]);
    if (wraps || !same_subtorus(t, cycle[i - 1], cycle[i], order)) parts.emplace_back();
    parts.back().push_back(cycle[i]);
  }
  return parts;
}

// Def. 6.3 with §7.8's sizes: the first m mod r parts get ⌈m/r⌉, the others
// ⌊m/r⌋; when m < r that leaves m parts of one node (Sec. 6.4).
std::vector<std::vector<NodeId>> split_uniform(const std::vector<NodeId>& cycle, int r) {
  const std::size_t m = cycle.size(), rr = static_cast<std::size_t>(r);
  std::vector<std::vector<NodeId>> parts;
  std::size_t at = 0;
  for (std::size_t i = 0; i < rr && at < m; ++i) {
    const std::size_t size = m / rr + (i < m % rr ? 1 : 0);
    parts.emplace_back(cycle.begin() + static_cast<std::ptrdiff_t>(at),
                       cycle.begin() + static_cast<std::ptrdiff_t>(at + size));
    at += size;
  }
  return parts;
}

// Position of each node in `seq` (for ordering by chain / cycle position).
std::unordered_map<NodeId, std::size_t> positions(const std::vector<NodeId>& seq) {
  std::unordered_map<NodeId, std::size_t> pos;
  for (std::size_t i = 0; i < seq.size(); ++i) pos.emplace(seq[i], i);
  return pos;
}

}  // namespace

// ---- U-torus ------------------------------------------------------------------

std::vector<TorusSend> utorus_local_sends(const std::vector<NodeId>& field) {
  if (field.empty()) throw std::invalid_argument("U-torus: empty address field (field[0] must be the node itself)");
  std::vector<TorusSend> sends;
  std::size_t right = field.size() - 1;
  const std::size_t left = 0;
  while (left < right) {
    // Fig. 4.9: ⌈(right - left + 1)/2⌉, not U-cube's ⌈(right - left)/2⌉.
    const std::size_t center = left + (right - left + 2) / 2;
    sends.push_back({field[center], std::vector<NodeId>(field.begin() + static_cast<std::ptrdiff_t>(center),
                                                        field.begin() + static_cast<std::ptrdiff_t>(right + 1))});
    right = center - 1;
  }
  return sends;
}

UTorusPlan plan_utorus(const DirectTopology& t, NodeId source, const std::vector<NodeId>& dests) {
  if (!t.is_torus())
    throw std::invalid_argument("U-torus (seed001 Ch. 4) needs a torus (UTR or BTR); " + t.spec() + " is a " +
                                (t.kind() == topo::DirectKind::mesh ? "mesh" : "hypercube"));
  check_multicast_members(t, source, dests, "U-torus");
  UTorusPlan plan;
  plan.chain = dimension_ordered_chain(t, source, dests);   // the R-chain (Def. 4.4)
  // Every member runs the local loop on the field it received; breadth-first
  // from the source, a receiver's i-th send goes out in step t + i.
  struct Holder {
    std::vector<NodeId> field;
    int step;
  };
  std::vector<Holder> todo{{plan.chain, 0}};
  for (std::size_t h = 0; h < todo.size(); ++h) {
    const int received = todo[h].step;
    const std::vector<TorusSend> sends = utorus_local_sends(todo[h].field);
    for (std::size_t i = 0; i < sends.size(); ++i) {
      const int step = received + static_cast<int>(i) + 1;
      plan.unicasts.push_back({todo[h].field.front(), sends[i].to, step, sends[i].field});
      todo.push_back({sends[i].field, step});
    }
  }
  const auto pos = positions(plan.chain);
  std::stable_sort(plan.unicasts.begin(), plan.unicasts.end(), [&](const TorusUnicast& a, const TorusUnicast& b) {
    return std::make_pair(a.step, pos.at(a.sender)) < std::make_pair(b.step, pos.at(b.sender));
  });
  for (const TorusUnicast& u : plan.unicasts) plan.steps = std::max(plan.steps, u.step);
  return plan;
}

namespace {

// Who receives what, and when; whether senders hold the message before they
// send; one send per node per step.
void check_utorus_receptions(const DirectTopology& t, const UTorusPlan& plan, std::vector<std::string>& out) {
  const NodeId source = plan.chain.front();
  std::set<NodeId> members(plan.chain.begin(), plan.chain.end());
  if (members.size() != plan.chain.size()) out.push_back("the chain " + node_set_text(t, plan.chain) + " repeats a node");
  std::unordered_map<NodeId, int> received_at{{source, 0}};
  std::map<NodeId, int> times;
  int last = 0;
  for (const TorusUnicast& u : plan.unicasts) {
    ++times[u.receiver];
    received_at.emplace(u.receiver, u.step);
    last = std::max(last, u.step);
    if (u.step < 1) out.push_back("a unicast to " + node_name_or_id(t, u.receiver) + " in step " + std::to_string(u.step));
    if (u.field.empty() || u.field.front() != u.receiver)
      out.push_back("the field sent to " + node_name_or_id(t, u.receiver) + " does not start with it: " + node_set_text(t, u.field));
  }
  for (const auto& [node, n] : times) {
    if (node == source) out.push_back("the source " + node_name_or_id(t, node) + " receives");
    else if (!members.count(node)) out.push_back(node_name_or_id(t, node) + " receives but is not in the chain");
    else if (n > 1) out.push_back(node_name_or_id(t, node) + " receives " + std::to_string(n) + " times");
  }
  for (std::size_t i = 1; i < plan.chain.size(); ++i)
    if (!times.count(plan.chain[i])) out.push_back(node_name_or_id(t, plan.chain[i]) + " never receives");
  std::set<std::pair<NodeId, int>> sent;
  for (const TorusUnicast& u : plan.unicasts) {
    const auto it = received_at.find(u.sender);
    if (it == received_at.end())
      out.push_back(node_name_or_id(t, u.sender) + " sends in step " + std::to_string(u.step) + " but never receives");
    else if (it->second >= u.step)
      out.push_back(node_name_or_id(t, u.sender) + " sends in step " + std::to_string(u.step) + " but receives in step " +
                    std::to_string(it->second));
    if (!sent.insert({u.sender, u.step}).second)
      out.push_back(node_name_or_id(t, u.sender) + " sends twice in step " + std::to_string(u.step) + " (one-port)");
  }
  if (plan.steps != last)
    out.push_back("steps is " + std::to_string(plan.steps) + " but the last unicast is in step " + std::to_string(last));
}

// Theorem 4.4: unicasts of one step never need the same virtual channel.
void check_utorus_channels(const DirectRouting& r, const UTorusPlan& plan, std::vector<std::string>& out) {
  const DirectTopology& t = r.topology();
  using Key = std::tuple<int, NodeId, int, int, int>;   // step, node, dim, dir, VC class
  std::map<Key, std::size_t> owner;
  for (std::size_t i = 0; i < plan.unicasts.size(); ++i) {
    const TorusUnicast& u = plan.unicasts[i];
    if (!t.valid_node(u.sender) || !t.valid_node(u.receiver) || u.sender == u.receiver) {
      out.push_back("unicast " + node_name_or_id(t, u.sender) + " -> " + node_name_or_id(t, u.receiver) + " cannot be routed");
      continue;
    }
    for (const topo::RouteHop& h : r.route(u.sender, u.receiver)) {
      const Key key{u.step, h.node, h.dim, static_cast<int>(h.dir), static_cast<int>(h.vc)};
      const auto [it, fresh] = owner.emplace(key, i);
      if (fresh) continue;
      const TorusUnicast& o = plan.unicasts[it->second];
      out.push_back("step " + std::to_string(u.step) + ": " + node_name_or_id(t, o.sender) + "->" + node_name_or_id(t, o.receiver) +
                    " and " + node_name_or_id(t, u.sender) + "->" + node_name_or_id(t, u.receiver) + " both use VC " +
                    topo::to_string(h.vc) + " of channel " + t.name(h.node) + " dim " + std::to_string(h.dim) + " " +
                    topo::to_string(h.dir));
    }
  }
}

}  // namespace

std::vector<std::string> utorus_violations(const DirectRouting& r, const UTorusPlan& plan) {
  std::vector<std::string> out;
  if (plan.chain.empty()) return {"the plan has no chain (no source)"};
  for (NodeId x : plan.chain)
    if (!r.topology().valid_node(x)) out.push_back("chain node " + std::to_string(x) + " is not in the network");
  if (!out.empty()) return out;
  check_utorus_receptions(r.topology(), plan, out);
  check_utorus_channels(r, plan, out);
  return out;
}

namespace {

using VcKey = std::tuple<NodeId, int, int, int>;   // node, dim, dir, VC class

std::vector<VcKey> route_vcs(const DirectRouting& r, const TorusUnicast& u) {
  std::vector<VcKey> out;
  for (const topo::RouteHop& h : r.route(u.sender, u.receiver))
    out.emplace_back(h.node, h.dim, static_cast<int>(h.dir), static_cast<int>(h.vc));
  std::sort(out.begin(), out.end());
  return out;
}

bool in_field(const TorusUnicast& u, NodeId x) { return std::find(u.field.begin(), u.field.end(), x) != u.field.end(); }

// Conditions 1, 3 and 4 of Theorem 4.1 for (u,v,t) = a and (x,y,τ) = b, t <= τ.
bool depth_ordered_ok(const std::vector<TorusUnicast>& us, const TorusUnicast& a, const TorusUnicast& b) {
  if (a.step > b.step) return false;
  if (in_field(a, b.sender) || b.sender == a.sender) return true;
  return std::any_of(us.begin(), us.end(), [&](const TorusUnicast& w) {
    return w.sender == a.sender && w.step > a.step && in_field(w, b.sender);
  });
}

}  // namespace

std::vector<std::string> utorus_depth_contention(const DirectRouting& r, const UTorusPlan& plan) {
  const DirectTopology& t = r.topology();
  const auto& us = plan.unicasts;
  auto routable = [&](const TorusUnicast& u) {
    return t.valid_node(u.sender) && t.valid_node(u.receiver) && u.sender != u.receiver;
  };
  std::vector<std::vector<VcKey>> vcs;
  for (const TorusUnicast& u : us) vcs.push_back(routable(u) ? route_vcs(r, u) : std::vector<VcKey>{});
  auto text = [&](const TorusUnicast& u) {
    return t.name(u.sender) + "->" + t.name(u.receiver) + " (step " + std::to_string(u.step) + ")";
  };
  std::vector<std::string> out;
  for (std::size_t a = 0; a < us.size(); ++a)
    for (std::size_t b = a + 1; b < us.size(); ++b) {
      if (depth_ordered_ok(us, us[a], us[b]) || depth_ordered_ok(us, us[b], us[a])) continue;
      std::vector<VcKey> common;   // condition 2
      std::set_intersection(vcs[a].begin(), vcs[a].end(), vcs[b].begin(), vcs[b].end(), std::back_inserter(common));
      if (common.empty()) continue;
      const auto& [node, dim, dir, vc] = common.front();
      out.push_back("unicasts " + text(us[a]) + " and " + text(us[b]) + " may overlap in time (Theorem 4.1) on VC " +
                    topo::to_string(static_cast<topo::VcClass>(vc)) + " of channel " + t.name(node) + " dim " +
                    std::to_string(dim) + " " + topo::to_string(static_cast<topo::Direction>(dir)));
    }
  return out;
}

// ---- ℋ-cycles and linear partitionings ------------------------------------------

std::vector<NodeId> h_cycle(const DirectRouting& utpr, NodeId source, const std::vector<NodeId>& dests) {
  require_utpr(utpr, "h_cycle");
  check_multicast_members(utpr.topology(), source, dests, "h_cycle");
  // Fig. 5.8 steps 1-2. ℓ is a bijection onto 0..N-1, so ties cannot occur.
  std::vector<std::pair<long long, NodeId>> keyed{{utpr.label(source), source}};
  for (NodeId d : dests) keyed.emplace_back(utpr.label(d), d);
  std::sort(keyed.begin(), keyed.end());
  std::vector<NodeId> cycle;
  for (const auto& kd : keyed) cycle.push_back(kd.second);
  std::rotate(cycle.begin(), std::find(cycle.begin(), cycle.end(), source), cycle.end());
  return cycle;
}

bool is_h_cycle(const DirectRouting& utpr, const std::vector<NodeId>& seq) {
  if (seq.empty()) return false;
  for (NodeId x : seq)
    if (!utpr.topology().valid_node(x)) return false;
  // A rotation of a strictly ascending sequence: at most one descent, and
  // after it every label stays below the first (Def. 5.3). Strictness also
  // rules out repeated nodes.
  int descents = 0;
  for (std::size_t i = 1; i < seq.size(); ++i)
    if (utpr.label(seq[i]) <= utpr.label(seq[i - 1])) ++descents;
  return descents == 0 || (descents == 1 && utpr.label(seq.back()) < utpr.label(seq.front()));
}

const char* to_string(MTorusPartition p) {
  switch (p) {
    case MTorusPartition::single: return "storus";
    case MTorusPartition::dimensional: return "mdtorus";
    case MTorusPartition::uniform: return "mutorus";
  }
  return "?";
}

std::vector<std::vector<NodeId>> linear_partition(const DirectRouting& utpr, const std::vector<NodeId>& cycle,
                                                  MTorusPartition p, int order_or_r) {
  require_utpr(utpr, "linear_partition");
  if (!is_h_cycle(utpr, cycle))
    throw std::invalid_argument("linear_partition: " + node_set_text(utpr.topology(), cycle) +
                                " is not an H-cycle (labels must ascend from the sender with at most one wrap)");
  switch (p) {
    case MTorusPartition::single: {
      std::vector<std::vector<NodeId>> parts;
      for (NodeId x : cycle) parts.push_back({x});
      return parts;
    }
    case MTorusPartition::uniform:
      require_r(order_or_r, "linear_partition");
      return split_uniform(cycle, order_or_r);
    case MTorusPartition::dimensional:
      if (order_or_r < 0 || order_or_r >= utpr.topology().dimensions())
        throw std::invalid_argument("linear_partition: dimensional order " + std::to_string(order_or_r) +
                                    " is outside 0.." + std::to_string(utpr.topology().dimensions() - 1));
      return split_dimensional(utpr, cycle, order_or_r);
  }
  throw std::invalid_argument("linear_partition: unknown partitioning");
}

// ---- M-torus ----------------------------------------------------------------

std::vector<NodeId> worm_destinations(const MTorusWorm& w) {
  std::vector<NodeId> out;
  for (const CompoundBlock& b : w.blocks) out.push_back(b.dest);
  return out;
}

std::vector<MTorusWorm> mtorus_local_worms(const DirectRouting& utpr, const std::vector<NodeId>& part,
                                           MTorusPartition p, int r, int received_phase) {
  require_utpr(utpr, "M-torus");
  if (p == MTorusPartition::uniform) require_r(r, "M-torus");
  if (received_phase < 0)
    throw std::invalid_argument("M-torus: received_phase " + std::to_string(received_phase) + " is negative");
  const int n = utpr.topology().dimensions();
  std::vector<MTorusWorm> out;
  std::vector<NodeId> held = part;
  // Fig. 6.1 step 3 for the node itself: after each worm it goes on with its
  // own part Φ_0 one level deeper. Order 0 (M_d), r >= 2 (M_u) and single
  // always split a part of two or more nodes, so the loop ends.
  for (int level = received_phase + 1; held.size() > 1; ++level) {
    const int arg = p == MTorusPartition::dimensional ? std::max(n - level, 0) : r;
    std::vector<std::vector<NodeId>> parts = linear_partition(utpr, held, p, arg);
    if (parts.size() < 2) continue;   // M_d: nothing to split at this order; the phase stays empty
    MTorusWorm w{held.front(), level, {}};
    for (std::size_t i = 1; i < parts.size(); ++i)
      w.blocks.push_back({parts[i].front(), std::vector<NodeId>(parts[i].begin() + 1, parts[i].end())});
    out.push_back(std::move(w));
    held = std::move(parts.front());
  }
  return out;
}

MTorusPlan plan_mtorus(const DirectRouting& utpr, NodeId source, const std::vector<NodeId>& dests, MTorusPartition p,
                       int r) {
  const std::string who = std::string("M-torus (") + to_string(p) + ")";
  require_utpr(utpr, who);
  if (p == MTorusPartition::uniform) require_r(r, who);
  check_multicast_members(utpr.topology(), source, dests, who);
  MTorusPlan plan;
  plan.cycle = h_cycle(utpr, source, dests);
  // Every holder runs the local rule on its part; each worm's blocks become
  // the parts of its destinations, received in the worm's phase.
  struct Holder {
    std::vector<NodeId> part;
    int phase;
  };
  std::vector<Holder> todo{{plan.cycle, 0}};
  for (std::size_t h = 0; h < todo.size(); ++h) {
    for (MTorusWorm& w : mtorus_local_worms(utpr, todo[h].part, p, r, todo[h].phase)) {
      for (const CompoundBlock& b : w.blocks) {
        std::vector<NodeId> part{b.dest};
        part.insert(part.end(), b.later.begin(), b.later.end());
        todo.push_back({std::move(part), w.phase});
      }
      plan.phases = std::max(plan.phases, w.phase);
      plan.worms.push_back(std::move(w));
    }
  }
  const auto pos = positions(plan.cycle);
  std::stable_sort(plan.worms.begin(), plan.worms.end(), [&](const MTorusWorm& a, const MTorusWorm& b) {
    return std::make_pair(a.phase, pos.at(a.sender)) < std::make_pair(b.phase, pos.at(b.sender));
  });
  return plan;
}

namespace {

// Theorem 6.1's range(Φ_i) as a circular label interval [lo, hi] (hi < lo:
// it wraps round ℋ): the same set for ℋ-chains and for wrapping ℋ-cycles.
struct LabelRange {
  long long lo = 0, hi = 0;
  bool contains(long long x) const { return lo <= hi ? lo <= x && x <= hi : x >= lo || x <= hi; }
  bool meets(const LabelRange& o) const { return contains(o.lo) || o.contains(lo); }
};

LabelRange range_of(const DirectRouting& utpr, const std::vector<NodeId>& part) {
  return {utpr.label(part.front()), utpr.label(part.back())};
}

// The nodes the worm visits, sender first; reports boundaries, revisits and
// non-minimal segments (§7.9).
std::vector<NodeId> check_worm_path(const DirectRouting& utpr, const MTorusWorm& w, std::vector<std::string>& out) {
  const DirectTopology& t = utpr.topology();
  const std::string worm = "worm of " + t.name(w.sender) + " in phase " + std::to_string(w.phase);
  std::vector<NodeId> visited{w.sender};
  std::unordered_set<NodeId> seen{w.sender};
  int boundaries = 0;
  NodeId at = w.sender;
  topo::VcClass cls = topo::VcClass::local;
  for (NodeId v : worm_destinations(w)) {
    const std::vector<topo::RouteHop> hops = utpr.route(at, v, cls);   // as route_path: the class carries over
    std::size_t minimal = 0;
    for (int d = 0; d < t.dimensions(); ++d)
      minimal += static_cast<std::size_t>(((t.sigma(v, d) - t.sigma(at, d)) % t.radix(d) + t.radix(d)) % t.radix(d));
    if (hops.size() != minimal)
      out.push_back(worm + ": segment " + t.name(at) + " -> " + t.name(v) + " takes " + std::to_string(hops.size()) +
                    " hops, not the minimal " + std::to_string(minimal));
    for (const topo::RouteHop& h : hops) {
      if (utpr.is_boundary(h.node, h.dim)) ++boundaries;
      if (!seen.insert(h.next).second) out.push_back(worm + " revisits " + t.name(h.next));
      visited.push_back(h.next);
    }
    if (!hops.empty()) cls = hops.back().vc;
    at = v;
  }
  if (boundaries > 1) out.push_back(worm + " crosses " + std::to_string(boundaries) + " boundaries");
  return visited;
}

// Exactly-once coverage of the cycle's destinations.
void check_mtorus_coverage(const DirectTopology& t, const MTorusPlan& plan, std::vector<std::string>& out) {
  const std::set<NodeId> members(plan.cycle.begin(), plan.cycle.end());
  std::map<NodeId, int> times;
  for (const MTorusWorm& w : plan.worms)
    for (const CompoundBlock& b : w.blocks) ++times[b.dest];
  for (const auto& [node, n] : times) {
    if (node == plan.cycle.front()) out.push_back("the source " + t.name(node) + " receives");
    else if (!members.count(node)) out.push_back(t.name(node) + " receives but is not in the cycle");
    else if (n > 1) out.push_back(t.name(node) + " receives " + std::to_string(n) + " times");
  }
  for (std::size_t i = 1; i < plan.cycle.size(); ++i)
    if (!times.count(plan.cycle[i])) out.push_back(t.name(plan.cycle[i]) + " never receives");
}

// One worm against what its sender holds: a linear partitioning of the part
// (kept prefix ‖ blocks), disjoint ranges, path inside the part's range.
// Returns the sub-problems the worm creates (the kept part first).
std::vector<std::vector<NodeId>> check_split(const DirectRouting& utpr, const MTorusWorm& w,
                                             const std::vector<NodeId>& part, const std::vector<NodeId>& visited,
                                             std::vector<std::string>& out) {
  const DirectTopology& t = utpr.topology();
  const std::string worm = "worm of " + t.name(w.sender) + " in phase " + std::to_string(w.phase);
  std::vector<std::vector<NodeId>> pieces{{}};
  std::vector<NodeId> handed;
  for (const CompoundBlock& b : w.blocks) {
    pieces.push_back({b.dest});
    pieces.back().insert(pieces.back().end(), b.later.begin(), b.later.end());
    handed.insert(handed.end(), pieces.back().begin(), pieces.back().end());
  }
  if (handed.size() >= part.size() ||
      !std::equal(handed.begin(), handed.end(), part.end() - static_cast<std::ptrdiff_t>(handed.size()))) {
    out.push_back(worm + ": its blocks " + node_set_text(t, handed) + " are not a linear partitioning of the tail of its part " +
                  node_set_text(t, part));
    return {};
  }
  pieces.front().assign(part.begin(), part.end() - static_cast<std::ptrdiff_t>(handed.size()));
  const LabelRange whole = range_of(utpr, part);
  for (NodeId x : visited)
    if (!whole.contains(utpr.label(x)))
      out.push_back(worm + " visits " + t.name(x) + ", outside the range of its part " + node_set_text(t, part));
  for (std::size_t i = 0; i < pieces.size(); ++i)
    for (std::size_t j = i + 1; j < pieces.size(); ++j)
      if (range_of(utpr, pieces[i]).meets(range_of(utpr, pieces[j])))
        out.push_back(worm + ": sub-problems " + node_set_text(t, pieces[i]) + " and " + node_set_text(t, pieces[j]) + " share nodes");
  return pieces;
}

// Replays the plan phase by phase: who holds which part, and what each worm
// does with it (Theorem 6.1's sub-problems).
void check_mtorus_subproblems(const DirectRouting& utpr, const MTorusPlan& plan, std::vector<std::string>& out) {
  const DirectTopology& t = utpr.topology();
  struct Held {
    std::vector<NodeId> part;
    int phase;
    int last_sent;
  };
  std::unordered_map<NodeId, Held> held{{plan.cycle.front(), {plan.cycle, 0, 0}}};
  std::vector<std::size_t> order(plan.worms.size());
  for (std::size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(),
                   [&](std::size_t a, std::size_t b) { return plan.worms[a].phase < plan.worms[b].phase; });
  for (std::size_t i : order) {
    const MTorusWorm& w = plan.worms[i];
    const std::string worm = "worm of " + t.name(w.sender) + " in phase " + std::to_string(w.phase);
    const std::vector<NodeId> visited = check_worm_path(utpr, w, out);
    const auto it = held.find(w.sender);
    if (it == held.end()) {
      out.push_back(worm + ": its sender never receives");
      continue;
    }
    if (it->second.phase >= w.phase || it->second.last_sent >= w.phase) {
      out.push_back(worm + ": its sender received in phase " + std::to_string(it->second.phase) +
                    " and last sent in phase " + std::to_string(it->second.last_sent));
      continue;
    }
    const std::vector<std::vector<NodeId>> pieces = check_split(utpr, w, it->second.part, visited, out);
    if (pieces.empty()) continue;
    it->second.part = pieces.front();
    it->second.last_sent = w.phase;
    for (std::size_t b = 1; b < pieces.size(); ++b) held.emplace(pieces[b].front(), Held{pieces[b], w.phase, w.phase});
  }
  for (const auto& [node, h] : held)
    if (h.part.size() > 1)
      out.push_back(t.name(node) + " is left holding " + node_set_text(t, h.part) + " that it never sends to");
}

}  // namespace

std::vector<std::string> mtorus_violations(const DirectRouting& utpr, const MTorusPlan& plan) {
  require_utpr(utpr, "mtorus_violations");
  const DirectTopology& t = utpr.topology();
  std::vector<std::string> out;
  auto bad = [&](NodeId x, const std::string& where) {
    if (!t.valid_node(x)) out.push_back(where + " node " + std::to_string(x) + " is not in the network");
  };
  for (NodeId x : plan.cycle) bad(x, "cycle");
  for (const MTorusWorm& w : plan.worms) {
    bad(w.sender, "sender");
    if (w.blocks.empty()) out.push_back("a worm of " + node_name_or_id(t, w.sender) + " has no destinations");
    for (const CompoundBlock& b : w.blocks) {
      bad(b.dest, "destination");
      for (NodeId x : b.later) bad(x, "later-list");
    }
  }
  if (!out.empty()) return out;
  if (!is_h_cycle(utpr, plan.cycle)) return {"the cycle " + node_set_text(t, plan.cycle) + " is not an H-cycle"};
  check_mtorus_coverage(t, plan, out);
  check_mtorus_subproblems(utpr, plan, out);
  int last = 0;
  for (const MTorusWorm& w : plan.worms) {
    if (w.phase < last) out.push_back("the worms are not sorted by phase");
    if (w.phase < 1) out.push_back("a worm of " + t.name(w.sender) + " in phase " + std::to_string(w.phase));
    last = std::max(last, w.phase);
  }
  if (plan.phases != last)
    out.push_back("phases is " + std::to_string(plan.phases) + " but the last worm is in phase " + std::to_string(last));
  return out;
}

}  // namespace wormcast::algo
