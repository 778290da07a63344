// The switch-based schemes of seed000 §5 as scheme records (switch_scheme.h),
// on irregular up*/down* networks: path-lg / path-greedy (POC multi-drop
// worms, Fig. 13, scheduled Less-Greedy or Greedy, §5.7), ssr (one worm per
// destination switch, §5.2, Less-Greedy) and tree (one bit-string worm,
// §5.9, Fig. 18). In the plan contract, phases are the steps, paths the
// switches a worm crosses ("sw3"), and each worm carries its header bits as
// headers.h encodes them -- the same bits the simulated worms carry.
#include <set>
#include <stdexcept>

#include "algorithms/headers.h"
#include "algorithms/multiphase.h"
#include "algorithms/multicast_set.h"
#include "algorithms/plan_detail.h"
#include "algorithms/reachability.h"
#include "algorithms/switch_scheme.h"

namespace wormcast::algo {

using detail::choice;
using detail::switch_name;
using nlohmann::json;
using topo::NodeId;

namespace {

const std::initializer_list<std::pair<const char*, Scheduler>> kSchedulers = {{"lg", Scheduler::less_greedy},
                                                                              {"greedy", Scheduler::greedy}};
const std::initializer_list<std::pair<const char*, SsrId>> kIds = {{"switch", SsrId::switch_id},
                                                                   {"node", SsrId::node_id}};
const std::initializer_list<std::pair<const char*, PocDag>> kDags = {{"full", PocDag::full_down_dag},
                                                                     {"dfs", PocDag::dfs_tree}};

void flit_bits_option(ParamVisitor& v, SwitchPlanOptions& o) {
  v.count("flit_bits", o.flit_bits, "bits per flit, for header_flits; default 8", 1, 65536);
}

SwitchPlanOptions read_plan_options(const SwitchScheme& s, const PlanRequest& q, const std::string& name) {
  SwitchPlanOptions o;
  read_options([&s, &o](ParamVisitor& v) { s.plan_options(v, o); }, q, name);
  return o;
}

const PlanNetwork& need_irregular(const PlanRequest& q, const std::string& scheme) {
  if (q.kind() != NetworkClass::irregular)
    throw std::invalid_argument(
        "scheme '" + scheme +
        "' needs an irregular switch network (--topology irregular:SxPpN[sSEED], a topology file, "
        "or --switches ...); " +
        (q.network ? q.network->spec + " is a direct network" : std::string("no --topology given")));
  if (q.destinations.empty())
    throw std::invalid_argument("--dests: the destination set is empty (give --dests or --random)");
  return *q.network;
}

std::string bit_string(const Bits& b) {
  std::string s;
  for (bool bit : b) s += bit ? '1' : '0';
  return s;
}

json header_extras(const Bits& h, int flit_bits) {
  const int bits = static_cast<int>(h.size());
  return {{"header_bits", bits}, {"header_flits", header_flits(bits, flit_bits)}, {"header", bit_string(h)}};
}

std::vector<std::string> switch_names(const std::vector<topo::SwitchId>& path) {
  std::vector<std::string> out;
  for (topo::SwitchId s : path) out.push_back(switch_name(s));
  return out;
}

json tree_branches(const PlanNetwork& net, const TreeTrace& tr) {
  json out = json::array();
  for (const TreeHop& h : tr.hops) {
    const topo::PortPeer& peer = net.topology->peer(h.sw, h.port);
    json dests = json::array();
    for (int d : h.dests.to_nodes()) dests.push_back(d);
    out.push_back({{"from", switch_name(h.sw)},
                   {"port", h.port},
                   {"to", peer.kind == topo::PeerKind::node ? json(peer.id) : json(switch_name(peer.id))},
                   {"parent", h.parent},
                   {"up_down", h.up_down},
                   {"destinations", dests}});
  }
  return out;
}

// tree: one bit-string worm from the source to every destination, replicated
// by the reachability-string decoders; nothing to relay.
class TreeScheme final : public SwitchScheme {
 public:
  const char* decoder() const override { return "reachability"; }
  void plan_options(ParamVisitor& v, SwitchPlanOptions& o) const override { flit_bits_option(v, o); }

  static Bits header(const topo::Topology& t, const std::vector<NodeId>& dests) {
    return encode_tree(HeaderGeometry::of(t), true, NodeBits::of(t.num_nodes(), dests));
  }

  MulticastPlan plan(const PlanRequest& q) const override {
    const PlanNetwork& net = need_irregular(q, "tree");
    const topo::Topology& t = *net.topology;
    const int fb = read_plan_options(*this, q, "tree").flit_bits;
    const NodeId src = q.source.value_or(0);
    const TreeTrace tr = run_tree_worm(t, *net.routing, compute_reachability(t, *net.routing), src, q.destinations);
    MulticastPlan p;
    p.source = src;
    p.destinations = q.destinations;
    p.steps = 1;
    PlanMessage m{src, 1, tr.delivered, {}, json::object()};
    std::set<topo::SwitchId> seen;
    int links = 0;
    for (const TreeHop& h : tr.hops) {
      if (seen.insert(h.sw).second) m.path.push_back(switch_name(h.sw));
      if (t.peer(h.sw, h.port).kind == topo::PeerKind::switch_port) ++links;
    }
    p.messages.push_back(std::move(m));
    p.extras = header_extras(header(t, q.destinations), fb);
    p.extras["encoding"] = "[up-down 1][destination string " + std::to_string(t.num_nodes()) + "]";
    p.extras["flit_bits"] = fb;
    p.extras["used_links"] = links;
    p.extras["branches"] = tree_branches(net, tr);
    return p;
  }

  std::vector<WormSend> source_worms(const topo::Topology& t, const topo::UpDownRouting&, SsrId, NodeId source,
                                     const std::vector<NodeId>& dests, int bytes) const override {
    check_multicast(t, source, dests);
    WormSend w;
    w.encoding = WormEncoding::tree;
    w.header_bits = header(t, dests);
    w.dests = dests;
    w.bytes = bytes;
    return {w};
  }
  std::vector<WormSend> relay_worms(const topo::Topology&, SsrId, const RelayWorm*, NodeId, int) const override {
    return {};
  }
};

// The multi-phase schemes: multi-drop worms on POCs (encoding multidrop) or
// one worm per destination switch (encoding ssr), phases scheduled by
// `sched`. Every worm carries its RelayWorm, from which each receiver
// computes alone what it sends next (relay_sends).
class PhasedScheme final : public SwitchScheme {
 public:
  // `scheduler_option`: `plan` takes --scheduler (ssr), else `sched` is fixed.
  PhasedScheme(std::string name, WormEncoding enc, Scheduler sched, bool scheduler_option)
      : name_(std::move(name)), enc_(enc), sched_(sched), scheduler_option_(scheduler_option) {}

  const char* decoder() const override { return "ssr"; }
  void plan_options(ParamVisitor& v, SwitchPlanOptions& o) const override {
    v.choice("id", o.id, {"switch", "node"}, "what the header's ID field names: switch (default) or node");
    v.choice("poc_dag", o.poc_dag, {"full", "dfs"}, "Fig. 13 step 1 reading: full (default) or dfs");
    v.boolean("recompute_weights", o.recompute_weights, "recompute POC weights after each chain");
    flit_bits_option(v, o);
    if (!scheduler_option_) return;
    o.scheduler = detail::name_of(sched_, kSchedulers);   // the record's own phases unless given
    v.choice("scheduler", o.scheduler, {"lg", "greedy"}, "phase scheduler: lg (Less-Greedy, default) or greedy");
  }

  MulticastPlan plan(const PlanRequest& q) const override {
    const PlanNetwork& net = need_irregular(q, name_);
    const SwitchPlanOptions o = read_plan_options(*this, q, name_);
    const topo::Topology& t = *net.topology;
    const Scheduler sch = scheduler_option_ ? choice(o.scheduler, kSchedulers) : sched_;
    const SsrId id = choice(o.id, kIds);
    const int fb = o.flit_bits;
    PocOptions poc;
    poc.dag = choice(o.poc_dag, kDags);
    poc.recompute_weights = o.recompute_weights;
    const NodeId src = q.source.value_or(0);
    const Schedule s = schedule(t, *net.routing, src, q.destinations, sch, poc);
    MulticastPlan p;
    p.source = src;
    p.destinations = q.destinations;
    p.steps = s.phases;
    for (const ScheduledWorm& w : s.worms) {
      PlanMessage m{w.sender, w.phase, w.destinations, switch_names(w.route.path), json::object()};
      m.extras = header_extras(header(t, id, w.destinations), fb);
      if (enc_ == WormEncoding::multidrop) m.extras["pairs"] = multidrop_pairs(t, w.destinations, id).size();
      p.messages.push_back(std::move(m));
    }
    p.extras = {{"scheduler", detail::name_of(sch, kSchedulers)}, {"id", detail::name_of(id, kIds)},
                {"encoding", encoding_text(HeaderGeometry::of(t), id)}, {"flit_bits", fb},
                {"worms", s.worms.size()}, {"poc_dag", detail::name_of(poc.dag, kDags)},
                {"recompute_weights", poc.recompute_weights}};
    return p;
  }

  std::vector<WormSend> source_worms(const topo::Topology& t, const topo::UpDownRouting& r, SsrId id,
                                     NodeId source, const std::vector<NodeId>& dests, int bytes) const override {
    check_multicast(t, source, dests);
    std::vector<WormSend> out;
    for (const RelayWorm& w : relay_plan(schedule(t, r, source, dests, sched_, {})).worms)
      out.push_back(send(t, id, w, bytes));
    return out;
  }
  std::vector<WormSend> relay_worms(const topo::Topology& t, SsrId id, const RelayWorm* got, NodeId me,
                                    int bytes) const override {
    std::vector<WormSend> out;
    if (!got) return out;
    for (const RelayWorm& w : relay_sends(*got, me)) out.push_back(send(t, id, w, bytes));
    return out;
  }

 private:
  Schedule schedule(const topo::Topology& t, const topo::UpDownRouting& r, NodeId src,
                    const std::vector<NodeId>& dests, Scheduler sch, const PocOptions& poc) const {
    return enc_ == WormEncoding::ssr ? plan_ssr(t, r, src, dests, sch, poc)
                                     : plan_path_based(t, r, src, dests, sch, poc);
  }
  Bits header(const topo::Topology& t, SsrId id, const std::vector<NodeId>& dests) const {
    const std::vector<DropPair> pairs = multidrop_pairs(t, dests, id);
    if (enc_ == WormEncoding::multidrop) return encode_multidrop(HeaderGeometry::of(t), pairs, id);
    if (pairs.size() != 1) throw std::logic_error("SSR worm with destinations on several switches");
    return encode_ssr(HeaderGeometry::of(t), pairs.front(), id);
  }
  WormSend send(const topo::Topology& t, SsrId id, const RelayWorm& w, int bytes) const {
    WormSend out;
    out.encoding = enc_;
    out.header_bits = header(t, id, w.destinations);
    out.dests = w.destinations;
    out.bytes = bytes;
    if (!w.tasks.empty()) out.relay_worm = std::make_shared<const RelayWorm>(w);
    return out;
  }
  std::string encoding_text(const HeaderGeometry& g, SsrId id) const {
    const std::string wid = std::to_string(id_field_bits(id == SsrId::switch_id ? g.num_switches : g.num_nodes));
    const std::string idf = std::string(id == SsrId::switch_id ? "switch ID " : "node ID ") + wid;
    const std::string ports = "port string " + std::to_string(g.ports_per_switch);
    if (enc_ == WormEncoding::ssr) return "[tag 1][" + idf + "][" + ports + "]";
    return "[tag 1][pair count " + std::to_string(id_field_bits(g.num_switches + 1)) + "][(" + idf + ", " + ports +
           ") x pairs]";
  }

  std::string name_;
  WormEncoding enc_;
  Scheduler sched_;
  bool scheduler_option_;
};

}  // namespace

const SwitchSchemeRegistry& switch_schemes() {
  static const SwitchSchemeRegistry r = [] {
    SwitchSchemeRegistry reg("switch-based scheme");
    reg.add("tree", "one tree-based bit-string worm with reachability strings (seed000 §5.9, Fig. 18); "
            "switch.decoder reachability", [] { return std::make_unique<TreeScheme>(); });
    reg.add("path-lg", "path-based multi-drop worms on POCs (seed000 Fig. 13), Less-Greedy phases (§5.7); "
            "switch.decoder ssr", [] {
      return std::make_unique<PhasedScheme>("path-lg", WormEncoding::multidrop, Scheduler::less_greedy, false);
    });
    reg.add("path-greedy", "path-based multi-drop worms on POCs (seed000 Fig. 13), Greedy phases (§5.7); "
            "switch.decoder ssr", [] {
      return std::make_unique<PhasedScheme>("path-greedy", WormEncoding::multidrop, Scheduler::greedy, false);
    });
    reg.add("ssr", "single switch replication: one worm per destination switch (seed000 §5.2), Less-Greedy "
            "phases (plan: --scheduler lg|greedy); switch.decoder ssr", [] {
      return std::make_unique<PhasedScheme>("ssr", WormEncoding::ssr, Scheduler::less_greedy, true);
    });
    return reg;
  }();
  return r;
}

const SwitchScheme& switch_scheme(const std::string& name) {
  static const std::vector<std::pair<std::string, std::unique_ptr<SwitchScheme>>> made = [] {
    std::vector<std::pair<std::string, std::unique_ptr<SwitchScheme>>> v;
    for (const std::string& n : switch_schemes().names()) v.emplace_back(n, switch_schemes().make(n));
    return v;
  }();
  for (const auto& [n, s] : made)
    if (n == name) return *s;
  throw std::invalid_argument("unknown switch-based scheme '" + name + "' (" + switch_schemes().joined_names() + ")");
}

namespace {

void collect_worms(const SwitchScheme& s, const topo::Topology& t, SsrId id, const WormSend& w, int bytes,
                   std::vector<WormSend>& all, int depth) {
  all.push_back(w);
  if (depth > t.num_nodes()) throw std::logic_error("switch multicast: relay nesting does not end");
  for (const auto& task : w.relay_worm ? w.relay_worm->tasks : std::vector<RelayTask>{})
    for (const auto& next : s.relay_worms(t, id, w.relay_worm.get(), task.relay, bytes))
      collect_worms(s, t, id, next, bytes, all, depth + 1);
}

}  // namespace

std::vector<WormSend> all_worms(const SwitchScheme& s, const topo::Topology& t, const topo::UpDownRouting& r, SsrId id,
                                topo::NodeId source, const std::vector<topo::NodeId>& dests, int bytes) {
  std::vector<WormSend> all;
  for (const WormSend& w : s.source_worms(t, r, id, source, dests, bytes)) collect_worms(s, t, id, w, bytes, all, 0);
  return all;
}

void register_switch_schemes(SchemeRegistry& r) {
  for (const auto& e : switch_schemes().entries()) {
    const SwitchScheme& s = switch_scheme(e.name);
    r.add({e.name, e.description, [&s](ParamVisitor& v) {
             SwitchPlanOptions o;
             s.plan_options(v, o);
           },
           [&s](const PlanRequest& q) { return s.plan(q); }});
  }
}

}  // namespace wormcast::algo
