#include "algorithms/sci_multicast.h"

#include <algorithm>
#include <map>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

#include "algorithms/direct_members.h"
#include "algorithms/torus_multicast.h"

namespace wormcast::algo {
namespace {

using topo::DirectTopology;
using topo::NodeId;

const char* label(SciScheme s) {
  switch (s) {
    case SciScheme::separate: return "separate addressing";
    case SciScheme::utorus: return "U-torus";
    case SciScheme::storus: return "S-torus";
    case SciScheme::mdtorus: return "M_d-torus";
    case SciScheme::mutorus: return "M_u-torus";
  }
  return "?";
}

void check_group(const DirectTopology& t, SciScheme s, NodeId root, const std::vector<NodeId>& dests) {
  const std::string who = std::string(label(s)) + " (seed004)";
  if (!t.is_torus()) throw std::invalid_argument(who + " needs a torus; " + t.spec() + " is not one");
  check_multicast_members(t, root, dests, who, "root");
}

// The group sorted by `key`, rotated so the root is first.
template <class Key>
std::vector<NodeId> sorted_from_root(NodeId root, const std::vector<NodeId>& dests, Key key) {
  std::vector<NodeId> group(dests);
  group.push_back(root);
  std::stable_sort(group.begin(), group.end(), [&](NodeId a, NodeId b) { return key(a) < key(b); });
  std::rotate(group.begin(), std::find(group.begin(), group.end(), root), group.end());
  return group;
}

std::vector<NodeId> tail(const std::vector<NodeId>& v, std::size_t from) {
  return std::vector<NodeId>(v.begin() + static_cast<std::ptrdiff_t>(from), v.end());
}

// A chain hop: to the next node, which keeps the rest of the chain.
SciSend chain_send(const std::vector<NodeId>& part, int level) { return {part[1], tail(part, 1), level, true}; }

// The highest dimension >= 1 in which the part's nodes differ, or 0 if they
// all lie on one dimension-0 ringlet.
int highest_varying(const DirectTopology& t, const std::vector<NodeId>& part) {
  for (int d = t.dimensions() - 1; d >= 1; --d)
    for (NodeId x : part)
      if (t.sigma(x, d) != t.sigma(part.front(), d)) return d;
  return 0;
}

// M_d: split by σ_d (the part's other higher coordinates are equal), groups
// in order of first appearance, members in the part's order.
std::vector<std::vector<NodeId>> split_by_dimension(const DirectTopology& t, const std::vector<NodeId>& part, int d) {
  std::vector<std::vector<NodeId>> groups;
  std::map<int, std::size_t> index;
  for (NodeId x : part) {
    const auto [it, fresh] = index.emplace(t.sigma(x, d), groups.size());
    if (fresh) groups.emplace_back();
    groups[it->second].push_back(x);
  }
  return groups;
}

std::vector<SciSend> dimensional_sends(const DirectTopology& t, std::vector<NodeId> part) {
  std::vector<SciSend> out;
  for (int level = 1;; ++level) {
    const int d = highest_varying(t, part);
    if (d == 0) {
      if (part.size() > 1) out.push_back(chain_send(part, level));
      return out;
    }
    std::vector<std::vector<NodeId>> groups = split_by_dimension(t, part, d);
    for (std::size_t g = 1; g < groups.size(); ++g) out.push_back({groups[g].front(), groups[g], level, false});
    part = std::move(groups.front());
  }
}

// ⌈log_r m⌉ for m >= 1.
int ceil_log(std::size_t m, std::size_t r) {
  int l = 0;
  for (std::size_t p = 1; p < m; p *= r) ++l;
  return l;
}

std::vector<SciSend> uniform_sends(std::vector<NodeId> part, int r) {
  std::vector<SciSend> out;
  const std::size_t rr = static_cast<std::size_t>(r);
  for (int level = 1; part.size() > 1; ++level) {
    if (part.size() <= rr) {
      out.push_back(chain_send(part, level));
      return out;
    }
    std::size_t chunk = 1;
    for (int i = 1; i < ceil_log(part.size(), rr); ++i) chunk *= rr;
    for (std::size_t at = chunk; at < part.size(); at += chunk) {
      const std::size_t end = std::min(part.size(), at + chunk);
      out.push_back({part[at],
                     std::vector<NodeId>(part.begin() + static_cast<std::ptrdiff_t>(at),
                                         part.begin() + static_cast<std::ptrdiff_t>(end)),
                     level, false});
    }
    part.resize(chunk);
  }
  return out;
}

}  // namespace

const char* to_string(SciScheme s) {
  switch (s) {
    case SciScheme::separate: return "separate";
    case SciScheme::utorus: return "utorus";
    case SciScheme::storus: return "storus";
    case SciScheme::mdtorus: return "mdtorus";
    case SciScheme::mutorus: return "mutorus";
  }
  return "?";
}

std::vector<NodeId> sci_dimension_order(const DirectTopology& t, NodeId root, const std::vector<NodeId>& dests) {
  // Node ids are mixed-radix numbers with σ_0 least significant, so id order
  // is the lexicographic order of (σ_{n-1}, ..., σ_0).
  (void)t;
  return sorted_from_root(root, dests, [](NodeId x) { return x; });
}

long long sci_cycle_label(const DirectTopology& t, NodeId u) {
  if (!t.is_torus() || !t.regular())
    throw std::invalid_argument("the S-torus cycle (seed004 Eq. 2) needs a regular k-ary torus; " + t.spec() +
                                " is not one");
  const int n = t.dimensions();
  const long long k = t.radix(0);
  long long label = 0, weight = 1, suffix = 0;
  std::vector<long long> sums(static_cast<std::size_t>(n));
  for (int j = n - 1; j >= 0; --j) sums[static_cast<std::size_t>(j)] = suffix += t.sigma(u, j) + 1;
  for (int i = 0; i < n - 1; ++i, weight *= k) label += weight * (sums[static_cast<std::size_t>(i)] % k);
  return label + weight * (t.sigma(u, n - 1) + 1);
}

std::vector<NodeId> sci_cycle_order(const DirectTopology& t, NodeId root, const std::vector<NodeId>& dests) {
  return sorted_from_root(root, dests, [&](NodeId x) { return sci_cycle_label(t, x); });
}

std::vector<NodeId> sci_group_order(const DirectTopology& t, SciScheme s, NodeId root,
                                    const std::vector<NodeId>& dests) {
  check_group(t, s, root, dests);
  if (s == SciScheme::separate || s == SciScheme::utorus) return sci_dimension_order(t, root, dests);
  return sci_cycle_order(t, root, dests);
}

std::vector<SciSend> sci_local_sends(const DirectTopology& t, SciScheme s, int r, const std::vector<NodeId>& field) {
  if (field.empty())
    throw std::invalid_argument(std::string(label(s)) + ": empty field (field[0] must be the node itself)");
  if (s == SciScheme::mutorus && r < 2)
    throw std::invalid_argument("M_u-torus(r) needs r >= 2 nodes per partition (got r = " + std::to_string(r) + ")");
  std::vector<SciSend> out;
  switch (s) {
    case SciScheme::separate:
      for (std::size_t i = 1; i < field.size(); ++i) out.push_back({field[i], {field[i]}, 1, false});
      return out;
    case SciScheme::utorus: {
      int level = 0;
      for (TorusSend& u : utorus_local_sends(field)) out.push_back({u.to, std::move(u.field), ++level, false});
      return out;
    }
    case SciScheme::storus:
      if (field.size() > 1) out.push_back(chain_send(field, 1));
      return out;
    case SciScheme::mdtorus: return dimensional_sends(t, field);
    case SciScheme::mutorus: return uniform_sends(field, r);
  }
  return out;
}

SciPlan plan_sci(const DirectTopology& t, SciScheme s, NodeId root, const std::vector<NodeId>& dests, int r) {
  SciPlan plan;
  plan.scheme = s;
  plan.r = s == SciScheme::mutorus ? r : 0;
  plan.order = sci_group_order(t, s, root, dests);
  struct Holder {
    std::vector<NodeId> field;
    int step, phase;
    bool by_chain;
  };
  std::vector<Holder> todo{{plan.order, 0, 0, false}};
  for (std::size_t h = 0; h < todo.size(); ++h) {
    const Holder at = todo[h];   // a copy: todo grows below
    const std::vector<SciSend> sends = sci_local_sends(t, s, r, at.field);
    for (std::size_t i = 0; i < sends.size(); ++i) {
      const SciSend& x = sends[i];
      const int step = at.step + static_cast<int>(i) + 1;
      const int phase = x.chain && at.by_chain ? at.phase : at.phase + x.level;
      plan.unicasts.push_back({at.field.front(), x.to, step, phase, x.field});
      todo.push_back({x.field, step, phase, x.chain});
    }
  }
  std::unordered_map<NodeId, std::size_t> pos;
  for (std::size_t i = 0; i < plan.order.size(); ++i) pos.emplace(plan.order[i], i);
  std::stable_sort(plan.unicasts.begin(), plan.unicasts.end(), [&](const SciUnicast& a, const SciUnicast& b) {
    return std::make_pair(a.step, pos.at(a.sender)) < std::make_pair(b.step, pos.at(b.sender));
  });
  for (const SciUnicast& u : plan.unicasts) {
    plan.steps = std::max(plan.steps, u.step);
    plan.phases = std::max(plan.phases, u.phase);
  }
  return plan;
}

SciLinkUse sci_link_use(const topo::DirectRouting& routing, const SciPlan& p) {
  const DirectTopology& t = routing.topology();
  SciLinkUse use;
  std::unordered_set<int> links;
  std::map<int, int> per_step;
  std::set<NodeId> targets;
  const NodeId root = p.order.empty() ? -1 : p.order.front();
  for (const SciUnicast& u : p.unicasts) {
    for (const topo::RouteHop& h : routing.route(u.sender, u.receiver)) {
      ++use.link_visits;
      links.insert(t.channel_slot(h.node, h.dim, h.dir));
    }
    use.concurrency = std::max(use.concurrency, ++per_step[u.step]);
    if (u.sender == root) targets.insert(u.receiver);
  }
  use.used_links = static_cast<int>(links.size());
  use.root_targets = static_cast<int>(targets.size());
  use.utilization = use.used_links ? static_cast<double>(use.link_visits) / use.used_links : 0.0;
  return use;
}

namespace {

// Receptions: exactly the destinations, once each.
void check_receptions(const DirectTopology& t, const SciPlan& p, std::vector<std::string>& out) {
  if (p.order.empty()) {
    out.push_back("the group is empty");
    return;
  }
  const std::set<NodeId> members(p.order.begin(), p.order.end());
  if (members.size() != p.order.size()) out.push_back("the order " + node_set_text(t, p.order) + " repeats a node");
  std::map<NodeId, int> times;
  for (const SciUnicast& u : p.unicasts) ++times[u.receiver];
  for (const auto& [node, n] : times) {
    if (node == p.order.front()) out.push_back("the root " + node_name_or_id(t, node) + " receives");
    else if (!members.count(node)) out.push_back(node_name_or_id(t, node) + " receives but is not in the group");
    else if (n > 1) out.push_back(node_name_or_id(t, node) + " receives " + std::to_string(n) + " times");
  }
  for (std::size_t i = 1; i < p.order.size(); ++i)
    if (!times.count(p.order[i])) out.push_back(node_name_or_id(t, p.order[i]) + " never receives");
}

// Senders: hold the message first, one send per step, fields they hold.
void check_senders(const DirectTopology& t, const SciPlan& p, std::vector<std::string>& out) {
  std::unordered_map<NodeId, int> got{{p.order.front(), 0}};
  std::unordered_map<NodeId, std::set<NodeId>> holds{{p.order.front(), {p.order.begin(), p.order.end()}}};
  for (const SciUnicast& u : p.unicasts) {
    got.emplace(u.receiver, u.step);
    holds.emplace(u.receiver, std::set<NodeId>(u.field.begin(), u.field.end()));
  }
  std::set<std::pair<NodeId, int>> sent;
  std::unordered_map<NodeId, std::set<NodeId>> given;
  int steps = 0, phases = 0;
  for (const SciUnicast& u : p.unicasts) {
    steps = std::max(steps, u.step);
    phases = std::max(phases, u.phase);
    const auto it = got.find(u.sender);
    if (it == got.end() || it->second >= u.step)
      out.push_back(node_name_or_id(t, u.sender) + " sends in step " + std::to_string(u.step) + " before it holds the message");
    if (!sent.insert({u.sender, u.step}).second)
      out.push_back(node_name_or_id(t, u.sender) + " sends twice in step " + std::to_string(u.step));
    if (u.field.empty() || u.field.front() != u.receiver)
      out.push_back("the field sent to " + node_name_or_id(t, u.receiver) + " does not start with it: " + node_set_text(t, u.field));
    for (NodeId x : u.field) {
      if (!holds[u.sender].count(x) || x == u.sender)
        out.push_back(node_name_or_id(t, u.sender) + " hands on " + node_name_or_id(t, x) + ", which is not in its field");
      if (!given[u.sender].insert(x).second)
        out.push_back(node_name_or_id(t, u.sender) + " hands on " + node_name_or_id(t, x) + " twice");
    }
  }
  if (steps != p.steps || phases != p.phases)
    out.push_back("steps/phases are " + std::to_string(p.steps) + "/" + std::to_string(p.phases) +
                  " but the unicasts reach " + std::to_string(steps) + "/" + std::to_string(phases));
}

}  // namespace

std::vector<std::string> sci_violations(const DirectTopology& t, const SciPlan& p) {
  std::vector<std::string> out;
  check_receptions(t, p, out);
  if (!p.order.empty()) check_senders(t, p, out);
  return out;
}

}  // namespace wormcast::algo
