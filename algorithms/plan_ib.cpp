// The InfiniBand fat-tree schemes of seed003 (Zhou, Lin, Chung) as scheme
// records (ib_scheme.h): in the plan contract on IBFT(m, n) (--topology
// ibft:M,N; algorithms/ib_multicast.h) and as the tables of one trial of
// the ib_multicast workload:
//  * ib-cyclic: one multicast packet through the MFT of the (source, group)
//    pair, the union of the LFT ports of the destinations' cyclic DLIDs
//    (§5-§7);
//  * ib-opensm: one multicast packet through OpenSM's one shared tree of the
//    group, built over the destinations and the source (the sender joins,
//    §8), rooted at the switch nearest to all members;
//  * ib-unicast: one unicast per destination with its cyclic DLID, sent back
//    to back (§9): message i in step i.
// A multicast packet's path lists the switches it visits, breadth-first from
// the source's leaf switch (a tree, not a line); `mft` maps each switch of
// the table to its sorted output ports, `link_traversals` counts the links
// the copies cross (the source's injection link included).
#include <algorithm>
#include <deque>
#include <stdexcept>

#include "algorithms/ib_scheme.h"

namespace wormcast::algo {

using nlohmann::json;
using topo::NodeId;

namespace {

const topo::FatTree& need_fat_tree(const PlanRequest& q, const std::string& scheme) {
  if (q.kind() != NetworkClass::fat_tree)
    throw std::invalid_argument("scheme '" + scheme + "' needs a fat tree (--topology ibft:M,N, e.g. ibft:8,3); " +
                                (q.network ? q.network->spec + " is not one" : std::string("no --topology given")));
  if (q.destinations.empty())
    throw std::invalid_argument("--dests: the destination set is empty (give --dests or --random)");
  return *q.network->fat_tree;
}

// The switches a packet visits through `mft`, breadth-first from the
// source's leaf switch (each forwards to its entry's ports but the arrival port).
std::vector<std::string> tree_path(const topo::FatTree& t, NodeId src, const Mft& mft) {
  std::vector<std::string> out;
  std::deque<std::pair<int, int>> todo{{t.leaf_switch(src), t.leaf_port(src)}};
  while (!todo.empty()) {
    const auto [sw, in] = todo.front();
    todo.pop_front();
    out.push_back(t.switch_name(sw));
    const auto it = mft.find(sw);
    if (it == mft.end()) continue;
    for (int port : it->second) {
      const topo::FatTree::PortPeer p = t.peer(sw, port);
      if (port != in && !p.is_node) todo.emplace_back(p.id, p.port);
    }
  }
  return out;
}

json mft_json(const topo::FatTree& t, const Mft& mft) {
  json out = json::object();
  for (const auto& [sw, ports] : mft) out[t.switch_name(sw)] = ports;
  return out;
}

// One multicast packet through `mft`, checked (exactly once, a tree).
MulticastPlan multicast_plan(const topo::FatTree& t, const PlanRequest& q, const std::string& scheme, const Mft& mft) {
  const NodeId src = q.source.value_or(0);
  const std::vector<std::string> bad = ib_mft_violations(t, src, q.destinations, mft);
  if (!bad.empty()) throw std::logic_error(scheme + ": the forwarding table is wrong: " + bad.front());
  MulticastPlan p;
  p.source = src;
  p.destinations = q.destinations;
  p.steps = 1;
  PlanMessage m{src, 1, q.destinations, tree_path(t, src, mft), json::object()};
  p.messages.push_back(std::move(m));
  p.extras = {{"mft", mft_json(t, mft)},
              {"switches", mft.size()},
              {"link_traversals", deliver_mft(t, src, mft).link_traversals}};
  return p;
}

// The senders' destinations: the members but the sender itself.
std::vector<NodeId> others(const std::vector<NodeId>& members, NodeId sender) {
  std::vector<NodeId> out;
  for (NodeId m : members)
    if (m != sender) out.push_back(m);
  return out;
}

// ib-cyclic: one MFT per (sender, group), the union of the LFT ports of its
// destinations' cyclic DLIDs (§5-§7).
class CyclicScheme final : public IbScheme {
 public:
  MulticastPlan plan(const PlanRequest& q) const override {
    const topo::FatTree& t = need_fat_tree(q, "ib-cyclic");
    const NodeId src = q.source.value_or(0);
    MulticastPlan p = multicast_plan(t, q, "ib-cyclic", cyclic_mft(t, src, q.destinations));
    json dlids = json::object();
    for (NodeId d : q.destinations) dlids[t.node_name(d)] = cyclic_dlid(t, src, d);
    p.messages.front().extras["dlids"] = dlids;
    p.extras["lids_per_node"] = lids_per_node(t);
    return p;
  }
  // One table per sender with someone to send to, in sender order.
  IbTrialPlan trial(const topo::FatTree& t, const std::vector<NodeId>& senders,
                    const std::vector<NodeId>& members) const override {
    IbTrialPlan out;
    for (std::size_t i = 0; i < senders.size(); ++i) {
      const std::vector<NodeId> dests = others(members, senders[i]);
      if (!dests.empty()) out.tables.push_back({cyclic_mft(t, senders[i], dests), dests, {i}});
    }
    return out;
  }
};

// ib-opensm: OpenSM's one shared spanning tree per group, over the members
// and the senders. IB makes a sender that is not a member join (SendOnly,
// §8): its port is in the tree, so every other sender's copies reach it and
// its HCA drops them. The paper does not say how its simulator treated such
// senders; sender_ports out_of_tree keeps the tree but prunes every port
// that leads to no member (prune_mft): the senders' packets still climb to
// the tree from their leaf switches, and no copy goes toward a branch
// without a member.
class OpenSmScheme final : public IbScheme {
 public:
  void visit(ParamVisitor& v) override {
    v.choice("sender_ports", sender_ports_, {"in_tree", "out_of_tree"},
             "the ports of senders that are not members; in_tree (default: they join SendOnly, copies reach them "
             "and their HCAs drop them) or out_of_tree (the same tree without the branches that lead to no "
             "member: no copy goes toward them)");
  }
  MulticastPlan plan(const PlanRequest& q) const override {
    const topo::FatTree& t = need_fat_tree(q, "ib-opensm");
    const NodeId src = q.source.value_or(0);
    std::vector<NodeId> tree = q.destinations;
    tree.push_back(src);   // the sender joins the group
    MulticastPlan p = multicast_plan(t, q, "ib-opensm", table(t, tree, q.destinations));
    p.extras["root"] = t.switch_name(opensm_root(t, tree));
    p.extras["sender_ports"] = sender_ports_;
    return p;
  }
  IbTrialPlan trial(const topo::FatTree& t, const std::vector<NodeId>& senders,
                    const std::vector<NodeId>& members) const override {
    std::vector<NodeId> tree = members;
    for (NodeId s : senders)
      if (std::find(members.begin(), members.end(), s) == members.end()) tree.push_back(s);
    IbTable table{this->table(t, tree, members), out_of_tree() ? members : tree, {}};
    for (std::size_t i = 0; i < senders.size(); ++i) table.senders.push_back(i);
    IbTrialPlan out;
    out.tables.push_back(std::move(table));
    return out;
  }

 private:
  bool out_of_tree() const { return sender_ports_ == "out_of_tree"; }
  // The tree over `tree` (the members and the senders), pruned to the
  // members when the senders stay out of it.
  Mft table(const topo::FatTree& t, const std::vector<NodeId>& tree, const std::vector<NodeId>& members) const {
    const Mft mft = opensm_mft(t, tree);
    return out_of_tree() ? prune_mft(t, mft, members) : mft;
  }
  std::string sender_ports_ = "in_tree";
};

// ib-unicast: one unicast per destination with its cyclic DLID, back to
// back (§9): message i in step i.
class UnicastScheme final : public IbScheme {
 public:
  MulticastPlan plan(const PlanRequest& q) const override {
    const topo::FatTree& t = need_fat_tree(q, "ib-unicast");
    const NodeId src = q.source.value_or(0);
    const std::vector<std::vector<IbHop>> routes = unicast_routes(t, src, q.destinations);
    MulticastPlan p;
    p.source = src;
    p.destinations = q.destinations;
    int links = 0;
    for (std::size_t i = 0; i < routes.size(); ++i) {
      std::vector<std::string> path;
      for (const IbHop& h : routes[i]) path.push_back(t.switch_name(h.sw));
      PlanMessage m{src, static_cast<int>(i) + 1, {q.destinations[i]}, std::move(path), json::object()};
      m.extras = {{"dlid", cyclic_dlid(t, src, q.destinations[i])}};
      p.messages.push_back(std::move(m));
      links += static_cast<int>(routes[i].size()) + 1;   // the injection link and one per switch
    }
    p.steps = static_cast<int>(routes.size());
    p.extras = {{"link_traversals", links}, {"lids_per_node", lids_per_node(t)}};
    return p;
  }
  IbTrialPlan trial(const topo::FatTree&, const std::vector<NodeId>&, const std::vector<NodeId>&) const override {
    IbTrialPlan out;
    out.unicasts = true;
    return out;
  }
};

}  // namespace

const IbSchemeRegistry& ib_schemes() {
  static const IbSchemeRegistry r = [] {
    IbSchemeRegistry reg("InfiniBand multicast scheme");
    reg.add("cyclic", "InfiniBand fat tree, hardware multicast: cyclic path selection, MFT = union of the LFT ports "
            "(seed003)", [] { return std::make_unique<CyclicScheme>(); });
    reg.add("opensm", "InfiniBand fat tree, hardware multicast: OpenSM's one spanning tree per group (seed003 §8)",
            [] { return std::make_unique<OpenSmScheme>(); });
    reg.add("unicast", "InfiniBand fat tree: one unicast per destination with its cyclic DLID (seed003 §9)",
            [] { return std::make_unique<UnicastScheme>(); });
    return reg;
  }();
  return r;
}

namespace {

OptionSchema schema_of(IbScheme& s) {
  return [&s](ParamVisitor& v) { s.visit(v); };
}

}  // namespace

void set_options(IbScheme& s, const OptionTexts& given, const SchemeKeys& keys) {
  set_scheme_options(schema_of(s), given, keys, ib_scheme_options());
}

std::vector<SchemeOptionInfo> ib_scheme_options() {
  return registry_options(ib_schemes());
}

// `wormcast plan` names them ib-cyclic, ib-opensm, ib-unicast.
void register_ib_schemes(SchemeRegistry& r) {
  for (const auto& e : ib_schemes().entries()) {
    const std::string name = e.name;
    r.add({"ib-" + name, e.description, [name](ParamVisitor& v) { ib_schemes().make(name)->visit(v); },
           [name](const PlanRequest& q) {
             const std::unique_ptr<IbScheme> s = ib_schemes().make(name);
             read_options(schema_of(*s), q, "ib-" + name);
             return s->plan(q);
           }});
  }
}

}  // namespace wormcast::algo
