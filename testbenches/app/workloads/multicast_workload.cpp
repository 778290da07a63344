#include "testbenches/app/workloads/multicast_workload.h"

#include <algorithm>
#include <sstream>

#include "algorithms/chain_ordering.h"
#include "algorithms/kbinomial.h"
#include "rtl_models/node/host_ni_node.h"
#include "testbenches/app/config.h"
#include "topologies/networks/elaborator.h"

namespace wormcast::tb {

namespace {

// Peak and time-weighted mean NI memory per NI, and the maximum of each.
nlohmann::json ni_memory_summary(const std::vector<const rtl::NetworkInterface*>& nis, Cycle now) {
  std::vector<int> peak;
  std::vector<double> mean;
  const double cycles = std::max<double>(1.0, static_cast<double>(now));
  for (const auto* ni : nis) {
    const rtl::NiStats st = ni->stats();
    const int capacity = ni->params().send_queue * (ni->params().packet_size + ni->params().header_flits) +
                         ni->params().receive_queue;
    if (st.peak_flits < 0 || st.peak_flits > capacity)
      throw std::logic_error("single_multicast: NI memory peak " + std::to_string(st.peak_flits) +
                             " flits outside [0, " + std::to_string(capacity) + "] (send + receive queues)");
    peak.push_back(st.peak_flits);
    mean.push_back(st.occupancy_integral / cycles);
  }
  // Relays and leaves only (chain positions 1..): the source's send queue
  // holds the message under every discipline when its DMA outruns t_ns.
  const int relay_peak = peak.size() > 1 ? *std::max_element(peak.begin() + 1, peak.end()) : 0;
  const double relay_mean = mean.size() > 1 ? *std::max_element(mean.begin() + 1, mean.end()) : 0.0;
  return nlohmann::json{{"peak_flits", peak},
                        {"mean_flits", mean},
                        {"max_peak_flits", peak.empty() ? 0 : *std::max_element(peak.begin(), peak.end())},
                        {"max_mean_flits", mean.empty() ? 0.0 : *std::max_element(mean.begin(), mean.end())},
                        {"destinations_max_peak_flits", relay_peak},
                        {"destinations_max_mean_flits", relay_mean}};
}

}  // namespace

void SingleMulticastWorkload::visit(ParamVisitor& v, const rtl::NodeModel&) {
  v.count("source", source, "the multicast's source node; -1: a random node (drawn from the run's seed)", -1,
          1 << 20);
  v.count("set_size", set_size, "multicast set size n (source included) of a random destination set", 2, 1 << 20);
  v.text("destinations", destinations,
         "comma-separated destination nodes; empty: set_size - 1 random nodes (drawn from the run's seed)");
  v.count("k", k, "fan-out bound of the k-binomial tree; 0: optimal for (n, m) (seed000 Theorem 3)", 0, 64);
  v.choice("construction", construction, {"time_ordered", "literal"},
           "tree truncation rule (algorithms/kbinomial_tree.h): time_ordered (construction B) or literal (A)");
  v.choice("ordering", ordering, {"cco_approx", "given"},
           "chain ordering of the set: cco_approx (switch networks) or given (source, then destinations as listed)");
  v.count("repetitions", repetitions, "multicasts sent one after another (each measured)", 1, 1 << 20);
  std::vector<std::string> schemes = {"ni"};   // the smart-NI tree, then the switch-based records
  for (const std::string& name : algo::switch_schemes().names()) schemes.push_back(name);
  v.choice("scheme", scheme, schemes,
           "multicast scheme: ni (smart-NI k-binomial tree, host_ni) or a switch-based one (seed000 §5): tree "
           "(one bit-string worm), path-lg / path-greedy (multi-drop worms, Less-Greedy / Greedy phases), ssr");
  v.choice("conventional", conventional, {"host_tree", "separate"},
           "with ni.firmware conventional: host_tree (the hosts relay the k-binomial tree, seed002 §2.2) or "
           "separate (the source NI sends each destination its own copy)");
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

std::string SingleMulticastWorkload::node_count_problem(int nodes) const {
  return multicast_set_problem(source, set_size, !destinations.empty(), nodes);
}

// source and set_size fit the network (node_count_problem).
std::vector<int> SingleMulticastWorkload::destination_set(int nodes, int source, const Rng& rng) const {
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
  std::vector<int> others;
  for (int i = 0; i < nodes; ++i)
    if (i != source) others.push_back(i);
  Rng r = rng.fork(0x7300000000ULL);
  draw_to_front(r, others, static_cast<std::size_t>(set_size - 1));
  d.assign(others.begin(), others.begin() + (set_size - 1));
  return d;
}

void SingleMulticastWorkload::attach(topo::NetworkModel& net, rtl::SimContext& ctx, const Rng& rng) {
  const int source = this->source >= 0 ? this->source
                                       : static_cast<int>(rng.fork(0x7400000000ULL).below(
                                             static_cast<std::uint64_t>(net.num_nodes())));
  const std::vector<int> dests = destination_set(net.num_nodes(), source, rng);
  run_ = std::make_shared<Run>();
  if (scheme != "ni") return attach_worms(net, ctx, source, dests);
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
  run_->host_relay = conventional == "host_tree" && run_->nis.front()->params().firmware == "conventional";
  run_->host_children.assign(run_->chain.size(), {});
  run_->received_once.assign(run_->chain.size(), 0);
  run_->all_received = std::make_unique<sc_core::sc_event>();
  auto run = run_;
  net.node(source).host()->set_program([run](rtl::HostApi& h) { run->source_program(h); });
  for (std::size_t i = 1; i < run_->chain.size(); ++i)
    net.node(run_->chain[i]).host()->set_program([run](rtl::HostApi& h) { run->destination_program(h); });
}

void SingleMulticastWorkload::Run::source_program(rtl::HostApi& h) {
  for (int r = 0; r < repetitions && h.now() < stop; ++r) {
    send_call = h.now();
    last_received = 0;
    arrivals.clear();
    remaining = chain.size() - 1;
    std::fill(received_once.begin(), received_once.end(), 0);
    if (host_relay) {
      host_relay_sends(h, algo::root_block(chain.size(), k));
    } else {
      h.send_multicast(chain, k, construction, bytes);
    }
    while (remaining > 0) sc_core::wait(*all_received);
    latency.push_back(static_cast<std::uint32_t>(last_received - send_call));
  }
}

void SingleMulticastWorkload::Run::destination_program(rtl::HostApi& h) {
  for (;;) {
    const rtl::ReceivedMessage m = h.receive();
    last_received = std::max(last_received, m.received);
    arrivals.emplace_back(h.node(), m.received);
    count_receipt(h.node());
    if (remaining > 0 && --remaining == 0) notify_all_received();
    if (host_relay) host_relay_sends(h, read_payload(m));
  }
}

// Exactly once per repetition (a checker: it may look at the whole chain).
void SingleMulticastWorkload::Run::count_receipt(rtl::NodeId node) {
  const auto it = std::find(chain.begin(), chain.end(), node);
  if (it == chain.end() || it == chain.begin() || ++received_once[static_cast<std::size_t>(it - chain.begin())] > 1)
    throw std::logic_error("single_multicast: node " + std::to_string(node) +
                           " received a multicast message it should not have (not a destination, or twice)");
}

algo::RelayBlock SingleMulticastWorkload::Run::read_payload(const rtl::ReceivedMessage& m) {
  const auto it = payload.find(m.id);
  if (it == payload.end())
    throw std::logic_error("single_multicast: host-relayed message " + std::to_string(m.id) + " has no relay block");
  const algo::RelayBlock b = it->second;
  payload.erase(it);
  return b;
}

// A host (the source, or a destination that just received the message)
// sends the message to each of its children in turn: t_hs per send, then its
// NI sends the packets (t_ns each). Its children come from its block alone.
void SingleMulticastWorkload::Run::host_relay_sends(rtl::HostApi& h, const algo::RelayBlock& mine) {
  std::vector<algo::RelayBlock>& kids = host_children[mine.first];
  kids = algo::relay_children(mine, k, construction == 1 ? algo::TreeConstruction::literal
                                                         : algo::TreeConstruction::time_ordered);
  for (std::size_t i = 0; i < kids.size(); ++i) {
    const std::uint64_t id = h.send(chain[kids[i].first], bytes);   // waits t_hs
    payload[id] = kids[i];   // in flight for at least the DMA and t_ns: written before it can arrive
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
    s.stats.add("multicast.set", "", "the multicast: scheme, source, destinations, longest worm in flits",
                [run, name = scheme] {
      return nlohmann::json{{"scheme", name}, {"source", run->chain.front()},
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
  s.stats.add("multicast.ni_memory", "flits", "NI memory of each chain member's NI (chain order): peak and "
              "time-weighted mean over the run (cycle 0 to the end), the maximum of each over the chain, and over the destinations "
              "only (positions 1..)",
              [run, &ctx] { return ni_memory_summary(run->nis, ctx.clock.now()); });
}

}  // namespace wormcast::tb
