#include "algorithms/ib_multicast.h"

#include <algorithm>
#include <deque>
#include <set>
#include <stdexcept>
#include <unordered_set>

namespace wormcast::algo {
namespace {

using topo::FatTree;
using topo::NodeId;

void check_node(const FatTree& t, NodeId x, const std::string& who, const char* role) {
  if (!t.valid_node(x))
    throw std::invalid_argument(who + ": " + role + " node " + std::to_string(x) + " is not in 0.." +
                                std::to_string(t.num_nodes() - 1) + " (" + t.spec() + ")");
}

void check_dests(const FatTree& t, NodeId src, const std::vector<NodeId>& dests, const std::string& who) {
  check_node(t, src, who, "source");
  if (dests.empty()) throw std::invalid_argument(who + ": no destinations");
  std::unordered_set<NodeId> seen;
  for (NodeId d : dests) {
    check_node(t, d, who, "destination");
    if (d == src) throw std::invalid_argument(who + ": destination " + t.node_name(d) + " is the source");
    if (!seen.insert(d).second) throw std::invalid_argument(who + ": destination " + t.node_name(d) + " is listed twice");
  }
}

void check_members(const FatTree& t, const std::vector<NodeId>& members, const std::string& who) {
  if (members.empty()) throw std::invalid_argument(who + ": no members");
  std::unordered_set<NodeId> seen;
  for (NodeId x : members) {
    check_node(t, x, who, "member");
    if (!seen.insert(x).second) throw std::invalid_argument(who + ": member " + t.node_name(x) + " is listed twice");
  }
}

void check_switch(const FatTree& t, int sw, const std::string& who) {
  if (!t.valid_switch(sw))
    throw std::invalid_argument(who + ": switch " + std::to_string(sw) + " is not in 0.." +
                                std::to_string(t.num_switches() - 1) + " (" + t.spec() + ")");
}

// Every switch of the table exists and every port of an entry is one of its 1..m.
void check_table(const FatTree& t, const Mft& mft, const std::string& who) {
  for (const auto& [sw, ports] : mft) {
    check_switch(t, sw, who);
    for (int p : ports)
      if (p < 1 || p > t.m())
        throw std::invalid_argument(who + ": the entry of " + t.switch_name(sw) + " has port " + std::to_string(p) +
                                    ", not in 1.." + std::to_string(t.m()));
  }
}

// Hop counts from every switch to each distinct leaf switch of the members.
std::map<int, std::vector<int>> hops_to_leaves(const FatTree& t, const std::vector<NodeId>& members) {
  std::map<int, std::vector<int>> out;
  for (NodeId x : members) {
    const int leaf = t.leaf_switch(x);
    if (!out.count(leaf)) out[leaf] = switch_hops_from(t, leaf);   // the switch graph is undirected
  }
  return out;
}

using PortSets = std::map<int, std::set<int>>;

// OpenSM's Branch(sw, members, upstream_port) (spec §8, step 2).
void opensm_branch(const FatTree& t, int sw, const std::vector<NodeId>& members, int upstream,
                   const std::map<int, std::vector<int>>& hops, PortSets& out, int depth) {
  if (depth > 2 * t.n() + 2) throw std::logic_error("opensm_mft: branch recursion does not end (" + t.spec() + ")");
  std::map<int, std::vector<NodeId>> by_port;
  for (NodeId x : members) {
    const int leaf = t.leaf_switch(x);
    if (leaf == sw) {   // a CA neighbour: a leaf of the tree
      by_port[t.leaf_port(x)].push_back(x);
      continue;
    }
    const std::vector<int>& d = hops.at(leaf);
    int port = 1;
    while (port <= t.m()) {
      const FatTree::PortPeer pp = t.peer(sw, port);
      if (!pp.is_node && d[pp.id] == d[sw] - 1) break;   // first port with the least hop count
      ++port;
    }
    if (port > t.m()) throw std::logic_error("opensm_mft: no port of " + t.switch_name(sw) + " leads towards " + t.node_name(x));
    by_port[port].push_back(x);
  }
  std::set<int>& bits = out[sw];
  if (upstream > 0) bits.insert(upstream);
  for (const auto& [port, sub] : by_port) {
    bits.insert(port);
    const FatTree::PortPeer pp = t.peer(sw, port);
    if (!pp.is_node) opensm_branch(t, pp.id, sub, pp.port, hops, out, depth + 1);
  }
}

Mft to_mft(const PortSets& sets) {
  Mft out;
  for (const auto& [sw, ports] : sets) out[sw] = std::vector<int>(ports.begin(), ports.end());
  return out;
}

// Whether a node of `keep` lies beyond port `port` of switch `sw` through the
// table's tree, memoised per (switch, port); `depth` bounds a table that loops.
class KeepBeyond {
 public:
  KeepBeyond(const FatTree& t, const Mft& mft, const std::vector<bool>& keep) : t_(t), mft_(mft), keep_(keep) {}
  bool operator()(int sw, int port, int depth = 0) {
    const auto known = memo_.find({sw, port});
    if (known != memo_.end()) return known->second;
    if (depth > t_.num_switches())
      throw std::logic_error("prune_mft: the table is not a tree (a path passes more than " +
                             std::to_string(t_.num_switches()) + " switches, " + t_.spec() + ")");
    const FatTree::PortPeer pp = t_.peer(sw, port);
    bool found = pp.is_node && keep_[static_cast<std::size_t>(pp.id)];
    const auto entry = pp.is_node ? mft_.end() : mft_.find(pp.id);
    if (entry != mft_.end())
      for (int q : entry->second)
        if (q != pp.port && (found = (*this)(pp.id, q, depth + 1))) break;
    return memo_[{sw, port}] = found;
  }

 private:
  const FatTree& t_;
  const Mft& mft_;
  const std::vector<bool>& keep_;
  std::map<std::pair<int, int>, bool> memo_;
};

}  // namespace

// ---- §3 ----

int gcp_length(const FatTree& t, NodeId a, NodeId b) {
  check_node(t, a, "gcp_length", "first");
  check_node(t, b, "gcp_length", "second");
  int alpha = 0;
  while (alpha < t.n() && t.node_digit(a, alpha) == t.node_digit(b, alpha)) ++alpha;
  return alpha;
}

std::vector<int> lca_switches(const FatTree& t, NodeId a, NodeId b) {
  const int alpha = gcp_length(t, a, b);
  if (alpha == t.n())
    throw std::invalid_argument("lca_switches: both nodes are " + t.node_name(a) + "; a node has no lca switch");
  const std::vector<int> p = t.node_digits(a);
  int first = 0;
  for (int l = 0; l < alpha; ++l) first += t.switches_at_level(l);
  std::vector<int> out;
  for (int sw = first; sw < first + t.switches_at_level(alpha); ++sw) {
    const FatTree::SwitchLabel s = t.switch_label(sw);
    if (std::equal(p.begin(), p.begin() + alpha, s.w.begin())) out.push_back(sw);
  }
  return out;
}

int rank_in_group(const FatTree& t, NodeId node, int alpha) {
  check_node(t, node, "rank_in_group", "the");
  if (alpha < 0 || alpha > t.n())
    throw std::invalid_argument("rank_in_group: alpha = " + std::to_string(alpha) + " is not in 0.." +
                                std::to_string(t.n()) + " (" + t.spec() + ")");
  return alpha == 0 ? node : node % t.pow_h(t.n() - alpha);   // the digits alpha..n-1 of the PID
}

// ---- §4 ----

int lids_per_node(const FatTree& t) {
  const int h = t.h();
  const std::string who = "lids_per_node: IBFT(m = " + std::to_string(t.m()) + ", n = " + std::to_string(t.n()) + ")";
  if ((h & (h - 1)) != 0)
    throw std::invalid_argument(who + " has h = " + std::to_string(h) + ", not a power of two, so 2^LMC = h^(n-1) is impossible");
  if (t.pow_h(t.n() - 1) > 128)
    throw std::invalid_argument(who + " needs h^(n-1) = " + std::to_string(t.pow_h(t.n() - 1)) +
                                " LIDs per node, more than the 128 (LMC <= 7) IBA allows");
  return t.pow_h(t.n() - 1);
}

int base_lid(const FatTree& t, NodeId node) {
  check_node(t, node, "base_lid", "the");
  return lids_per_node(t) * node + 1;
}

NodeId lid_owner(const FatTree& t, int lid) {
  const int per = lids_per_node(t);
  if (lid < 1 || lid > t.num_nodes() * per)
    throw std::invalid_argument("lid_owner: LID " + std::to_string(lid) + " is not in 1.." +
                                std::to_string(t.num_nodes() * per) + " (" + t.spec() + ")");
  return (lid - 1) / per;
}

// ---- §5 ----

int cyclic_dlid(const FatTree& t, NodeId src, NodeId dst) {
  const int l = gcp_length(t, src, dst);
  if (l == t.n()) throw std::invalid_argument("cyclic_dlid: source and destination are both " + t.node_name(src));
  return base_lid(t, dst) + rank_in_group(t, src, l + 1);
}

// ---- §6 ----

int lft_port(const FatTree& t, int sw, int lid) {
  check_switch(t, sw, "lft_port");
  const NodeId owner = lid_owner(t, lid);
  const FatTree::SwitchLabel s = t.switch_label(sw);
  const int l = s.level;
  bool below = true;
  for (int i = 0; i < l && below; ++i) below = s.w[i] == t.node_digit(owner, i);
  if (below) return t.node_digit(owner, l) + 1;                          // Eq. 1
  return ((lid - 1) / t.pow_h(t.n() - 1 - l)) % t.h() + t.h() + 1;       // Eq. 2
}

std::vector<IbHop> trace_unicast(const FatTree& t, NodeId src, int dlid) {
  check_node(t, src, "trace_unicast", "source");
  const NodeId owner = lid_owner(t, dlid);
  std::vector<IbHop> hops;
  IbHop hop{t.leaf_switch(src), t.leaf_port(src), 0};
  while (true) {
    if (static_cast<int>(hops.size()) >= 2 * t.n())
      throw std::logic_error("trace_unicast: DLID " + std::to_string(dlid) + " from " + t.node_name(src) +
                             " takes more than " + std::to_string(2 * t.n()) + " hops (" + t.spec() + ")");
    hop.out_port = lft_port(t, hop.sw, dlid);
    hops.push_back(hop);
    const FatTree::PortPeer pp = t.peer(hop.sw, hop.out_port);
    if (pp.is_node) {
      if (pp.id != owner)
        throw std::logic_error("trace_unicast: DLID " + std::to_string(dlid) + " from " + t.node_name(src) +
                               " reaches " + t.node_name(pp.id) + ", not its owner " + t.node_name(owner));
      return hops;
    }
    hop = IbHop{pp.id, pp.port, 0};
  }
}

std::vector<std::vector<IbHop>> unicast_routes(const FatTree& t, NodeId src, const std::vector<NodeId>& dests) {
  check_dests(t, src, dests, "unicast_routes");
  std::vector<std::vector<IbHop>> out;
  for (NodeId d : dests) out.push_back(trace_unicast(t, src, cyclic_dlid(t, src, d)));
  return out;
}

// ---- §7 ----

Mft cyclic_mft(const FatTree& t, NodeId src, const std::vector<NodeId>& dests) {
  check_dests(t, src, dests, "cyclic_mft");
  PortSets sets;
  for (NodeId d : dests)
    for (const IbHop& hop : trace_unicast(t, src, cyclic_dlid(t, src, d))) sets[hop.sw].insert(hop.out_port);
  return to_mft(sets);
}

MftDelivery deliver_mft(const FatTree& t, NodeId src, const Mft& mft) {
  check_node(t, src, "deliver_mft", "source");
  check_table(t, mft, "deliver_mft");
  MftDelivery out;
  out.received.assign(static_cast<std::size_t>(t.num_nodes()), 0);
  out.switch_visits.assign(static_cast<std::size_t>(t.num_switches()), 0);
  const long long limit = static_cast<long long>(t.num_switches()) * t.m();
  long long forwards = 0;
  std::deque<std::pair<int, int>> arrivals{{t.leaf_switch(src), t.leaf_port(src)}};   // (switch, arrival port)
  out.link_traversals = 1;                                                              // the injection link
  while (!arrivals.empty()) {
    const auto [sw, in_port] = arrivals.front();
    arrivals.pop_front();
    ++out.switch_visits[sw];
    const auto entry = mft.find(sw);
    if (entry == mft.end()) continue;   // no entry: dropped
    for (int p : entry->second) {
      if (p == in_port) continue;
      if (++forwards > limit)
        throw std::logic_error("deliver_mft: more than " + std::to_string(limit) + " forwards from " +
                               t.node_name(src) + "; the table loops (" + t.spec() + ")");
      ++out.link_traversals;
      const FatTree::PortPeer pp = t.peer(sw, p);
      if (pp.is_node) ++out.received[pp.id];
      else arrivals.emplace_back(pp.id, pp.port);
    }
  }
  return out;
}

std::vector<std::string> ib_mft_violations(const FatTree& t, NodeId src, const std::vector<NodeId>& dests,
                                           const Mft& mft) {
  check_dests(t, src, dests, "ib_mft_violations");
  MftDelivery got;
  try {
    got = deliver_mft(t, src, mft);
  } catch (const std::exception& e) {
    return {std::string("the table cannot be delivered: ") + e.what()};
  }
  std::vector<std::string> out;
  std::vector<char> is_dest(static_cast<std::size_t>(t.num_nodes()), 0);
  for (NodeId d : dests) is_dest[d] = 1;
  for (NodeId x = 0; x < t.num_nodes(); ++x) {
    const int k = got.received[x];
    if (is_dest[x] && k != 1)
      out.push_back("destination " + t.node_name(x) + " received " + std::to_string(k) + " copies, expected 1");
    else if (!is_dest[x] && k != 0)
      out.push_back((x == src ? "the source " : "non-destination ") + t.node_name(x) + " received " +
                    std::to_string(k) + " copies, expected 0");
  }
  for (int sw = 0; sw < t.num_switches(); ++sw)
    if (got.switch_visits[sw] > 1)
      out.push_back("switch " + t.switch_name(sw) + " visited " + std::to_string(got.switch_visits[sw]) + " times");
  return out;
}

// ---- §8 ----

std::vector<int> switch_hops_from(const FatTree& t, int sw) {
  check_switch(t, sw, "switch_hops_from");
  std::vector<int> dist(static_cast<std::size_t>(t.num_switches()), -1);
  std::deque<int> queue{sw};
  dist[sw] = 0;
  while (!queue.empty()) {
    const int u = queue.front();
    queue.pop_front();
    for (int p = 1; p <= t.m(); ++p) {
      const FatTree::PortPeer pp = t.peer(u, p);
      if (pp.is_node || dist[pp.id] >= 0) continue;
      dist[pp.id] = dist[u] + 1;
      queue.push_back(pp.id);
    }
  }
  return dist;
}

int opensm_root(const FatTree& t, const std::vector<NodeId>& members) {
  check_members(t, members, "opensm_root");
  const std::map<int, std::vector<int>> hops = hops_to_leaves(t, members);
  int best = -1, best_max = 0;
  for (int sw = 0; sw < t.num_switches(); ++sw) {
    int worst = 0;
    for (const auto& [leaf, d] : hops) worst = std::max(worst, d[sw] + 1);   // +1: the member is a CA behind its leaf
    if (best < 0 || worst < best_max) best = sw, best_max = worst;           // strict <: ties to the lowest id
  }
  return best;
}

Mft opensm_mft(const FatTree& t, const std::vector<NodeId>& members) {
  const int root = opensm_root(t, members);
  PortSets sets;
  opensm_branch(t, root, members, 0, hops_to_leaves(t, members), sets, 0);
  return to_mft(sets);
}

Mft prune_mft(const FatTree& t, const Mft& mft, const std::vector<NodeId>& keep) {
  check_members(t, keep, "prune_mft");
  check_table(t, mft, "prune_mft");
  std::vector<bool> kept(static_cast<std::size_t>(t.num_nodes()), false);
  for (NodeId x : keep) kept[static_cast<std::size_t>(x)] = true;
  KeepBeyond beyond(t, mft, kept);
  Mft out;
  for (const auto& [sw, ports] : mft)
    for (int p : ports)
      if (beyond(sw, p)) out[sw].push_back(p);
  return out;
}

}  // namespace wormcast::algo
