// The direct-network schemes of seed001 (Robinson) in the plan contract:
//  * hypercubes, all-port by default (Ch. 3, Algorithm 1): ucube, maxport,
//    combine, wsort; one unicast per destination, each with the dimension
//    of its outgoing channel (E-cube) and the address field it carries;
//  * tori, one-port (Ch. 4, Fig. 4.9): utorus on the R-chain, routed by the
//    topology's default routing (UTR unidirectional, BTR bidirectional);
//  * regular unidirectional tori, path-based with intermediate reception
//    (Ch. 6, Fig. 6.1): storus, mdtorus, mutorus (--r), multi-destination
//    worms routed by UTPR along the ℋ-cycle, each destination with the
//    nodes it serves in later phases (the compound header of Fig. 6.2).
// And seed004 (Oral & George), on the SCI torus's hosts without
// multi-destination worms (sci_multicast.h): sci-separate, sci-utorus,
// sci-storus, sci-mdtorus, sci-mutorus (--r, default 4 as the testbed), all
// unicasts relayed store-and-forward, routed in the testbed's dimension
// order (X then Y); extras add used_links, link_utilization, concurrency and
// root_targets (seed004 §1, §6).
// Steps are the contract's steps (phases for the path-based schemes);
// paths are the nodes a message crosses, sender first; link_visits is the
// total of their lengths (Fig. 6.8's metric).
#include <stdexcept>

#include "algorithms/compound_header.h"
#include "algorithms/cube_multicast.h"
#include "algorithms/plan.h"
#include "algorithms/plan_detail.h"
#include "algorithms/sci_multicast.h"
#include "algorithms/torus_multicast.h"
#include "algorithms/utorus_link_sharing.h"

namespace wormcast::algo {

using detail::pick;
using nlohmann::json;
using topo::NodeId;

namespace {

const std::initializer_list<std::pair<const char*, CubePorts>> kPortModels = {{"all", CubePorts::all_port},
                                                                              {"one", CubePorts::one_port}};
const std::initializer_list<std::pair<const char*, CubeSteps>> kStepModels = {
    {"queue", CubeSteps::per_channel_queue}, {"in-order", CubeSteps::in_order_issue}};

// What a scheme needs of the network: a test of the topology, and how to
// ask for one.
struct Needs {
  bool (*fits)(const topo::DirectTopology&);
  const char* wanted;
};
const Needs kHypercube{[](const topo::DirectTopology& t) { return t.kind() == topo::DirectKind::hypercube; },
                       "a hypercube (--topology hypercube:N)"};
const Needs kTorus{[](const topo::DirectTopology& t) { return t.is_torus(); },
                   "a torus (--topology torus:KxK:uni or torus:KxK:bi)"};
const Needs kUniTorus{[](const topo::DirectTopology& t) { return t.is_torus() && !t.bidirectional() && t.regular(); },
                      "a regular unidirectional torus (--topology torus:KxK:uni)"};

// The direct network a scheme needs, with a destination set.
const PlanNetwork& need_direct(const PlanRequest& q, const std::string& scheme, const Needs& needs) {
  if (q.kind() != NetworkClass::direct || !needs.fits(*q.network->direct))
    throw std::invalid_argument("scheme '" + scheme + "' needs " + needs.wanted + "; " +
                                (q.network ? q.network->spec + " is not one" : std::string("no --topology given")));
  if (q.destinations.empty())
    throw std::invalid_argument("--dests: the destination set is empty (give --dests or --random)");
  return *q.network;
}

std::vector<std::string> names(const PlanNetwork& net, const std::vector<NodeId>& nodes) {
  std::vector<std::string> out;
  for (NodeId n : nodes) out.push_back(net.node_text(n));
  return out;
}

// The nodes crossed, sender first, from a route's hops.
std::vector<std::string> path_names(const PlanNetwork& net, const std::vector<topo::RouteHop>& hops) {
  std::vector<std::string> out;
  if (hops.empty()) return out;
  out.push_back(net.node_text(hops.front().node));
  for (const topo::RouteHop& h : hops) out.push_back(net.node_text(h.next));
  return out;
}

int links_of(const std::vector<PlanMessage>& messages) {
  int links = 0;
  for (const PlanMessage& m : messages)
    if (!m.path.empty()) links += static_cast<int>(m.path.size()) - 1;
  return links;
}

MulticastPlan plan_cube(CubeVariant v, const std::string& scheme, const PlanRequest& q) {
  const PlanNetwork& net = need_direct(q, scheme, kHypercube);
  const CubePorts ports = pick(q.options.port_model, "--port-model", kPortModels, CubePorts::all_port);
  const CubeSteps model = pick(q.options.step_model, "--step-model", kStepModels, CubeSteps::per_channel_queue);
  const NodeId src = q.source.value_or(0);
  const CubePlan c = plan_cube_multicast(net.direct->dimensions(), src, q.destinations, v, ports, model);
  MulticastPlan p;
  p.source = src;
  p.destinations = q.destinations;
  p.steps = c.steps;
  for (const CubeUnicast& u : c.unicasts) {
    PlanMessage m{u.sender, u.step, {u.receiver}, path_names(net, net.direct_routing->route(u.sender, u.receiver)),
                  json::object()};
    m.extras = {{"dimension", u.dimension}, {"field", names(net, u.field)}};
    p.messages.push_back(std::move(m));
  }
  p.extras = {{"chain", names(net, c.chain)},
              {"port_model", detail::name_of(ports, kPortModels)},
              {"step_model", detail::name_of(model, kStepModels)},
              {"link_visits", links_of(p.messages)}};
  return p;
}

MulticastPlan plan_u_torus(const PlanRequest& q) {
  const PlanNetwork& net = need_direct(q, "utorus", kTorus);
  const NodeId src = q.source.value_or(0);
  const UTorusPlan u = plan_utorus(*net.direct, src, q.destinations);
  MulticastPlan p;
  p.source = src;
  p.destinations = q.destinations;
  p.steps = u.steps;
  for (const TorusUnicast& s : u.unicasts) {
    PlanMessage m{s.sender, s.step, {s.receiver}, path_names(net, net.direct_routing->route(s.sender, s.receiver)),
                  json::object()};
    m.extras = {{"field", names(net, s.field)}};
    p.messages.push_back(std::move(m));
  }
  p.extras = {{"chain", names(net, u.chain)},
              {"routing", topo::to_string(net.direct_routing->algorithm())},
              {"link_visits", links_of(p.messages)}};
  // seed001 §5.2's step model with physical link sharing (utorus_link_sharing.h).
  const SharedSteps none = utorus_shared_steps(*net.direct_routing, u, LinkSharing::none);
  const SharedSteps two = utorus_shared_steps(*net.direct_routing, u, LinkSharing::two_way);
  p.extras["mean_step"] = none.mean;
  p.extras["shared_steps"] = two.max;
  p.extras["shared_mean_step"] = two.mean;
  p.extras["shared_unicasts"] = two.shared_unicasts;
  if (net.direct->bidirectional()) {
    const SharedSteps three = utorus_shared_steps(*net.direct_routing, u, LinkSharing::three_way);
    p.extras["shared_steps_3way"] = three.max;
    p.extras["shared_mean_step_3way"] = three.mean;
    p.extras["triple_unicasts_3way"] = three.triple_unicasts;
  }
  return p;
}

// Per destination of a worm, the nodes it serves in later phases (by name).
json later_lists(const PlanNetwork& net, const std::vector<CompoundBlock>& blocks) {
  json out = json::object();
  for (const CompoundBlock& b : blocks) out[net.node_text(b.dest)] = names(net, b.later);
  return out;
}

MulticastPlan plan_m_torus(MTorusPartition part, const std::string& scheme, const PlanRequest& q) {
  const PlanNetwork& net = need_direct(q, scheme, kUniTorus);
  int r = 2;
  if (part == MTorusPartition::uniform) {
    if (!q.options.r)
      throw std::invalid_argument("scheme 'mutorus' needs --r R, the partitions per phase (seed001 Ch. 6 uses 8, 64, "
                                  "and 2 = the unicast-based scheme)");
    r = static_cast<int>(detail::at_least(q.options.r, "--r", 2, 2, "partitions per phase"));
  }
  const topo::DirectRouting utpr(*net.direct, topo::RoutingAlgorithm::utpr);
  const NodeId src = q.source.value_or(0);
  const MTorusPlan mt = plan_mtorus(utpr, src, q.destinations, part, r);
  MulticastPlan p;
  p.source = src;
  p.destinations = q.destinations;
  p.steps = mt.phases;
  for (const MTorusWorm& w : mt.worms) {
    std::vector<NodeId> dests;
    for (const CompoundBlock& b : w.blocks) dests.push_back(b.dest);
    PlanMessage m{w.sender, w.phase, dests, path_names(net, utpr.route_path(w.sender, dests)), json::object()};
    m.extras = {{"header_flits", compound_header_flits(w.blocks)}, {"later", later_lists(net, w.blocks)}};
    p.messages.push_back(std::move(m));
  }
  p.extras = {{"cycle", names(net, mt.cycle)}, {"routing", "utpr"}, {"link_visits", links_of(p.messages)},
              {"worms", mt.worms.size()}};
  if (part == MTorusPartition::uniform) p.extras["r"] = r;
  return p;
}

MulticastPlan plan_sci_scheme(SciScheme scheme, const PlanRequest& q) {
  const std::string name = std::string("sci-") + to_string(scheme);
  const PlanNetwork& net = need_direct(q, name, kTorus);
  const int r = scheme == SciScheme::mutorus
                    ? static_cast<int>(detail::at_least(q.options.r, "--r", 2, 4, "nodes per partition"))
                    : 4;
  // The testbed's routing: dimension order, X (σ_0) first (seed004 §3, §6).
  const topo::DirectRouting xy(*net.direct, net.direct->bidirectional() ? topo::RoutingAlgorithm::btr
                                                                        : topo::RoutingAlgorithm::utr,
                               topo::DimOrder::ascending);
  const NodeId src = q.source.value_or(0);
  const SciPlan sp = plan_sci(*net.direct, scheme, src, q.destinations, r);
  MulticastPlan p;
  p.source = src;
  p.destinations = q.destinations;
  p.steps = sp.steps;
  for (const SciUnicast& u : sp.unicasts) {
    PlanMessage m{u.sender, u.step, {u.receiver}, path_names(net, xy.route(u.sender, u.receiver)), json::object()};
    m.extras = {{"field", names(net, u.field)}, {"phase", u.phase}};
    p.messages.push_back(std::move(m));
  }
  const SciLinkUse use = sci_link_use(xy, sp);
  const bool by_cycle = scheme != SciScheme::separate && scheme != SciScheme::utorus;
  p.extras = {{"order", names(net, sp.order)},
              {"ordering", by_cycle ? "cycle (Eq. 2)" : "dimension"},
              {"routing", std::string(topo::to_string(xy.algorithm())) + " ascending"},
              {"phases", sp.phases},
              {"link_visits", use.link_visits},
              {"used_links", use.used_links},
              {"link_utilization", use.utilization},
              {"concurrency", use.concurrency},
              {"root_targets", use.root_targets}};
  if (scheme == SciScheme::mutorus) p.extras["r"] = r;
  return p;
}

}  // namespace

void register_direct_schemes(SchemeRegistry& r) {
  const std::vector<std::string> cube_opts = {"--port-model", "--step-model"};
  r.add({"ucube", "hypercube, unicast-based: U-cube, Algorithm 1 step 4a (seed001 Ch. 3)", cube_opts,
         [](const PlanRequest& q) { return plan_cube(CubeVariant::ucube, "ucube", q); }});
  r.add({"maxport", "hypercube, all-port: Maxport, Algorithm 1 step 4b (seed001 Ch. 3)", cube_opts,
         [](const PlanRequest& q) { return plan_cube(CubeVariant::maxport, "maxport", q); }});
  r.add({"combine", "hypercube, all-port: Combine, Algorithm 1 step 4c (seed001 Ch. 3)", cube_opts,
         [](const PlanRequest& q) { return plan_cube(CubeVariant::combine, "combine", q); }});
  r.add({"wsort", "hypercube, all-port: W-sort, WeightedSort (Fig. 3.8) then Maxport (seed001 Ch. 3)", cube_opts,
         [](const PlanRequest& q) { return plan_cube(CubeVariant::wsort, "wsort", q); }});
  r.add({"utorus", "torus, one-port, unicast-based: U-torus on the R-chain (seed001 Fig. 4.9), UTR or BTR", {},
         plan_u_torus});
  r.add({"storus", "unidirectional torus, path-based: S-torus, one worm along the H-cycle (seed001 Ch. 6), UTPR",
         {}, [](const PlanRequest& q) { return plan_m_torus(MTorusPartition::single, "storus", q); }});
  r.add({"mdtorus", "unidirectional torus, path-based: M_d-torus, dimensional partitioning (seed001 Fig. 6.1)", {},
         [](const PlanRequest& q) { return plan_m_torus(MTorusPartition::dimensional, "mdtorus", q); }});
  r.add({"mutorus",
         "unidirectional torus, path-based: M_u-torus(r), uniform partitioning (seed001 Fig. 6.1; --r 2 is the "
         "unicast-based scheme of Sec. 6.6)",
         {"--r"}, [](const PlanRequest& q) { return plan_m_torus(MTorusPartition::uniform, "mutorus", q); }});
  const char* sf = ", unicasts relayed store-and-forward by the hosts (seed004)";
  r.add({"sci-separate", std::string("torus: separate addressing, the root sends to each destination") + sf, {},
         [](const PlanRequest& q) { return plan_sci_scheme(SciScheme::separate, q); }});
  r.add({"sci-utorus", std::string("torus: U-torus, recursive halving on the dimension order") + sf, {},
         [](const PlanRequest& q) { return plan_sci_scheme(SciScheme::utorus, q); }});
  r.add({"sci-storus", std::string("regular torus: S-torus, one chain along the Eq. 2 cycle") + sf, {},
         [](const PlanRequest& q) { return plan_sci_scheme(SciScheme::storus, q); }});
  r.add({"sci-mdtorus", std::string("regular torus: M_d-torus, ringlet heads then ringlet chains") + sf, {},
         [](const PlanRequest& q) { return plan_sci_scheme(SciScheme::mdtorus, q); }});
  r.add({"sci-mutorus", std::string("regular torus: M_u-torus(r), chunks of r (--r, default 4)") + sf, {"--r"},
         [](const PlanRequest& q) { return plan_sci_scheme(SciScheme::mutorus, q); }});
}

}  // namespace wormcast::algo
