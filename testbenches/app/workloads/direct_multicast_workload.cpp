#include "testbenches/app/workloads/direct_multicast_workload.h"

#include <algorithm>
#include <sstream>

#include "rtl_models/node/direct_processor.h"
#include "rtl_models/node/processor_node.h"
#include "rtl_models/core/statistics.h"
#include "testbenches/app/config.h"
#include "topologies/networks/direct_network_kind.h"

namespace wormcast::tb {

using Run = DirectMulticastWorkload::Run;

namespace {

// traffic.scheme's help: the schemes, grouped by the network they need.
const char* scheme_help() {
  static const std::string text = [] {
    std::string out = "the multicast scheme (`wormcast plan --list` describes each):";
    std::string group, need;
    for (const auto& e : algo::direct_schemes().entries()) {
      const algo::NetworkNeed n = e.make()->needs().back();
      const std::string this_need = std::string(n.topology) + ", " + n.routing;
      if (this_need != need && !group.empty()) out += " " + group + " (" + need + ");";
      group = this_need == need ? group + " / " + e.name : e.name;
      need = this_need;
    }
    return out + " " + group + " (" + need + ")";
  }();
  return text.c_str();
}

}  // namespace

void DirectMulticastWorkload::visit(ParamVisitor& v, const rtl::NodeModel&) {
  v.choice("scheme", scheme, algo::direct_schemes().names(), scheme_help());
  for (const algo::OptionHelp& o : direct_count_options())
    v.count(o.key.c_str(), scheme_counts[o.key], o.help.c_str(), 0, 1 << 20);
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

std::string DirectMulticastWorkload::node_count_problem(int n) const {
  return multicast_set_problem(source, set_size, !destinations.empty(), n);
}

void DirectMulticastWorkload::validate(const rtl::ConfigFacts& f, const rtl::NodeModel& nodes) const {
  if (!dynamic_cast<const rtl::ProcessorModel*>(&nodes))
    throw std::invalid_argument(f.where + ": traffic.kind direct_multicast needs node.model processor");
  try {
    configured_scheme();
  } catch (const std::invalid_argument& e) {
    throw std::invalid_argument(f.where + ": " + e.what());
  }
}

std::unique_ptr<algo::DirectScheme> DirectMulticastWorkload::configured_scheme() const {
  std::unique_ptr<algo::DirectScheme> s = algo::direct_schemes().make(scheme);
  algo::set_options(*s, direct_option_texts(scheme_counts), algo::experiment_keys(scheme));
  return s;
}

namespace {

// A scheme's refusal as the experiment's error.
template <class F>
void or_config_error(F&& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    throw ConfigError(e.what());
  }
}


}  // namespace

void DirectMulticastWorkload::attach(topo::NetworkModel& net, rtl::SimContext&, const Rng& rng) {
  auto* dn = dynamic_cast<topo::DirectNetwork*>(&net);
  if (!dn) throw ConfigError("traffic.kind direct_multicast needs a direct network (topology.kind torus, mesh or hypercube)");
  if (const topo::RoutingFunction* f = dn->adaptive_routing())
    throw ConfigError("traffic.kind direct_multicast: its schemes plan every message on the routes of a "
                      "deterministic routing.function (the plan's link metrics and its worms' deadlock freedom rest "
                      "on them); routing.function " + f->name() + " is adaptive: run it with unicast traffic, or "
                      "choose a deterministic routing.function");
  run_ = std::make_shared<Run>();
  Run& run = *run_;
  run.scheme = configured_scheme();
  const algo::SchemeKeys keys = algo::experiment_keys(scheme);
  or_config_error([&] { algo::require_network(*run.scheme, keys, &dn->topology(), &dn->routing()); });
  run.routing = dn->routing_ptr();
  const int n = net.num_nodes();   // source and set_size fit it (node_count_problem)
  run.source = source >= 0 ? source : static_cast<rtl::NodeId>(rng.fork(0x7400000000ULL).below(static_cast<std::uint64_t>(n)));
  if (!destinations.empty()) run.fixed = direct_node_list(dn->topology(), destinations, run.source, "traffic.destinations");
  run.set_size = set_size;
  run.rng = rng.fork(0x7300000000ULL);
  run.bytes = message.size;
  run.trials = trials;
  run.field.assign(static_cast<std::size_t>(n), {});
  run.sends.assign(static_cast<std::size_t>(n), {});
  run.expected.assign(static_cast<std::size_t>(n), 0);
  const auto* proc = dynamic_cast<rtl::ProcessorNode*>(&net.node(run.source));
  if (!proc) throw ConfigError("traffic.kind direct_multicast needs node.model processor");
  const algo::DirectNodeFacts facts = direct_node_facts(*proc, *dn);
  run.all_port = facts.all_port;
  or_config_error([&] { run.scheme->fit_nodes(facts, keys); });
  run.carrier = &direct_carrier(run.scheme->carrier());
  run.metrics = run.scheme->trial_metrics();
  run.metric_values.assign(run.metrics.size(), {});
  for (int x = 0; x < n; ++x)
    if (!net.node(x).software()) throw ConfigError("traffic.kind direct_multicast needs node.model processor");
  // Made only once nothing can be refused: an event left from a refused
  // attach would keep the kernel from being freed (rtl_models/core/kernel.h).
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
  const algo::TrialPlan p = scheme->trial_plan(*routing, source, dests);
  if (p.metrics.size() != metrics.size())
    throw std::logic_error("direct_multicast: the scheme's plan gave " + std::to_string(p.metrics.size()) +
                           " metrics for its " + std::to_string(metrics.size()) + " statistics");
  for (std::size_t i = 0; i < metrics.size(); ++i) metric_values[i].push_back(p.metrics[i]);
  std::vector<char> used(static_cast<std::size_t>(t.num_channel_slots()), 0);
  double visits = 0, distinct = 0;
  for (const auto& route : p.routes)
    for (const topo::RouteHop& h : route) {
      ++visits;
      char& u = used[static_cast<std::size_t>(t.channel_slot(h.node, h.dim, h.dir))];
      distinct += u ? 0 : 1;
      u = 1;
    }
  link_visits.push_back(visits);
  used_links.push_back(distinct);
  link_utilization.push_back(distinct > 0 ? visits / distinct : 0.0);
  return {p.steps, static_cast<int>(p.routes.size())};
}

void Run::note_posted(std::uint64_t id, rtl::NodeId sender, Cycle when) {
  transfers[id] = {when, 0, sender};
}

void Run::note_arrived(std::uint64_t id, Cycle when) {
  const auto it = transfers.find(id);
  if (it == transfers.end())
    throw std::logic_error("direct_multicast: message " + std::to_string(id) + " arrived but was never sent");
  it->second.arrived = std::max(it->second.arrived, when);   // an IR worm: its last destination
  ++it->second.receivers;
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
    mine = scheme->source_part(*routing, source, dests);
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
// the sends wait (rtl_models/core/kernel.h).
void Run::receive(rtl::HostApi& h) {
  const auto me = static_cast<std::size_t>(h.node());
  {
    const rtl::ReceivedMessage m = h.receive();
    note_received(h.node(), m.received);
    note_arrived(m.id, m.completed);
    field[me] = carrier->take(m, h.node(), payload);
  }
}

// The local rule on this node's field (its part, itself first).
void Run::send_part(rtl::HostApi& h) {
  const auto me = static_cast<std::size_t>(h.node());
  auto& out = sends[me];
  out = scheme->local_sends(*routing, field[me]);
  for (std::size_t i = 0; i < out.size(); ++i) {
    // Two statements: the post's time is read after the send's t_S (as
    // arguments of one call, it could be read before).
    const std::uint64_t id = carrier->send(h, out[i], bytes, payload);
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

namespace {

// The statistics the scheme's plan adds (algo::TrialMetric), at `place`.
void add_scheme_statistics(rtl::StatsScope s, const std::shared_ptr<Run>& run, algo::TrialMetric::Place place) {
  for (std::size_t i = 0; i < run->metrics.size(); ++i) {
    const algo::TrialMetric& m = run->metrics[i];
    if (m.place == place)
      s.stats.add(m.name, m.unit, m.description, [run, i] { return summarize_values(run->metric_values[i], 0.0); });
  }
}

}  // namespace

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
  add_scheme_statistics(s, run, algo::TrialMetric::Place::with_steps);
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
  add_scheme_statistics(s, run, algo::TrialMetric::Place::with_transfers);
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
