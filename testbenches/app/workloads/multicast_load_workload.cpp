#include "testbenches/app/workloads/multicast_load_workload.h"

#include <algorithm>
#include <cmath>

#include "algorithms/chain_ordering.h"
#include "algorithms/kbinomial.h"
#include "rtl_models/switch/drop_decoder.h"
#include "rtl_models/node/host_ni_node.h"
#include "rtl_models/core/statistics.h"
#include "testbenches/app/config.h"
#include "topologies/networks/elaborator.h"

namespace wormcast::tb {

void MulticastLoadWorkload::visit(ParamVisitor& v, const rtl::NodeModel&) {
  std::vector<std::string> schemes = algo::switch_schemes().names();   // the switch-based records, then ni
  schemes.push_back("ni");
  v.choice("scheme", scheme, schemes,
           "multicast scheme (seed000 §4-§5); ni needs node.model host_ni");
  v.count("degree", degree, "destinations per multicast (m; 3-way and 15-way in seed000 Figs. 26-28)", 1, 1 << 20);
  v.real("load", load, "flits/cycle/node",
         "B_i: message flits created per cycle per node; effective applied load = degree * load", 0.0, 1.0);
  v.choice("conventional", conventional, {"host_tree", "separate"},
           "scheme ni with ni.firmware conventional: host_tree (the hosts relay the k-binomial tree, seed002 §2.2) or "
           "separate (the source NI sends each destination its own copy)");
  v.count("source_queue", source_queue, "multicasts waiting at one source before the run counts as saturated", 1,
          1 << 20);
}

void MulticastLoadWorkload::visit_sections(ParamVisitor& v, const rtl::NodeModel&) {
  v.begin_section("message", "multicast messages (1 flit = 1 byte)");
  message.visit(v);
  v.end_section();
}

void MulticastLoadWorkload::describe_facts(rtl::ConfigFacts& f) const {
  if (scheme == "ni") return;
  f.workload_packet_flits = message.size + 1;   // attach() checks the encoded header's real size
  f.workload_packet_key = "message.size + the worm header";
}

void MulticastLoadWorkload::validate(const rtl::ConfigFacts& f, const rtl::NodeModel& nodes) const {
  if (scheme == "ni" && !dynamic_cast<const rtl::HostNiModel*>(&nodes))
    throw std::invalid_argument(f.where + ": traffic.scheme ni needs node.model host_ni");
}

std::string MulticastLoadWorkload::node_count_problem(int nodes) const {
  if (degree >= nodes)
    return "traffic.degree " + std::to_string(degree) + " needs more than the " + std::to_string(nodes) +
           " nodes of the network";
  return {};
}

void MulticastLoadWorkload::attach(topo::NetworkModel& net, rtl::SimContext& ctx, const Rng& rng) {
  auto* sw = dynamic_cast<topo::Network*>(&net);
  if (!sw)
    throw ConfigError("traffic.kind multicast_load needs a switch network (irregular or file); on a torus, mesh or "
                      "hypercube use traffic.kind direct_multicast_load");
  run_ = std::make_shared<Run>();
  Run& run = *run_;
  run.ni = scheme == "ni";
  if (!run.ni) {
    run.scheme = &algo::switch_scheme(scheme);
    const std::string need = run.scheme->decoder();
    if (sw->params().decoder != need && sw->params().decoder != "multicast")
      throw ConfigError("traffic.scheme " + scheme + " needs switch.decoder: " + need + " or multicast (it is '" +
                        sw->params().decoder + "')");
    const int hf = rtl::worm_header_flits(
        static_cast<std::size_t>(std::max(algo::tree_header_bits(algo::HeaderGeometry::of(sw->topology())),
                                          algo::multidrop_header_bits(algo::HeaderGeometry::of(sw->topology()),
                                                                      std::min(degree, sw->topology().num_switches())))));
    auto* hn = dynamic_cast<rtl::HostNiNode*>(&net.node(0));
    const int payload = hn ? std::min(hn->node().ni.params().packet_size, message.size) : message.size;
    if (hf + payload > sw->params().sw.buffer_flits)
      throw ConfigError("traffic.scheme " + scheme + ": a worm of up to " + std::to_string(hf + payload) +
                        " flits (encoded header + payload) exceeds switch.buffer (" +
                        std::to_string(sw->params().sw.buffer_flits) + " flits)");
  }
  run.drop_id = rtl::parse_drop_id(sw->params().drop_id);
  run.topology = std::make_shared<const topo::Topology>(sw->topology());
  run.routing = sw->routing_ptr();
  run.ctx = &ctx;
  run.degree = degree;
  run.bytes = message.size;
  run.queue_limit = source_queue;
  run.rate = load / static_cast<double>(message.size);
  const int n = net.num_nodes();
  run.nodes.resize(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) {
    Run::Node& node = run.nodes[static_cast<std::size_t>(i)];
    node.rng = rng.fork(0x6d6c000000ULL + static_cast<std::uint64_t>(i));
    node.next = run.rate > 0 ? run.gap(node) : UINT64_MAX;
  }
  auto shared = run_;
  if (auto* hn = dynamic_cast<rtl::HostNiNode*>(&net.node(0))) {
    const int packet = hn->node().ni.params().packet_size;
    run.packets = (message.size + packet - 1) / packet;
    run.k = algo::optimal_k(static_cast<std::size_t>(degree) + 1, static_cast<algo::Count>(run.packets)).k;
    run.host_relay = run.ni && conventional == "host_tree" && hn->node().ni.params().firmware == "conventional";
    for (int i = 0; i < n; ++i) net.node(i).host()->set_program([shared](rtl::HostApi& h) { shared->host_program(h); });
    return;
  }
  for (int i = 0; i < n; ++i) {
    run.endpoints.push_back(net.node(i).endpoint());
    if (!run.endpoints.back()) throw ConfigError("traffic.kind multicast_load needs node.model endpoint or host_ni");
    run.endpoints.back()->on_receive = [shared, i](const rtl::Packet& p, Cycle now) {
      shared->endpoint_received(i, p, now);
    };
    // A raw pointer: the thread may still be suspended when the run ends (the
    // workload keeps run_ alive for the whole run).
    Run* r = &run;
    sc_core::sc_spawn([r, i] { r->endpoint_source(i); }, ("multicast_source" + std::to_string(i)).c_str());
  }
}

// Bernoulli trials per cycle with probability `rate`: geometric gaps >= 1.
Cycle MulticastLoadWorkload::Run::gap(Node& n) {
  const double u = 1.0 - n.rng.uniform();   // (0, 1]
  if (rate >= 1.0) return 1;
  return 1 + static_cast<Cycle>(std::floor(std::log(u) / std::log1p(-rate)));
}

void MulticastLoadWorkload::Run::create_due(Node& n, Cycle now) {
  while (n.next <= now && n.next < stop) {
    if (static_cast<int>(n.queue.size()) >= queue_limit) {
      n.overflowed = true;
      n.next = UINT64_MAX;
      return;
    }
    n.queue.push_back(n.next);
    n.next += gap(n);
  }
}

std::uint64_t MulticastLoadWorkload::Run::start(rtl::NodeId src, Cycle at) {
  Node& n = nodes[static_cast<std::size_t>(src)];
  n.others.clear();
  for (int i = 0; i < static_cast<int>(nodes.size()); ++i)
    if (i != src) n.others.push_back(i);
  draw_to_front(n.rng, n.others, static_cast<std::size_t>(degree));
  n.dests.assign(n.others.begin(), n.others.begin() + degree);
  const std::uint64_t id = next_id++;
  Multicast& m = open[id];
  m.created = at;
  m.remaining = static_cast<std::size_t>(degree);
  m.measured = ctx->window.contains(at);
  if (m.measured) ++measured_open;
  ++created;
  return id;
}

void MulticastLoadWorkload::Run::delivered(std::uint64_t mc, Cycle at) {
  auto it = open.find(mc);
  if (it == open.end()) throw rtl::InvariantViolation("multicast_load: delivery of unknown multicast " + std::to_string(mc));
  Multicast& m = it->second;
  m.last = std::max(m.last, at);
  if (--m.remaining > 0) return;
  if (m.measured) {
    latency.push_back(static_cast<std::uint32_t>(m.last - m.created));
    --measured_open;
  }
  ++completed;
  open.erase(it);
}

void MulticastLoadWorkload::Run::host_program(rtl::HostApi& h) {
  Node& me = nodes[static_cast<std::size_t>(h.node())];
  for (;;) {
    create_due(me, h.now());
    if (h.message_waiting()) {
      me.got = h.receive();
      const std::uint64_t mc = message_of.at(me.got.id);
      delivered(mc, me.got.received);
      if (host_relay) {
        const auto it = relay_of.find(me.got.id);
        if (it == relay_of.end())
          throw std::logic_error("multicast_load: host-relayed message " + std::to_string(me.got.id) +
                                 " has no relay block");
        me.relaying = std::move(it->second);
        relay_of.erase(it);
        host_relay_sends(h, me, mc);
      } else if (!ni) {
        me.sends = scheme->relay_worms(*topology, drop_id, me.got.relay_worm.get(), h.node(), bytes);
        me.got.relay_worm.reset();
        for (const rtl::WormSend& w : me.sends) {
          message_of[h.send_worm(w)] = mc;
          ++worms;
        }
      }
      continue;
    }
    if (!me.queue.empty()) {
      host_send(h, me);
      continue;
    }
    h.wait_for_message(me.next < stop ? me.next : UINT64_MAX);
  }
}

void MulticastLoadWorkload::Run::host_send(rtl::HostApi& h, Node& me) {
  const Cycle at = me.queue.front();
  me.queue.pop_front();
  const std::uint64_t mc = start(h.node(), at);
  if (ni) {
    me.chain = algo::cco_approx_chain(*topology, *routing, h.node(), me.dests);
    if (host_relay) {
      me.relaying = HostRelay{std::make_shared<const std::vector<rtl::NodeId>>(me.chain),
                              algo::root_block(me.chain.size(), k)};
      host_relay_sends(h, me, mc);
      return;
    }
    message_of[h.send_multicast(me.chain, k, 0, bytes)] = mc;
    return;
  }
  me.sends = scheme->source_worms(*topology, *routing, drop_id, h.node(), me.dests, bytes);
  for (const rtl::WormSend& w : me.sends) {
    message_of[h.send_worm(w)] = mc;
    ++worms;
  }
}

// ni.firmware conventional, host_tree: the host that holds the whole message
// (the source, or a destination that just received it) sends it to each child
// of its block in turn (t_hs per send; its NI sends the packets). It decides
// from its own block alone (me.relaying).
void MulticastLoadWorkload::Run::host_relay_sends(rtl::HostApi& h, Node& me, std::uint64_t mc) {
  me.kids = algo::relay_children(me.relaying.block, k, algo::TreeConstruction::time_ordered);
  for (std::size_t i = 0; i < me.kids.size(); ++i) {
    const std::uint64_t id = h.send((*me.relaying.chain)[me.kids[i].first], bytes);   // waits t_hs
    message_of[id] = mc;   // in flight for at least the DMA and t_ns: written before it can arrive
    relay_of[id] = HostRelay{me.relaying.chain, me.kids[i]};
  }
  me.relaying.chain.reset();
}

// node.model endpoint: a thread per source creates multicasts and injects
// their worms at once (the endpoint's queue sends them one after another).
void MulticastLoadWorkload::Run::endpoint_source(rtl::NodeId src) {
  Node& me = nodes[static_cast<std::size_t>(src)];
  while (me.next < stop) {
    const Cycle now = ctx->clock.now();
    if (me.next > now) sc_core::wait(ctx->clock.until(me.next));
    if (ctx->clock.now() >= stop) return;
    if (endpoints[static_cast<std::size_t>(src)]->queued_packets() >= static_cast<std::size_t>(queue_limit)) {
      me.overflowed = true;
      return;
    }
    const std::uint64_t mc = start(src, me.next);
    me.next += gap(me);
    me.sends = scheme->source_worms(*topology, *routing, drop_id, src, me.dests, bytes);
    inject(src, mc, me.sends);
    me.sends.clear();
  }
}

void MulticastLoadWorkload::Run::inject(rtl::NodeId from, std::uint64_t mc, const std::vector<rtl::WormSend>& w) {
  for (const rtl::WormSend& s : w) {
    auto p = rtl::make_worm(s.encoding, s.header_bits, s.dests, s.bytes);
    p->header.relay_worm = s.relay_worm;
    p->message = mc;
    endpoints[static_cast<std::size_t>(from)]->inject(std::move(p));
    ++worms;
  }
}

void MulticastLoadWorkload::Run::endpoint_received(rtl::NodeId at, const rtl::Packet& p, Cycle now) {
  delivered(p.message, now);
  inject(at, p.message, scheme->relay_worms(*topology, drop_id, p.header.relay_worm.get(), at, bytes));
}

bool MulticastLoadWorkload::measured_pending(const rtl::SimContext& ctx) const {
  if (!run_) return false;
  for (const auto& n : run_->nodes)
    if (n.overflowed) return true;
  return measured_outstanding(ctx);
}

// Created but unsent multicasts from inside the window, or open measured ones.
bool MulticastLoadWorkload::measured_outstanding(const rtl::SimContext&) const {
  if (!run_) return false;
  for (const auto& n : run_->nodes)
    if (!n.queue.empty() && run_->ctx->window.contains(n.queue.front())) return true;
  return run_->measured_open > 0;
}

void MulticastLoadWorkload::stop_creating_at(Cycle c) {
  if (run_) run_->stop = c;
}

std::string MulticastLoadWorkload::pending_work(const rtl::SimContext&) const {
  if (!run_) return "";
  std::size_t queued = 0;
  bool overflow = false;
  for (const auto& n : run_->nodes) {
    queued += n.queue.size();
    overflow = overflow || n.overflowed;
  }
  return std::to_string(run_->measured_open) + " measured multicasts incomplete, " + std::to_string(queued) +
         " waiting at their sources" + (overflow ? " (a source queue overflowed: saturated)" : "");
}

// Multicasts, those queued at their sources included.
WorkCount MulticastLoadWorkload::work_count(const rtl::SimContext&) const {
  if (!run_) return {};
  WorkCount w{run_->created, run_->completed};
  for (const auto& n : run_->nodes) w.arrived += n.queue.size();
  return w;
}

void MulticastLoadWorkload::register_statistics(rtl::StatsScope s) const {
  auto run = run_;
  const rtl::SimContext& ctx = s.ctx;
  const double eff = static_cast<double>(degree) * load;
  s.stats.add("multicast.latency_cycles", "cycles",
              "multicasts created in the window: creation at the source to the end of t_hr at the last destination",
              [run, &ctx] { return summarize_cycles(run->latency, ctx.clock.cycles_to_us(1.0)); });
  s.stats.add("multicast.effective_load", "flits/cycle/node", "effective applied load m * B_i = degree * load",
              [eff] { return eff; });
  s.stats.add("multicast.created", "multicasts", "multicasts created", [run] { return run->created; });
  s.stats.add("multicast.completed", "multicasts", "multicasts delivered to every destination",
              [run] { return run->completed; });
  s.stats.add("multicast.worms", "worms", "worms sent by sources and relays (switch-based schemes)",
              [run] { return run->worms; });
}

}  // namespace wormcast::tb
