// The switch-based schemes of seed000 §5 in the plan contract, on irregular
// up*/down* networks: path-lg / path-greedy (POC multi-drop worms, Fig. 13,
// scheduled Less-Greedy or Greedy), ssr (one worm per destination switch,
// Less-Greedy by default) and tree (one bit-string worm, Fig. 18). Phases are
// the contract's steps; paths are the switches a worm crosses ("sw3"); each
// worm carries its header bits as headers.h encodes them.
#include <set>
#include <stdexcept>

#include "algorithms/headers.h"
#include "algorithms/multiphase.h"
#include "algorithms/plan.h"
#include "algorithms/plan_detail.h"
#include "algorithms/reachability.h"

namespace wormcast::algo {

using detail::at_least;
using detail::pick;
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

enum class Kind { path, ssr };

int flit_bits(const PlanOptions& o) {
  const long long fb = at_least(o.flit_bits, "--flit-bits", 1, 8, "bits per flit");
  if (fb > 65536)
    throw std::invalid_argument("--flit-bits " + std::to_string(fb) + " is larger than any flit (at most 65536)");
  return static_cast<int>(fb);
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

std::string encoding(Kind k, const HeaderGeometry& g, SsrId id) {
  const std::string wid = std::to_string(id_field_bits(id == SsrId::switch_id ? g.num_switches : g.num_nodes));
  const std::string idf = std::string(id == SsrId::switch_id ? "switch ID " : "node ID ") + wid;
  const std::string ports = "port string " + std::to_string(g.ports_per_switch);
  if (k == Kind::ssr) return "[tag 1][" + idf + "][" + ports + "]";
  return "[tag 1][pair count " + std::to_string(id_field_bits(g.num_switches + 1)) + "][(" + idf + ", " + ports +
         ") x pairs]";
}

MulticastPlan plan_worms(Kind kind, std::optional<Scheduler> fixed, const std::string& scheme, const PlanRequest& q) {
  const PlanNetwork& net = need_irregular(q, scheme);
  const PlanOptions& o = q.options;
  const topo::Topology& t = *net.topology;
  const Scheduler sch = fixed ? *fixed : pick(o.scheduler, "--scheduler", kSchedulers, Scheduler::less_greedy);
  const SsrId id = pick(o.ssr_id, "--id", kIds, SsrId::switch_id);
  const int fb = flit_bits(o);
  PocOptions poc;
  poc.dag = pick(o.poc_dag, "--poc-dag", kDags, PocDag::full_down_dag);
  poc.recompute_weights = o.recompute_weights.value_or(false);
  const NodeId src = q.source.value_or(0);
  const Schedule s = kind == Kind::ssr ? plan_ssr(t, *net.routing, src, q.destinations, sch, poc)
                                       : plan_path_based(t, *net.routing, src, q.destinations, sch, poc);
  const HeaderGeometry g = HeaderGeometry::of(t);
  MulticastPlan p;
  p.source = src;
  p.destinations = q.destinations;
  p.steps = s.phases;
  for (const ScheduledWorm& w : s.worms) {
    PlanMessage m{w.sender, w.phase, w.destinations, switch_names(w.route.path), json::object()};
    const std::vector<DropPair> pairs = multidrop_pairs(t, w.destinations, id);
    m.extras = header_extras(kind == Kind::ssr ? encode_ssr(g, pairs.front(), id) : encode_multidrop(g, pairs, id), fb);
    if (kind == Kind::path) m.extras["pairs"] = pairs.size();
    p.messages.push_back(std::move(m));
  }
  p.extras = {{"scheduler", detail::name_of(sch, kSchedulers)}, {"id", detail::name_of(id, kIds)},
              {"encoding", encoding(kind, g, id)}, {"flit_bits", fb}, {"worms", s.worms.size()},
              {"poc_dag", detail::name_of(poc.dag, kDags)}, {"recompute_weights", poc.recompute_weights}};
  return p;
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

MulticastPlan plan_tree(const PlanRequest& q) {
  const PlanNetwork& net = need_irregular(q, "tree");
  const topo::Topology& t = *net.topology;
  const int fb = flit_bits(q.options);
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
  const HeaderGeometry g = HeaderGeometry::of(t);
  p.extras = header_extras(encode_tree(g, true, NodeBits::of(t.num_nodes(), q.destinations)), fb);
  p.extras["encoding"] = "[up-down 1][destination string " + std::to_string(t.num_nodes()) + "]";
  p.extras["flit_bits"] = fb;
  p.extras["used_links"] = links;
  p.extras["branches"] = tree_branches(net, tr);
  return p;
}

}  // namespace

void register_switch_schemes(SchemeRegistry& r) {
  const std::vector<std::string> worm_opts = {"--id", "--poc-dag", "--recompute-weights", "--flit-bits"};
  std::vector<std::string> ssr_opts = worm_opts;
  ssr_opts.push_back("--scheduler");
  r.add({"path-lg", "path-based multi-drop worms on POCs (seed000 Fig. 13), Less-Greedy phases", worm_opts,
         [](const PlanRequest& q) { return plan_worms(Kind::path, Scheduler::less_greedy, "path-lg", q); }});
  r.add({"path-greedy", "path-based multi-drop worms on POCs (seed000 Fig. 13), Greedy phases", worm_opts,
         [](const PlanRequest& q) { return plan_worms(Kind::path, Scheduler::greedy, "path-greedy", q); }});
  r.add({"ssr", "single switch replication: one worm per destination switch (seed000 §5.2), LG or Greedy phases",
         ssr_opts, [](const PlanRequest& q) { return plan_worms(Kind::ssr, std::nullopt, "ssr", q); }});
  r.add({"tree", "one tree-based bit-string worm with reachability strings (seed000 §5.9, Fig. 18)",
         {"--flit-bits"}, plan_tree});
}

}  // namespace wormcast::algo
