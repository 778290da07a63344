#include "topologies/networks/direct_network_kind.h"

#include <fnmatch.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cstdint>

#include "rtl_models/direct/reference_router.h"
#include "topologies/direct_io.h"
#include "rtl_models/node/endpoint_node.h"

namespace wormcast::topo {

// ---------------------------------------------------------------------------
// The elaborated network

DirectNetwork::DirectNetwork(sc_core::sc_module_name name, std::shared_ptr<const DirectRouting> routing,
                             const DirectNetworkParams& p, rtl::SimContext& ctx)
    : sc_core::sc_module(name), routing_(std::move(routing)), routing_function_(p.policies.routing), ctx_(ctx),
      vcs_(p.router.vcs > 0 ? p.router.vcs : routing_->num_vcs()) {
  const DirectTopology& t = topology();
  scheduler_ = std::make_unique<rtl::CycleScheduler>("scheduler", ctx.clock, &ctx.stream_horizon);
  ctx.scheduler = scheduler_.get();
  const int local_ports = p.router.ports != "all_port"       ? 1
                          : p.router.ejection == "per_vc" ? t.num_ports() * vcs_
                                                          : t.num_ports();
  try {
    check_link_hold(t, p);
    for (NodeId x = 0; x < t.num_nodes(); ++x) routers.push_back(make_router(x, local_ports, p));
    build_channels(p);
    build_shared_links(p);
    build_nodes(p);
  } catch (...) {
    ctx.scheduler = nullptr;   // the scheduler dies with this half-built network
    throw;
  }
  watchdog_ = std::make_unique<rtl::Watchdog>("watchdog", ctx, p.watchdog,
                                              [this](Cycle now) { return describe_blocked(now); },
                                              [this] { return flits_in_network(); });
  ctx.on_first_outstanding = [this] { watchdog_->arm(); };
}

DirectNetwork::~DirectNetwork() {
  if (ctx_.scheduler == scheduler_.get()) ctx_.scheduler = nullptr;
}

// router.impl: the fast VcRouter or the reference router, behind the one
// interface the network uses (rtl_models/direct/direct_router.h).
std::unique_ptr<rtl::DirectRouter> DirectNetwork::make_router(NodeId x, int local_ports, const DirectNetworkParams& p) {
  const std::string name = "router" + std::to_string(x);
  if (p.router_impl == "reference")
    return std::make_unique<rtl::DirectRouterOf<rtl::ReferenceRouter>>(std::make_unique<rtl::ReferenceRouter>(
        name.c_str(), x, routing_, vcs_, local_ports, p.router, ctx_, p.policies));
  if (p.router_impl != "fast")
    throw std::invalid_argument("router.impl: '" + p.router_impl + "' (fast | reference)");
  if (p.policies.routing && !p.policies.routing->deterministic())
    throw std::invalid_argument(fast_router_refusal(p.policies.routing->name()));
  return std::make_unique<rtl::DirectRouterOf<rtl::VcRouter>>(
      std::make_unique<rtl::VcRouter>(name.c_str(), x, routing_, vcs_, local_ports, p.router, ctx_));
}

// One physical link (rtl::VcLink) per existing channel, carrying the VCs
// of every class the routing function uses on it (all m VCs of the class
// when router.vcs = m x its classes); the receiving router sees it on the
// input port of the same (d, dir).
void DirectNetwork::build_channels(const DirectNetworkParams& p) {
  const DirectTopology& t = topology();
  channel_links_.assign(static_cast<std::size_t>(t.num_channel_slots()), nullptr);
  for (NodeId x = 0; x < t.num_nodes(); ++x)
    for (const DirectChannel& ch : t.channels(x)) {
      const std::uint32_t mask = used_vcs(x, ch);
      if (mask == 0) continue;
      const int port = DirectTopology::port_index(ch.dim, ch.dir);
      const std::string n =
          "link" + std::to_string(x) + "_d" + std::to_string(ch.dim) + (ch.dir == Direction::plus ? "p" : "m");
      vc_links.push_back(std::make_unique<rtl::VcLink>(n.c_str(), p.link, vcs_, mask, p.router.buffer_flits));
      rtl::VcLink& l = *vc_links.back();
      routers[static_cast<std::size_t>(x)]->connect_out(port, l);
      routers[static_cast<std::size_t>(ch.to)]->connect_in(port, l);
      channel_links_[static_cast<std::size_t>(t.channel_slot(x, ch.dim, ch.dir))] = &l;
      vc_lanes_ += l.vcs_used();
    }
}

// Bit v: the routing function uses VC v on channel ch of x.
std::uint32_t DirectNetwork::used_vcs(NodeId x, const DirectChannel& ch) const {
  const VcSet classes = routing_->vc_classes(x, ch.dim, ch.dir);
  std::uint32_t mask = 0;
  const int per_class = routing_->vcs_per_class(vcs_);  // VC v belongs to class index v / per_class
  for (int v = 0; v < vcs_; ++v)
    if (classes.contains(routing_->class_at(v / per_class))) mask |= 1u << v;
  return mask;
}

// router.link_hold: packet is a policy of a router's own outputs: the
// shared wire's arbiter of "3-way" and a replicating worm's sends on several
// outputs in one cycle do not follow it, so those are refused with it. It
// also makes a physical link a resource that a stalled worm holds for all
// of the link's VCs: a torus's dateline classes, which break a ring's cycle
// of channel dependencies only while the VCs share the link flit by flit,
// no longer do (a 4x4 UTR torus deadlocks at saturation with it). Meshes
// and hypercubes (dimension-ordered routing) have no such cycle between
// their physical links, whatever the VCs, and stay deadlock-free.
void DirectNetwork::check_link_hold(const DirectTopology& t, const DirectNetworkParams& p) {
  if (p.router.link_hold != "packet") return;
  if (t.is_torus())
    throw TopologyError("router.link_hold: packet is for meshes and hypercubes: on " + t.spec() +
                        " the dateline VC classes avoid deadlock only while the VCs share each link flit by flit");
  if (p.router.link_sharing == "bidirectional")
    throw TopologyError("router.link_hold: packet and router.link_sharing: bidirectional cannot be combined (the "
                        "shared wire's arbiter grants flit by flit between the two directions)");
  if (p.router.replication)
    throw TopologyError("router.link_hold: packet and router.replication: true cannot be combined (a replicating "
                        "worm sends on several outputs in one cycle)");
}

// "3-way" (seed001 §5.2): the + channel of x and the - channel of its
// neighbour back to x become one bidirectional wire; x is side 0.
void DirectNetwork::build_shared_links(const DirectNetworkParams& p) {
  if (p.router.link_sharing != "bidirectional") return;
  const DirectTopology& t = topology();
  if (t.is_torus() && !t.bidirectional())
    throw TopologyError("router.link_sharing: bidirectional needs channels in both directions; " + t.spec() +
                        " is unidirectional");
  if (p.router.replication)
    throw TopologyError("router.link_sharing: bidirectional and router.replication: true cannot be combined (a "
                        "replicating worm sends on several outputs in one cycle without the shared wire's arbiter)");
  for (NodeId x = 0; x < t.num_nodes(); ++x)
    for (const DirectChannel& ch : t.channels(x)) {
      if (ch.dir != Direction::plus || t.neighbour(ch.to, ch.dim, Direction::minus) != x) continue;
      const std::string n = "wire" + std::to_string(x) + "_d" + std::to_string(ch.dim);
      shared_links.push_back(std::make_unique<rtl::SharedLink>(n.c_str(), vcs_));
      routers[static_cast<std::size_t>(x)]->share_port(DirectTopology::port_index(ch.dim, Direction::plus),
                                                       shared_links.back().get(), 0);
      routers[static_cast<std::size_t>(ch.to)]->share_port(DirectTopology::port_index(ch.dim, Direction::minus),
                                                           shared_links.back().get(), 1);
    }
}

// One link pair per internal channel: pair l of the node on internal channel
// l of its router (one-port: pair 0 only). A multi-pair node is told which
// pair each destination's first hop needs (the router's routing function).
void DirectNetwork::build_nodes(const DirectNetworkParams& p) {
  const DirectTopology& t = topology();
  const std::shared_ptr<const rtl::NodeModel> model =
      p.node_model ? p.node_model : std::make_shared<const rtl::EndpointModel>();
  const int pairs = routers.empty() ? 1 : routers.front()->num_channels() - routers.front()->external_channels();
  if (pairs > 1 && !model->multi_port())
    throw std::invalid_argument(all_port_refusal("configuration"));
  for (NodeId x = 0; x < t.num_nodes(); ++x) {
    const std::string name = "node" + std::to_string(x);
    nodes.push_back(pairs == 1 ? model->build(name, x, t.num_nodes(), ctx_, false)
                               : model->build_ports(name, x, t.num_nodes(), ctx_, pairs));
    rtl::NodeHardware& node = *nodes.back();
    if (node.link_pairs() != pairs)
      throw std::logic_error(name + ": node has " + std::to_string(node.link_pairs()) + " link pairs, router " +
                             std::to_string(pairs));
    for (int l = 0; l < pairs; ++l) bind_pair(p, node, x, l);
    if (pairs > 1) node.set_pair_selector(injection_selector(routing_, x, pairs / t.num_ports()));
  }
}

// Pair 0 keeps the one-port link names (VCDs and results unchanged).
void DirectNetwork::bind_pair(const DirectNetworkParams& p, rtl::NodeHardware& node, NodeId x, int l) {
  auto& r = *routers[static_cast<std::size_t>(x)];
  const std::string id = std::to_string(x), suffix = l == 0 ? "" : "_p" + std::to_string(l);
  links.push_back(std::make_unique<rtl::Link>(("link_node" + id + "_to_router" + id + suffix).c_str(), ctx_.clock,
                                              p.link, p.router.buffer_flits));
  node.pair_out(l).bind(*links.back());
  r.local_in(l).bind(*links.back());
  links.push_back(std::make_unique<rtl::Link>(("link_router" + id + "_to_node" + id + suffix).c_str(), ctx_.clock,
                                              p.link, node.receive_credits()));
  r.local_out(l).bind(*links.back());
  links.back()->wake_sender_only_when_starved();   // its sender is the router (vc_link.h, "starved")
  // A flit's credit comes back crossbar + latency + credit delay cycles after
  // it leaves, one flit per cycle: with more credits than that the router
  // never finds none, so a sink may defer taking body flits off (link.h).
  if (static_cast<Cycle>(node.receive_credits()) > p.router.crossbar_delay + p.link.latency + p.link.credit_delay)
    links.back()->allow_deferred_receive();
  node.pair_in(l).bind(*links.back());
}

std::function<int(NodeId)> injection_selector(std::shared_ptr<const DirectRouting> routing, NodeId x, int stride) {
  return [routing = std::move(routing), x, stride](NodeId dest) {
    const DirectHop hop = routing->next_hop(x, dest, VcClass::local);
    return hop.arrived ? 0 : DirectTopology::port_index(hop.dim, hop.dir) * stride;
  };
}

std::string all_port_refusal(const std::string& where) {
  return where + ": router.ports: all_port needs a node with one link pair per internal channel; only " +
         "node.model processor has them (endpoint and host_ni have one link pair)";
}

rtl::Endpoint& DirectNetwork::endpoint(int n) {
  rtl::Endpoint* e = node(n).endpoint();
  if (!e) throw std::logic_error("node " + std::to_string(n) + " has no packet endpoint (node model is not endpoint)");
  return *e;
}

rtl::VcLink* DirectNetwork::channel_link(NodeId x, int d, Direction dir) const {
  if (!topology().has_channel(x, d, dir)) return nullptr;
  return channel_links_[static_cast<std::size_t>(topology().channel_slot(x, d, dir))];
}

std::uint64_t DirectNetwork::flits_in_network() const {
  std::uint64_t n = 0;
  for (const auto& l : links) n += l->flits_in_flight();
  for (const auto& l : vc_links) n += l->flits_in_flight();
  for (const auto& r : routers) n += r->buffered_flits();
  return n;
}

std::vector<std::string> DirectNetwork::describe_blocked(Cycle now) const {
  std::vector<std::string> lines;
  for (const auto& r : routers)
    for (auto& l : r->describe_blocked(now)) lines.push_back(std::move(l));
  for (const auto& n : nodes) {
    std::string line = n->describe_blocked(now);
    if (!line.empty()) lines.push_back(std::move(line));
  }
  return lines;
}

int DirectNetwork::trace(sc_core::sc_trace_file* tf, const std::string& filter) {
  int matched = 0;
  for (auto& r : routers)
    if (fnmatch(filter.c_str(), r->name(), 0) == 0) { if (tf) r->trace(tf); ++matched; }
  for (auto& n : nodes) matched += n->trace(tf, filter);
  return matched;
}

std::vector<std::uint64_t> DirectNetwork::flits_sent_per_link() const {
  std::vector<std::uint64_t> v;
  const DirectTopology& t = topology();
  // At most 2n channels a node: one allocation, not a growth by doubling
  // (this runs at the measurement window's edges, inside the timed run).
  v.reserve(static_cast<std::size_t>(t.num_nodes()) * 2 * static_cast<std::size_t>(t.dimensions()));
  for (NodeId x = 0; x < t.num_nodes(); ++x)
    for (const DirectChannel& ch : t.channels(x)) {
      const rtl::VcLink* l = channel_link(x, ch.dim, ch.dir);
      v.push_back(l ? l->flits_sent() : 0);
    }
  return v;
}

nlohmann::json DirectNetwork::describe() const {
  // A router per node; channels are the physical links between routers (one
  // per direction), each carrying the VCs the routing uses on it (vc_lanes
  // counts those pairs); node_links are the internal node-router links.
  return {{"description", topology().spec()},
          {"routers", static_cast<int>(routers.size())},
          {"nodes", topology().num_nodes()},
          {"channels", static_cast<int>(vc_links.size())},
          {"vc_lanes", vc_lanes_},
          {"node_links", static_cast<int>(links.size())},
          {"routing", routing_function_ ? routing_function_->name() : std::string(to_string(routing_->algorithm()))},
          {"vcs", vcs_}};
}

void DirectNetwork::register_statistics(rtl::StatsScope s) const {
  const Cycle& now = s.now;
  s.stats.add("link_utilization", "fraction",
              "flits sent / cycles of the measured period (from the measurement window's start until the measured "
              "work is done, the load on) per physical channel, all its VCs together (mean, max over channels)",
              [this, &now] { return window_link_utilization(now); });
  s.stats.add("vc_buffer_peak_flits", "flits", "largest occupancy of any router input VC buffer", [this, &now] {
    int peak = 0;
    for (const auto& r : routers) peak = std::max(peak, r->peak_occupancy(now));
    return peak;
  });
}

// ---------------------------------------------------------------------------
// The kinds

void DirectRoutingSection::visit(ParamVisitor& v) {
  std::vector<std::string> functions = {"default", "dor", "ecube", "utr", "btr", "utpr", "dateline"};
  for (const std::string& name : adaptive_routings().names()) functions.push_back(name);
  functions.push_back("broken_single_vc_ring");
  v.choice("function", function, functions,
           "routing function (seed001 §1.3): default = dor (mesh), ecube (hypercube), utr/btr (uni/bi torus); "
           "dateline = 2-class dimension order on bidirectional tori (BookSim2's dim_order_torus); "
           "west_first = the turn model's adaptive west-first on 2-D meshes (router.impl: reference only); "
           "broken_single_vc_ring is deadlock-prone, for tests with check: never");

  v.choice("order", order, {"descending", "ascending"},
           "dimension order of dor/ecube/utr/btr/dateline: highest dimension first (thesis) or lowest first "
           "(nCUBE-2, SCI)");
  // Only with an adaptive function (a deterministic one has one candidate),
  // so the resolved configuration of every other experiment is unchanged.
  if (adaptive_routings().find(function))
    v.choice("selection", selection, rtl::selections().names(),
             "which of the adaptive function's candidate hops a header takes: most_free_vcs = the one whose output "
             "has the most free VCs of its class (a tie: the first); first = always the first");
  v.choice("check", check, {"auto", "always", "never"},
           "independent routing check at set-up (shortest routes, existing VCs, acyclic dependencies): auto = "
           "up to 1024 nodes (O(N^2) routing decisions: about 1 s of CPU for 64x64); never only to demonstrate a "
           "deadlock");
}

namespace {
constexpr int max_simulated_nodes = 1 << 16;
}  // namespace

DirectTopology DirectNetworkKind::network_topology(const std::string& where) const {
  DirectTopology t = DirectTopology::hypercube(1);
  try {
    t = topology();
  } catch (const TopologyError& e) {
    throw std::invalid_argument(where + ": topology.dims: " + e.what());
  }
  if (t.num_nodes() > max_simulated_nodes)
    throw std::invalid_argument(where + ": topology.dims: " + t.spec() + " has " + std::to_string(t.num_nodes()) +
                                " nodes; at most " + std::to_string(max_simulated_nodes) +
                                " routers are simulated (each is a SystemC module with its links)");
  return t;
}

// routing.function: an adaptive one (it makes its own base routing) or a
// deterministic DirectRouting as its one-candidate function.
std::shared_ptr<const RoutingFunction> DirectNetworkKind::make_routing_function(const std::string& where) const {
  const DirectTopology t = network_topology(where);
  const DimOrder o = routing.order == "ascending" ? DimOrder::ascending : DimOrder::descending;
  try {
    std::shared_ptr<const RoutingFunction> fn;
    if (adaptive_routings().find(routing.function)) {
      fn = adaptive_routings().make(routing.function, t, o);
    } else {
      const RoutingAlgorithm a = routing.function == "default"                 ? default_routing(t)
                                 : routing.function == "broken_single_vc_ring" ? RoutingAlgorithm::broken_single_vc_ring
                                                                                : parse_routing(routing.function);
      fn = std::make_shared<const DeterministicRouting>(std::make_shared<const DirectRouting>(t, a, o));
    }
    check_vcs(*fn->base());
    return fn;
  } catch (const TopologyError& e) {
    throw std::invalid_argument(where + ": routing.function '" + routing.function + "' on " + t.spec() + ": " +
                                e.what());
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(where + ": " + e.what());
  }
}

std::shared_ptr<const DirectRouting> DirectNetworkKind::make_routing(const std::string& where) const {
  return make_routing_function(where)->base();
}

void DirectNetworkKind::check_vcs(const DirectRouting& r) const {
  if (router.vcs <= 0 || r.vcs_per_class(router.vcs) != 0) return;
  throw std::invalid_argument("router.vcs: " + std::to_string(router.vcs) + " virtual channels, but routing " +
                              to_string(r.algorithm()) + " has " + std::to_string(r.num_vcs()) +
                              " VC classes and needs " +
                              (r.num_vcs() == 1 ? std::string("any number") : "a multiple of " + std::to_string(r.num_vcs())) +
                              (router.vcs < r.num_vcs() ? " (too few: its VC classes would not fit)"
                                                        : " (each class gets router.vcs / " + std::to_string(r.num_vcs()) +
                                                              " VCs)"));
}

std::string fast_router_refusal(const std::string& function) {
  return "routing.function: " + function + " is an adaptive routing, which only the reference router implements (the "
         "fast router implements the deterministic functions dor, ecube, utr, btr, utpr and dateline); set "
         "router.impl: reference";
}

void DirectNetworkKind::visit_sections(ParamVisitor& v) {
  v.begin_section("routing", "routing of the direct network: deterministic (seed001 §1.3, §1.5) or adaptive");
  routing.visit(v);
  v.end_section();
  v.begin_section("router", "wormhole router with virtual channels (rtl_models/direct/vc_router.h)");
  router.visit(v);
  v.choice("impl", router_impl, {"fast", "reference"},
           "fast: the optimised VcRouter; reference: the plainly written per-cycle, flit-by-flit router of the same "
           "microarchitecture (rtl_models/direct/reference_router.h), an oracle: identical results, slower");
  v.end_section();
  v.begin_section("link", "links");
  link.visit(v);
  v.end_section();
}

void DirectNetworkKind::describe_facts(rtl::ConfigFacts& f) const {
  f.whole_packet_admission = false;
  f.direct_network = true;
  // The product of the radices (a hypercube's are all 2); past int's range
  // the dims are refused by validate, and the count is left unknown.
  long long n = 1;
  for (int k : dims) n = k > 0 && n <= INT32_MAX / k ? n * k : 0;
  f.nodes = static_cast<int>(n);
}

void DirectNetworkKind::validate(const rtl::ConfigFacts& f) const {
  if (!make_routing_function(f.where)->deterministic() && router_impl == "fast")
    throw std::invalid_argument(f.where + ": " + fast_router_refusal(routing.function));
  const Cycle hop = router.route_delay + router.turn_delay + router.crossbar_delay + link.latency;
  if (hop >= f.watchdog || link.credit_delay >= f.watchdog)
    throw std::invalid_argument(f.where + ": router.route_delay + router.turn_delay + router.crossbar_delay + link.latency (" +
                                std::to_string(hop) + " cycles) and link.credit_delay must be shorter than " +
                                "sim.watchdog (" + std::to_string(f.watchdog) + " cycles)");
  if (router.ports == "all_port" && !f.multi_port_nodes) throw std::invalid_argument(all_port_refusal(f.where));
  if (router.ejection == "per_vc" && router.ports != "all_port")
    throw std::invalid_argument(f.where + ": router.ejection: per_vc needs router.ports: all_port (a one-port node has "
                                "one ejection channel)");
}

std::unique_ptr<NetworkModel> DirectNetworkKind::build(const char* name, const BuildInputs& in) const {
  auto fn = make_routing_function("configuration");
  auto r = fn->base();
  spdlog::info("direct network {} ({} nodes), routing {}, {} VCs", r->topology().spec(), r->topology().num_nodes(),
               fn->name(), router.vcs > 0 ? router.vcs : r->num_vcs());
  const bool check = routing.check == "always" ||
                     (routing.check == "auto" && r->topology().num_nodes() <= DirectRoutingSection::auto_check_nodes);
  if (check) {
    const auto problems = fn->deterministic() ? check_direct_routing(*r, router.vcs) : check_routing_function(*fn);
    if (!problems.empty()) throw SetupError("direct routing check failed: " + problems.front());
  } else if (routing.check == "auto") {
    spdlog::info("routing check skipped: {} nodes > {} (routing.check: always forces it)", r->topology().num_nodes(),
                 DirectRoutingSection::auto_check_nodes);
  }
  DirectNetworkParams p;
  p.router = router;
  p.router_impl = router_impl;
  if (!fn->deterministic()) p.policies.routing = fn;
  p.policies.selection = routing.selection;
  p.link = link;
  p.watchdog = in.watchdog;
  p.node_model = in.node_model;
  return std::make_unique<DirectNetwork>(name, r, p, in.ctx);
}

algo::PlanNetwork DirectNetworkKind::plan_network(const std::string& spec) const {
  try {
    return algo::direct_network(parse_direct_spec(spec));
  } catch (const TopologyError& e) {
    throw std::invalid_argument(std::string("topology: ") + e.what());
  }
}

void DirectNetworkKind::show(const std::string& spec, const SpecOptions& o, std::ostream& os) const {
  const DirectTopology t = parse_direct_spec(spec);
  show_direct(DirectRouting(t, routing_for(t, o.routing)), os, o.vcs);
}

std::vector<std::string> DirectNetworkKind::export_spec(const std::string& spec, const SpecOptions& o,
                                                        std::ostream& os) const {
  if (o.format != "dot")
    throw std::invalid_argument("topo export " + spec + ": --format " + o.format +
                                ": direct networks are exported as dot only (yaml/json/anynet describe switch networks)");
  const DirectTopology t = parse_direct_spec(spec);
  write_direct_dot(DirectRouting(t, routing_for(t, o.routing)), os, o.vcs);
  return {};
}

std::vector<std::pair<std::string, std::string>> DirectNetworkKind::topology_settings(const std::string& spec) const {
  const DirectTopology t = parse_direct_spec(spec);
  std::string dims;   // highest dimension first, as topology.dims reads them
  for (int d = t.dimensions() - 1; d >= 0; --d) dims += (dims.empty() ? "" : ", ") + std::to_string(t.radix(d));
  std::vector<std::pair<std::string, std::string>> out = {{"dims", "[" + dims + "]"}};
  if (t.is_torus()) out.emplace_back("direction", t.bidirectional() ? "bidirectional" : "unidirectional");
  return out;
}

void TorusKind::visit_topology(ParamVisitor& v) {
  v.int_list("dims", dims, "radices k_{n-1}..k_0, highest dimension first (k-ary n-cube: all equal)", 2, 1 << 24);
  v.choice("direction", direction, {"unidirectional", "bidirectional"}, "channel direction of the torus");
}

DirectTopology TorusKind::topology() const { return DirectTopology::torus(dims, direction == "bidirectional"); }

void MeshKind::visit_topology(ParamVisitor& v) {
  v.int_list("dims", dims, "radices k_{n-1}..k_0, highest dimension first", 2, 1 << 24);
}

DirectTopology MeshKind::topology() const { return DirectTopology::mesh(dims); }

void HypercubeKind::visit_topology(ParamVisitor& v) {
  v.int_list("dims", dims, "a 2-ary n-cube: n entries, each 2 (e.g. [2, 2, 2, 2] for 16 nodes)", 2, 2);
}

DirectTopology HypercubeKind::topology() const { return DirectTopology::hypercube(static_cast<int>(dims.size())); }

void register_direct_network_kinds(NetworkKindRegistry& r) {
  r.add("torus", "k-ary n-cube torus of VC wormhole routers (seed001 §1.1), routing utr/btr/utpr/dateline",
        [] { return std::make_unique<TorusKind>(); });
  r.add("mesh", "mesh of VC wormhole routers, dimension-ordered routing", [] { return std::make_unique<MeshKind>(); });
  r.add("hypercube", "binary hypercube of wormhole routers, E-cube routing (seed001 §1.1)",
        [] { return std::make_unique<HypercubeKind>(); });
}

}  // namespace wormcast::topo
