#include "testbenches/lib/direct_multicast_workload.h"

#include <algorithm>
#include <sstream>

#include "algorithms/chain_ordering.h"
#include "algorithms/cube_multicast.h"
#include "algorithms/plan_network.h"
#include "algorithms/sci_multicast.h"
#include "algorithms/torus_multicast.h"
#include "algorithms/utorus_link_sharing.h"
#include "rtl_models/direct_processor.h"
#include "rtl_models/processor_node.h"
#include "rtl_models/statistics.h"
#include "testbenches/lib/config.h"
#include "topologies/direct_network_kind.h"

namespace wormcast::tb {

using Run = DirectMulticastWorkload::Run;

namespace {

const std::vector<std::string> kSchemes = {"ucube",        "maxport",    "combine",    "wsort",
                                           "utorus",       "storus",     "mdtorus",    "mutorus",
                                           "sci-separate", "sci-utorus", "sci-storus", "sci-mdtorus",
                                           "sci-mutorus"};

// The scheme's family and variant (algo::CubeVariant / algo::MTorusPartition).
std::pair<Run::Family, int> family_of(const std::string& scheme) {
  const std::size_t i = static_cast<std::size_t>(std::find(kSchemes.begin(), kSchemes.end(), scheme) - kSchemes.begin());
  if (i < 4) return {Run::Family::cube, static_cast<int>(i)};   // ucube, maxport, combine, wsort: CubeVariant order
  if (i == 4) return {Run::Family::utorus, 0};
  if (i >= 8) return {Run::Family::sci, static_cast<int>(i - 8)};   // algo::SciScheme order
  const algo::MTorusPartition p[] = {algo::MTorusPartition::single, algo::MTorusPartition::dimensional,
                                     algo::MTorusPartition::uniform};
  return {Run::Family::mtorus, static_cast<int>(p[i - 5])};
}

// The network and routing a family needs, or a ConfigError saying which.
void check_network(const topo::DirectRouting& r, Run::Family f, const std::string& scheme) {
  const topo::DirectTopology& t = r.topology();
  const auto a = r.algorithm();
  const bool descending = r.order() == topo::DimOrder::descending;
  const std::string have = "the network is " + t.spec() + " with routing " + topo::to_string(a);
  if (f == Run::Family::cube && !(t.kind() == topo::DirectKind::hypercube && a == topo::RoutingAlgorithm::ecube &&
                                  descending))
    throw ConfigError("traffic.scheme " + scheme + " needs a hypercube with routing.function ecube (descending); " +
                      have);
  if (f == Run::Family::utorus && !(t.is_torus() && descending &&
                                    (a == topo::RoutingAlgorithm::utr || a == topo::RoutingAlgorithm::btr)))
    throw ConfigError("traffic.scheme utorus needs a torus with routing.function utr or btr (descending); " + have);
  if (f == Run::Family::sci && !(t.is_torus() && !descending &&
                                 (a == topo::RoutingAlgorithm::utr || a == topo::RoutingAlgorithm::btr)))
    throw ConfigError("traffic.scheme " + scheme + " needs a torus with routing.function utr or btr and "
                      "routing.order ascending (the SCI testbed's X-then-Y dimension order, seed004 §6); " + have +
                      (descending ? " (descending)" : ""));
  if (f == Run::Family::sci && scheme != "sci-separate" && scheme != "sci-utorus" && !t.regular())
    throw ConfigError("traffic.scheme " + scheme + " orders the group on seed004's Eq. 2 cycle, which needs a "
                      "regular k-ary torus; " + have);
  if (f == Run::Family::mtorus && a != topo::RoutingAlgorithm::utpr)
    throw ConfigError("traffic.scheme " + scheme +
                      " needs a regular unidirectional torus with routing.function utpr; " + have);
}

// traffic.destinations as `wormcast plan --dests` reads them
// (algo::parse_node_list): names, or node numbers on tori and meshes.
std::vector<rtl::NodeId> parse_set(const std::string& text, const topo::DirectTopology& t, rtl::NodeId source) {
  try {
    return algo::parse_node_list(algo::direct_network(t), text, source, "traffic.destinations");
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
}

}  // namespace

void DirectMulticastWorkload::visit(ParamVisitor& v, const rtl::NodeModel&) {
  v.choice("scheme", scheme, kSchemes,
           "seed001 scheme: ucube / maxport / combine / wsort (hypercube, ecube), utorus (torus, utr or btr), "
           "storus / mdtorus / mutorus (unidirectional torus, utpr, all-port; IR worms); seed004 on the SCI "
           "torus, unicasts relayed store-and-forward: sci-separate / sci-utorus / sci-storus / sci-mdtorus / "
           "sci-mutorus (torus, utr or btr, routing.order ascending)");
  v.count("r", r, "mutorus: partitions per phase (M_u-torus(r); 2 = the unicast-based scheme); sci-mutorus: nodes "
          "per partition; 0 = not set (sci-mutorus: 4, the testbed's)", 0, 1 << 20);
  v.count("source", source, "the multicast's source node; -1: a random node (drawn once from the run's seed)", -1,
          1 << 20);
  v.count("set_size", set_size, "multicast set size n (source included) of the random destination sets", 2, 1 << 20);
  v.text("destinations", destinations,
         "comma-separated destinations (node numbers, or names such as (1,2) or 0110), the same in every trial; "
         "empty: a fresh random set of set_size - 1 nodes per trial (drawn from the run's seed)");
  v.count("trials", trials, "multicasts, one after another, each measured", 1, 1 << 20);
}

void DirectMulticastWorkload::visit_sections(ParamVisitor& v, const rtl::NodeModel&) {
  v.begin_section("message", "the multicast message (one packet: header flits + 1 flit per byte)");
  message.visit(v);
  v.end_section();
}

void DirectMulticastWorkload::validate(const rtl::ConfigFacts& f, const rtl::NodeModel& nodes) const {
  if (!dynamic_cast<const rtl::ProcessorModel*>(&nodes))
    throw std::invalid_argument(f.where + ": traffic.kind direct_multicast needs node.model processor");
  if (scheme == "mutorus" && r < 2)
    throw std::invalid_argument(f.where + ": traffic.scheme mutorus needs traffic.r, the partitions per phase, at "
                                "least 2 (seed001 Ch. 6 uses 8, 64, and 2 = unicast-based); it is " +
                                std::to_string(r));
  if (scheme == "sci-mutorus" && r == 1)
    throw std::invalid_argument(f.where + ": traffic.scheme sci-mutorus needs traffic.r >= 2 nodes per partition "
                                "(0 = the testbed's 4); it is 1");
  if (scheme != "mutorus" && scheme != "sci-mutorus" && r != 0)
    throw std::invalid_argument(f.where + ": traffic.r applies only to traffic.scheme mutorus and sci-mutorus "
                                "(scheme is " + scheme + ")");
}

void DirectMulticastWorkload::attach(topo::NetworkModel& net, rtl::SimContext&, const Rng& rng) {
  auto* dn = dynamic_cast<topo::DirectNetwork*>(&net);
  if (!dn) throw ConfigError("traffic.kind direct_multicast needs a direct network (topology.kind torus, mesh or hypercube)");
  run_ = std::make_shared<Run>();
  Run& run = *run_;
  std::tie(run.family, run.variant) = family_of(scheme);
  check_network(dn->routing(), run.family, scheme);
  run.routing = dn->routing_ptr();
  const int n = net.num_nodes();
  run.source = source >= 0 ? source : static_cast<rtl::NodeId>(rng.fork(0x7400000000ULL).below(static_cast<std::uint64_t>(n)));
  if (run.source >= n)
    throw ConfigError("traffic.source " + std::to_string(run.source) + ": the network has " + std::to_string(n) + " nodes");
  if (!destinations.empty()) run.fixed = parse_set(destinations, dn->topology(), run.source);
  if (destinations.empty() && set_size > n)
    throw ConfigError("traffic.set_size " + std::to_string(set_size) + " exceeds the " + std::to_string(n) +
                      " nodes of the network");
  run.set_size = set_size;
  run.rng = rng.fork(0x7300000000ULL);
  run.r = scheme == "sci-mutorus" && r == 0 ? 4 : r;
  run.bytes = message.size;
  run.trials = trials;
  run.field.assign(static_cast<std::size_t>(n), {});
  run.worm.assign(static_cast<std::size_t>(n), {});
  run.unicasts.assign(static_cast<std::size_t>(n), {});
  run.expected.assign(static_cast<std::size_t>(n), 0);
  const auto* proc = dynamic_cast<rtl::ProcessorNode*>(&net.node(run.source));
  if (!proc) throw ConfigError("traffic.kind direct_multicast needs node.model processor");
  run.all_port = proc->processor().ports() > 1;
  run.in_order = proc->processor().params().send_model == "in_order";
  run.three_way = !dn->shared_links.empty();
  if (run.family == Run::Family::mtorus && proc->processor().params().packet_bytes > 0)
    throw ConfigError("traffic.scheme " + scheme + " sends IR worms, which are one packet each: processor.packet_bytes "
                      "must be 0 (it is " + std::to_string(proc->processor().params().packet_bytes) + ")");
  if (run.family == Run::Family::mtorus && !run.all_port)
    throw ConfigError("traffic.scheme " + scheme + " needs all-port nodes (router.ports: all_port): with one-port "
                      "nodes, IR worms can deadlock at the processor's port (seed001 §4.3)");
  for (int x = 0; x < n; ++x)
    if (!net.node(x).software()) throw ConfigError("traffic.kind direct_multicast needs node.model processor");
  // Made only once nothing can be refused: an event left from a refused
  // attach would keep the kernel from being freed (rtl_models/kernel.h).
  run.all_received = std::make_unique<sc_core::sc_event>();
  auto shared = run_;
  for (int x = 0; x < n; ++x) {
    rtl::ProgramHost* h = net.node(x).software();
    if (x == run.source) h->set_program([shared](rtl::HostApi& api) { shared->source_program(api); });
    else h->set_program([shared](rtl::HostApi& api) { shared->relay_program(api); });
  }
}

void Run::begin_trial(Cycle now) {
  if (!fixed.empty()) {
    dests = fixed;
  } else {
    std::vector<rtl::NodeId> others;
    const int n = static_cast<int>(expected.size());
    for (rtl::NodeId x = 0; x < n; ++x)
      if (x != source) others.push_back(x);
    Rng t = rng.fork(max_latency.size());
    draw_to_front(t, others, static_cast<std::size_t>(set_size - 1));
    dests.assign(others.begin(), others.begin() + (set_size - 1));
  }
  std::fill(expected.begin(), expected.end(), 0);
  for (rtl::NodeId d : dests) expected[static_cast<std::size_t>(d)] = 1;
  remaining = dests.size();
  received.clear();
  transfers.clear();
  start = now;
  trial_first_message = messages_sent;
}

void Run::note_received(rtl::NodeId at, Cycle when) {
  char& e = expected[static_cast<std::size_t>(at)];
  if (!e)
    throw std::logic_error("direct_multicast: node " + routing->topology().name(at) +
                           " received a multicast message it should not have (not a destination, or twice)");
  e = 0;
  if (when < start) throw std::logic_error("direct_multicast: a message received before its trial started");
  received.push_back({at, when});
  if (--remaining == 0) all_received->notify(sc_core::SC_ZERO_TIME);
}

void Run::end_trial() {
  // Nothing invented, nothing lost: the relays' local rules sent exactly the
  // messages the plan lists for this set (computed by the planner, apart).
  const auto [planned_steps, planned] = plan();
  if (messages_sent - trial_first_message != static_cast<std::uint64_t>(planned))
    throw std::logic_error("direct_multicast: trial " + std::to_string(max_latency.size() + 1) + " sent " +
                           std::to_string(messages_sent - trial_first_message) + " messages, its plan " +
                           std::to_string(planned));
  Cycle last = start;
  double sum = 0;
  for (const Reception& r : received) {
    last = std::max(last, r.at);
    sum += static_cast<double>(r.at - start);
  }
  if (last - start > UINT32_MAX)   // the latency lists hold 32 bits (summarize_cycles)
    throw std::logic_error("direct_multicast: a multicast of " + std::to_string(last - start) +
                           " cycles does not fit the latency statistics");
  measure_transfers(last);
  max_latency.push_back(static_cast<std::uint32_t>(last - start));
  mean_latency.push_back(sum / static_cast<double>(received.size()));
  steps.push_back(static_cast<std::uint32_t>(planned_steps));
}

// The plan of this trial's set: its steps (phases) and message count; the
// routes of its messages give the link metrics (seed004 §1: visits, distinct
// links, their ratio).
std::pair<int, int> Run::plan() {
  const topo::DirectTopology& t = routing->topology();
  std::vector<std::vector<topo::RouteHop>> routes;
  int steps_of_plan = 0;
  switch (family) {
    case Family::cube: {
      const auto c = algo::plan_cube_multicast(
          t.dimensions(), source, dests, static_cast<algo::CubeVariant>(variant),
          all_port ? algo::CubePorts::all_port : algo::CubePorts::one_port,
          in_order ? algo::CubeSteps::in_order_issue : algo::CubeSteps::per_channel_queue);
      for (const auto& u : c.unicasts) routes.push_back(routing->route(u.sender, u.receiver));
      steps_of_plan = c.steps;
      break;
    }
    case Family::utorus: {
      const auto u = algo::plan_utorus(t, source, dests);
      mean_step.push_back(algo::utorus_shared_steps(*routing, u, algo::LinkSharing::none).mean);
      const auto two = algo::utorus_shared_steps(*routing, u, algo::LinkSharing::two_way);
      const auto three = t.bidirectional() ? algo::utorus_shared_steps(*routing, u, algo::LinkSharing::three_way) : two;
      const auto& s = three_way ? three : two;
      shared_steps.push_back(s.max);
      shared_mean_step.push_back(s.mean);
      type1.push_back(two.shared_unicasts);
      type2.push_back(three.triple_unicasts);
      for (const auto& x : u.unicasts) routes.push_back(routing->route(x.sender, x.receiver));
      steps_of_plan = u.steps;
      break;
    }
    case Family::mtorus: {
      const auto m = algo::plan_mtorus(*routing, source, dests, static_cast<algo::MTorusPartition>(variant), r);
      for (const auto& w : m.worms) routes.push_back(routing->route_path(w.sender, algo::worm_destinations(w)));
      steps_of_plan = m.phases;
      break;
    }
    case Family::sci: {
      const auto p = algo::plan_sci(t, static_cast<algo::SciScheme>(variant), source, dests, r);
      const algo::SciLinkUse use = algo::sci_link_use(*routing, p);
      plan_concurrency.push_back(use.concurrency);
      root_targets.push_back(use.root_targets);
      for (const auto& u : p.unicasts) routes.push_back(routing->route(u.sender, u.receiver));
      steps_of_plan = p.steps;
      break;
    }
  }
  std::vector<char> used(static_cast<std::size_t>(t.num_channel_slots()), 0);
  double visits = 0, distinct = 0;
  for (const auto& route : routes)
    for (const topo::RouteHop& h : route) {
      ++visits;
      char& u = used[static_cast<std::size_t>(t.channel_slot(h.node, h.dim, h.dir))];
      distinct += u ? 0 : 1;
      u = 1;
    }
  link_visits.push_back(visits);
  used_links.push_back(distinct);
  link_utilization.push_back(distinct > 0 ? visits / distinct : 0.0);
  return {steps_of_plan, static_cast<int>(routes.size())};
}

void Run::note_posted(std::uint64_t id, rtl::NodeId sender, Cycle when) {
  transfers[id] = {when, 0, sender};
}

void Run::note_arrived(std::uint64_t id, Cycle when) {
  const auto it = transfers.find(id);
  if (it == transfers.end())
    throw std::logic_error("direct_multicast: message " + std::to_string(id) + " arrived but was never sent");
  it->second.arrived = std::max(it->second.arrived, when);   // an IR worm: its last destination
}

// The trial's measured transfers: the most in flight at once (from the send's
// post, after t_S, until the receiver holds the whole message; seed004 §1's
// concurrency), and how long the root's CPU stays with the multicast: until
// its last send has been delivered (seed004 §3: the host polls a completion
// flag; guaranteed delivery's acknowledgement taken as instantaneous).
void Run::measure_transfers(Cycle last) {
  std::vector<std::pair<Cycle, int>> edges;
  Cycle root_done = start;
  for (const auto& [id, x] : transfers) {
    if (x.arrived < x.posted)
      throw std::logic_error("direct_multicast: message " + std::to_string(id) + " was not delivered in its trial");
    edges.emplace_back(x.posted, +1);
    edges.emplace_back(x.arrived, -1);
    if (x.sender == source) root_done = std::max(root_done, x.arrived);
  }
  std::sort(edges.begin(), edges.end());   // an arrival (-1) before a post (+1) in the same cycle
  int now = 0, most = 0;
  for (const auto& e : edges) most = std::max(most, now += e.second);
  const double busy = static_cast<double>(root_done - start), total = static_cast<double>(last - start);
  if (most < 1 || busy > total || total <= 0)
    throw std::logic_error("direct_multicast: trial transfers out of bounds (concurrency " + std::to_string(most) +
                           ", root busy " + std::to_string(busy) + " of " + std::to_string(total) + " cycles)");
  concurrency.push_back(most);
  root_busy.push_back(busy);
  root_utilization.push_back(busy / total);
}

void Run::source_program(rtl::HostApi& h) {
  auto& mine = field[static_cast<std::size_t>(source)];
  for (int i = 0; i < trials && h.now() < stop; ++i) {
    begin_trial(h.now());
    switch (family) {
      case Family::cube:
        mine = algo::cube_chain(routing->topology().dimensions(), source, dests, static_cast<algo::CubeVariant>(variant));
        break;
      case Family::utorus:
        mine = algo::dimension_ordered_chain(routing->topology(), source, dests);
        break;
      case Family::mtorus:
        mine = algo::h_cycle(*routing, source, dests);
        break;
      case Family::sci:
        mine = algo::sci_group_order(routing->topology(), static_cast<algo::SciScheme>(variant), source, dests);
        break;
    }
    send_part(h);
    while (remaining > 0) sc_core::wait(*all_received);
    end_trial();
  }
}

void Run::relay_program(rtl::HostApi& h) {
  for (;;) {
    receive(h);
    send_part(h);
  }
}

// One reception: the message's field becomes this node's part. Its own
// function, so that the message (it holds packet references) is gone before
// the sends wait (rtl_models/kernel.h).
void Run::receive(rtl::HostApi& h) {
  const auto me = static_cast<std::size_t>(h.node());
  {
    const rtl::ReceivedMessage m = h.receive();
    note_received(h.node(), m.received);
    note_arrived(m.id, m.completed);
    if (family == Family::mtorus) {
      if (!m.header) throw std::logic_error("direct_multicast: a worm without a compound header reached a relay");
      const algo::CompoundBlock b = algo::received_compound_block(*m.header);
      if (b.dest != h.node()) throw std::logic_error("direct_multicast: a compound block for another node");
      field[me].assign(1, h.node());
      field[me].insert(field[me].end(), b.later.begin(), b.later.end());
    } else {
      const auto it = payload.find(m.id);
      if (it == payload.end())
        throw std::logic_error("direct_multicast: message " + std::to_string(m.id) + " carries no address field");
      field[me] = std::move(it->second);
      payload.erase(it);
    }
  }
}

// The local rule on this node's field (its part, itself first).
void Run::send_part(rtl::HostApi& h) {
  const auto me = static_cast<std::size_t>(h.node());
  if (family == Family::mtorus) {
    auto& d = dynamic_cast<rtl::DirectHostApi&>(h);
    const auto p = static_cast<algo::MTorusPartition>(variant);
    // Fig. 6.1 at this node (algo::mtorus_local_worms), from its part
    // alone: a relay does not know its phase, and needs not. Read as level 1,
    // a part handed out at phase p does not split at the orders above
    // n - p - 1 (it lies in one such sub-torus), so M_d skips them and sends
    // the same worms; only the plan's phase labels would differ.
    worm[me] = algo::mtorus_local_worms(*routing, field[me], p, r, 0);
    for (std::size_t i = 0; i < worm[me].size(); ++i) {
      // Two statements: the post's time is read after send_compound's t_S
      // (as arguments of one call, it could be read before).
      const std::uint64_t id = d.send_compound(worm[me][i].blocks, bytes);
      note_posted(id, h.node(), h.now());
      ++messages_sent;
    }
    return;
  }
  auto& out = unicasts[me];
  out.clear();
  if (family == Family::cube)
    for (auto& s : algo::cube_local_sends(field[me], static_cast<algo::CubeVariant>(variant)))
      out.emplace_back(s.to, std::move(s.field));
  else if (family == Family::sci)
    for (auto& s : algo::sci_local_sends(routing->topology(), static_cast<algo::SciScheme>(variant), r, field[me]))
      out.emplace_back(s.to, std::move(s.field));
  else
    for (auto& s : algo::utorus_local_sends(field[me])) out.emplace_back(s.to, std::move(s.field));
  for (std::size_t i = 0; i < out.size(); ++i) {
    const std::uint64_t id = h.send(out[i].first, bytes);   // waits t_S
    payload[id] = std::move(out[i].second);   // in flight for at least a hop: written before it can arrive
    note_posted(id, h.node(), h.now());
    ++messages_sent;
  }
}

bool DirectMulticastWorkload::measured_pending(const rtl::SimContext&) const {
  return run_ && static_cast<int>(run_->max_latency.size()) < trials;
}

void DirectMulticastWorkload::stop_creating_at(Cycle c) {
  if (run_) run_->stop = c;
}

std::string DirectMulticastWorkload::pending_work(const rtl::SimContext& ctx) const {
  const std::size_t done = run_ ? run_->max_latency.size() : 0;
  return std::to_string(done) + " of " + std::to_string(trials) + " multicasts complete" +
         (run_ && run_->remaining > 0 ? "; " + std::to_string(run_->remaining) + " destinations of the current one waiting"
                                      : std::string()) +
         "; " + std::to_string(ctx.messages.outstanding()) + " messages outstanding";
}

void DirectMulticastWorkload::register_statistics(rtl::StatsScope s) const {
  auto run = run_;
  const rtl::SimContext& ctx = s.ctx;
  const double us = ctx.clock.cycles_to_us(1.0);
  s.stats.add("multicast.latency_cycles", "cycles",
              "per trial, the maximum over its destinations of: trial start to the end of t_R (seed001 §5.3 maximum latency)",
              [run, us] { return summarize_cycles(run->max_latency, us); });
  s.stats.add("multicast.mean_latency_cycles", "cycles",
              "per trial, the mean over its destinations of the same latency (seed001 §5.3 average latency): "
              "count, mean over trials, min, max",
              [run, us] { return summarize_values(run->mean_latency, us); });
  s.stats.add("multicast.plan_steps", "steps", "per trial, the scheme's analytical steps (phases) for its set, as "
              "`wormcast plan` computes them: count, mean, min, max",
              [run] { return summarize_values(std::vector<double>(run->steps.begin(), run->steps.end()), 0.0); });
  if (run->family == Run::Family::utorus) {
    s.stats.add("multicast.plan_mean_step", "steps", "per trial, the mean over the destinations of the step that "
                "reaches them (no link sharing; seed001 §5.2's lower bound for the average): count, mean, min, max",
                [run] { return summarize_values(run->mean_step, 0.0); });
    s.stats.add("multicast.shared_steps", "steps", "per trial, the last destination's step when unicasts of one "
                "step sharing a physical link take one step per user (seed001 §5.2; 3-way with router.link_sharing "
                "bidirectional): count, mean, min, max",
                [run] { return summarize_values(run->shared_steps, 0.0); });
    s.stats.add("multicast.shared_mean_step", "steps", "per trial, the mean over the destinations of that step",
                [run] { return summarize_values(run->shared_mean_step, 0.0); });
    s.stats.add("multicast.type1_unicasts", "unicasts", "per trial, unicasts sharing a physical link with another of "
                "their step, VCs of one direction multiplexed (seed001 Fig. 4.17 Type 1)",
                [run] { return summarize_values(run->type1, 0.0); });
    s.stats.add("multicast.type2_unicasts", "unicasts", "per trial, unicasts sharing a physical link with two others "
                "of their step, all VCs of a router pair multiplexed (Fig. 4.17 Type 2; 0 on unidirectional tori)",
                [run] { return summarize_values(run->type2, 0.0); });
  }
  s.stats.add("multicast.plan_link_visits", "links", "per trial, the links the plan's messages cross, summed "
              "(seed001 Fig. 6.8's total link visits): count, mean, min, max",
              [run] { return summarize_values(run->link_visits, 0.0); });
  s.stats.add("multicast.plan_used_links", "links", "per trial, the distinct directed links the plan's messages "
              "cross (seed004 §1 used links): count, mean, min, max",
              [run] { return summarize_values(run->used_links, 0.0); });
  s.stats.add("multicast.plan_link_utilization", "", "per trial, link visits / used links (seed004 §1, >= 1): "
              "count, mean, min, max",
              [run] { return summarize_values(run->link_utilization, 0.0); });
  s.stats.add("multicast.concurrency", "transfers", "per trial, measured: the most messages in flight at once, "
              "each from its post (after t_S) until its receiver holds all of it (seed004 §1): count, mean, min, max",
              [run] { return summarize_values(run->concurrency, 0.0); });
  s.stats.add("multicast.root_busy_cycles", "cycles", "per trial, measured: trial start until the root's last send "
              "is delivered, the time a polling root's CPU spends on the multicast (seed004 §3; acknowledgement "
              "taken as instantaneous): count, mean, min, max",
              [run, us] { return summarize_values(run->root_busy, us); });
  s.stats.add("multicast.root_cpu_utilization", "", "per trial, root_busy_cycles / the trial's latency, in (0, 1]: "
              "count, mean, min, max",
              [run] { return summarize_values(run->root_utilization, 0.0); });
  if (run->family == Run::Family::sci) {
    s.stats.add("multicast.plan_concurrency", "unicasts", "per trial, the step model's most unicasts in one "
                "logical step: count, mean, min, max",
                [run] { return summarize_values(run->plan_concurrency, 0.0); });
    s.stats.add("multicast.plan_root_targets", "nodes", "per trial, the distinct nodes the root sends to (seed004 "
                "§6: start-up latency = set-up cost x this): count, mean, min, max",
                [run] { return summarize_values(run->root_targets, 0.0); });
  }
  s.stats.add("multicast.messages", "messages", "unicasts or worms sent by the source and the relays, all trials",
              [run] { return run->messages_sent; });
  s.stats.add("multicast.set", "", "the multicast: scheme family, source, set size (source included), trials",
              [run] {
                return nlohmann::json{{"source", run->routing->topology().name(run->source)},
                                      {"set_size", run->fixed.empty() ? run->set_size
                                                                      : static_cast<int>(run->fixed.size()) + 1},
                                      {"fixed_set", !run->fixed.empty()},
                                      {"all_port", run->all_port}};
              });
}

}  // namespace wormcast::tb
