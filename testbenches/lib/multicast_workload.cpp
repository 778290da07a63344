#include "testbenches/lib/multicast_workload.h"

#include <algorithm>
#include <sstream>

#include "algorithms/chain_ordering.h"
#include "algorithms/kbinomial.h"
#include "rtl_models/host_ni_node.h"
#include "testbenches/lib/config.h"
#include "topologies/elaborator.h"

namespace wormcast::tb {

void SingleMulticastWorkload::visit(ParamVisitor& v, const rtl::NodeModel&) {
  v.count("source", source, "the multicast's source node", 0, 1 << 20);
  v.count("set_size", set_size, "multicast set size n (source included) of a random destination set", 2, 1 << 20);
  v.text("destinations", destinations,
         "comma-separated destination nodes; empty: set_size - 1 random nodes (drawn from the run's seed)");
  v.count("k", k, "fan-out bound of the k-binomial tree; 0: optimal for (n, m) (seed000 Theorem 3)", 0, 64);
  v.choice("construction", construction, {"time_ordered", "literal"},
           "tree truncation rule (algorithms/kbinomial_tree.h): time_ordered (construction B) or literal (A)");
  v.choice("ordering", ordering, {"cco_approx", "given"},
           "chain ordering of the set: cco_approx (switch networks) or given (source, then destinations as listed)");
  v.count("repetitions", repetitions, "multicasts sent one after another (each measured)", 1, 1 << 20);
  v.choice("scheme", scheme, {"ni", "tree", "path-lg", "path-greedy", "ssr"},
           "multicast scheme: ni (smart-NI k-binomial tree, host_ni) or a switch-based one (seed000 §5): tree "
           "(one bit-string worm), path-lg / path-greedy (multi-drop worms, Less-Greedy / Greedy phases), ssr");
}

void SingleMulticastWorkload::visit_sections(ParamVisitor& v, const rtl::NodeModel& nodes) {
  if (!nodes.runs_software() && scheme == "ni") return;
  v.begin_section("message", "messages (node.model host_ni; with endpoints and a switch-based scheme, the worm payload)");
  message.visit(v);
  v.end_section();
}

void SingleMulticastWorkload::describe_facts(rtl::ConfigFacts& f) const {
  if (scheme == "ni") return;
  // A worm's header adds at least one flit; attach() checks the real size.
  f.workload_packet_flits = message.size + 1;
  f.workload_packet_key = "message.size + the worm header";
}

void SingleMulticastWorkload::validate(const rtl::ConfigFacts& f, const rtl::NodeModel& nodes) const {
  const auto* hn = dynamic_cast<const rtl::HostNiModel*>(&nodes);
  if (!hn && scheme != "ni") return;
  if (!hn) throw std::invalid_argument(f.where + ": traffic.kind single_multicast with traffic.scheme ni needs node.model host_ni");
  const int m = (message.size + hn->ni.packet_size - 1) / hn->ni.packet_size;
  if (hn->ni.firmware == "fcfs") {
    // FCFS keeps the whole message in NI memory at the source and at relays.
    if (m > hn->ni.send_queue)
      throw std::invalid_argument(f.where + ": ni.firmware fcfs holds the whole message (" + std::to_string(m) +
                                  " packets) in the source's send queue, but ni.send_queue is " +
                                  std::to_string(hn->ni.send_queue));
    if (m * (hn->ni.packet_size + hn->ni.header_flits) > hn->ni.receive_queue)
      throw std::invalid_argument(f.where + ": ni.firmware fcfs holds the whole message at a relay, but "
                                  "ni.receive_queue is smaller than message.size plus headers");
  }
}

std::vector<int> SingleMulticastWorkload::destination_set(int nodes, const Rng& rng) const {
  if (source >= nodes)
    throw ConfigError("traffic.source " + std::to_string(source) + ": the network has " + std::to_string(nodes) +
                      " nodes");
  std::vector<int> d;
  if (!destinations.empty()) {
    std::stringstream ss(destinations);
    std::string item;
    while (std::getline(ss, item, ',')) {
      try {
        d.push_back(std::stoi(item));
      } catch (const std::exception&) {
        throw ConfigError("traffic.destinations: '" + item + "' is not a node number");
      }
    }
    return d;
  }
  if (set_size > nodes)
    throw ConfigError("traffic.set_size " + std::to_string(set_size) + " exceeds the " + std::to_string(nodes) +
                      " nodes of the network");
  std::vector<int> others;
  for (int i = 0; i < nodes; ++i)
    if (i != source) others.push_back(i);
  Rng r = rng.fork(0x7300000000ULL);
  for (int i = 0; i + 1 < set_size; ++i) {   // partial Fisher-Yates
    const auto j = static_cast<std::size_t>(i) + static_cast<std::size_t>(r.below(others.size() - static_cast<std::size_t>(i)));
    std::swap(others[static_cast<std::size_t>(i)], others[j]);
    d.push_back(others[static_cast<std::size_t>(i)]);
  }
  return d;
}

void SingleMulticastWorkload::attach(topo::NetworkModel& net, rtl::SimContext& ctx, const Rng& rng) {
  const std::vector<int> dests = destination_set(net.num_nodes(), rng);
  run_ = std::make_shared<Run>();
  if (scheme != "ni") return attach_worms(net, ctx, dests);
  try {
    if (ordering == "cco_approx") {
      auto* sw = dynamic_cast<topo::Network*>(&net);
      if (!sw) throw ConfigError("traffic.ordering cco_approx needs a switch network (irregular or file)");
      run_->chain = algo::cco_approx_chain(sw->topology(), sw->routing(), source, dests);
    } else {
      run_->chain = algo::given_order_chain(source, dests);
    }
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("traffic.destinations: ") + e.what());
  }
  for (int node : run_->chain) {
    if (node >= net.num_nodes())
      throw ConfigError("traffic.destinations: node " + std::to_string(node) + " does not exist");
    auto* hn = dynamic_cast<rtl::HostNiNode*>(&net.node(node));
    if (!hn) throw ConfigError("traffic.kind single_multicast needs node.model host_ni");
    run_->nis.push_back(&hn->node().ni);
  }
  const int packet_size = run_->nis.front()->params().packet_size;
  run_->bytes = message.size;
  run_->packets = (message.size + packet_size - 1) / packet_size;
  run_->k = k > 0 ? static_cast<unsigned>(k)
                  : algo::optimal_k(run_->chain.size(), static_cast<algo::Count>(run_->packets)).k;
  run_->construction = construction == "literal" ? 1 : 0;
  run_->repetitions = repetitions;
  auto run = run_;
  net.node(source).host()->set_program([run](rtl::HostApi& h) { run->source_program(h); });
  for (std::size_t i = 1; i < run_->chain.size(); ++i)
    net.node(run_->chain[i]).host()->set_program([run](rtl::HostApi& h) { run->destination_program(h); });
}

void SingleMulticastWorkload::Run::source_program(rtl::HostApi& h) {
  for (int r = 0; r < repetitions && h.now() < stop; ++r) {
    send_call = h.now();
    last_received = 0;
    remaining = chain.size() - 1;
    h.send_multicast(chain, k, construction, bytes);
    while (remaining > 0) sc_core::wait(all_received);
    latency.push_back(static_cast<std::uint32_t>(last_received - send_call));
  }
}

void SingleMulticastWorkload::Run::destination_program(rtl::HostApi& h) {
  for (;;) {
    const rtl::ReceivedMessage m = h.receive();
    last_received = std::max(last_received, m.received);
    if (remaining > 0 && --remaining == 0) all_received.notify(sc_core::SC_ZERO_TIME);
  }
}

bool SingleMulticastWorkload::measured_pending(const rtl::SimContext&) const {
  return run_ && static_cast<int>(run_->latency.size()) < repetitions;
}

void SingleMulticastWorkload::stop_creating_at(Cycle c) {
  if (run_) run_->stop = c;
}

std::string SingleMulticastWorkload::pending_work(const rtl::SimContext& ctx) const {
  const std::size_t done = run_ ? run_->latency.size() : 0;
  return std::to_string(done) + " of " + std::to_string(repetitions) + " multicasts complete; " +
         std::to_string(ctx.messages.outstanding()) + " messages outstanding";
}

void SingleMulticastWorkload::register_statistics(rtl::StatsScope s) const {
  auto run = run_;
  const rtl::SimContext& ctx = s.ctx;
  s.stats.add("multicast.latency_cycles", "cycles",
              "per repetition: source's send call to the end of t_hr at the last destination",
              [run, &ctx] { return summarize_cycles(run->latency, ctx.clock.cycles_to_us(1.0)); });
  if (run->worms) {
    s.stats.add("multicast.worms", "worms", "worms sent by the source and the relays, all repetitions",
                [run] { return run->worms_sent; });
    s.stats.add("multicast.set", "", "the multicast: scheme, source, destinations, longest worm in flits", [run] {
      return nlohmann::json{{"scheme", rtl::switch_scheme_name(run->scheme)}, {"source", run->chain.front()},
                            {"destinations", std::vector<int>(run->chain.begin() + 1, run->chain.end())},
                            {"max_worm_flits", run->max_worm_flits}};
    });
    return;
  }
  s.stats.add("multicast.tree", "", "the multicast: set size n (source included), packets m, k, chain, and the "
              "unit-step model's T_m = T_1 + (m-1)k", [run] {
                const auto n = static_cast<algo::Count>(run->chain.size());
                return nlohmann::json{{"n", n}, {"m", run->packets}, {"k", run->k}, {"chain", run->chain},
                                      {"pipelined_steps", algo::pipelined_steps(n, run->k,
                                                                                static_cast<algo::Count>(run->packets))}};
              });
  s.stats.add("multicast.steps", "steps", "step-timing mode (ni.step_cycles): latest step any chain member "
              "received a packet in (T_m of the unit-step model); 0 when off", [run] {
                unsigned last = 0;
                for (const auto* ni : run->nis) last = std::max(last, ni->stats().last_step);
                return last;
              });
  s.stats.add("multicast.step_overruns", "events", "step-timing mode: sends or receptions that missed their step "
              "(ni.step_cycles too short for t_ns + propagation + t_nr)", [run] {
                std::uint64_t n = 0;
                for (const auto* ni : run->nis) n += ni->stats().step_overruns;
                return n;
              });
  s.stats.add("multicast.ni_memory_peak_flits", "flits", "peak NI memory of each chain member's NI, in chain order",
              [run] {
                std::vector<int> v;
                for (const auto* ni : run->nis) v.push_back(ni->stats().peak_flits);
                return nlohmann::json(v);
              });
}

}  // namespace wormcast::tb
