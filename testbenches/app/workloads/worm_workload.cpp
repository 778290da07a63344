// single_multicast with a switch-based scheme (traffic.scheme tree, path-lg,
// path-greedy, ssr): the host programs (node.model host_ni) or endpoint
// callbacks (node.model endpoint) that send and relay the worms.
#include <algorithm>

#include "algorithms/multiphase.h"
#include "rtl_models/switch/drop_decoder.h"
#include "rtl_models/node/host_ni_node.h"
#include "testbenches/app/config.h"
#include "testbenches/app/workloads/multicast_workload.h"
#include "topologies/networks/elaborator.h"

namespace wormcast::tb {

namespace {

// Largest worm packet any node sends: header + payload, checked against the
// switch input buffer before simulation (a worm must fit, seed000 §2.2).
int largest_worm(const std::vector<rtl::WormSend>& worms, int payload) {
  int most = 0;
  for (const auto& w : worms) most = std::max(most, rtl::worm_header_flits(w.header_bits.size()) + payload);
  return most;
}

}  // namespace

void SingleMulticastWorkload::attach_worms(topo::NetworkModel& net, rtl::SimContext& ctx, int source,
                                           const std::vector<int>& dests) {
  auto* sw = dynamic_cast<topo::Network*>(&net);
  if (!sw) throw ConfigError("traffic.scheme " + scheme + " needs a switch network (irregular or file)");
  Run& run = *run_;
  run.worms = true;
  run.scheme = &algo::switch_scheme(scheme);
  const std::string need = run.scheme->decoder();
  if (sw->params().decoder != need && sw->params().decoder != "multicast")
    throw ConfigError("traffic.scheme " + scheme + " needs switch.decoder: " + need + " or multicast (it is '" +
                      sw->params().decoder + "')");
  run.drop_id = rtl::parse_drop_id(sw->params().drop_id);
  run.topology = std::make_shared<const topo::Topology>(sw->topology());
  run.routing = sw->routing_ptr();
  run.chain.push_back(source);
  run.chain.insert(run.chain.end(), dests.begin(), dests.end());
  run.bytes = message.size;
  run.repetitions = repetitions;
  const int n = net.num_nodes();
  run.sends.assign(static_cast<std::size_t>(n), {});
  run.got.assign(static_cast<std::size_t>(n), {});
  std::vector<rtl::WormSend> all;
  try {
    all = algo::all_worms(*run.scheme, *run.topology, *run.routing, run.drop_id, source, dests, run.bytes);
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("traffic.destinations: ") + e.what());
  }
  auto* hn = dynamic_cast<rtl::HostNiNode*>(&net.node(source));
  const int payload = hn ? std::min(hn->node().ni.params().packet_size, run.bytes) : run.bytes;
  run.max_worm_flits = largest_worm(all, payload);
  if (run.max_worm_flits > sw->params().sw.buffer_flits)
    throw ConfigError("traffic.scheme " + scheme + ": a worm of " + std::to_string(run.max_worm_flits) +
                      " flits (encoded header + " + std::to_string(payload) + " payload flits) exceeds switch.buffer (" +
                      std::to_string(sw->params().sw.buffer_flits) + " flits): a worm must fit in an input buffer "
                      "(seed000 §2.2)");
  auto shared = run_;
  if (hn) {
    run.all_received = std::make_unique<sc_core::sc_event>();
    for (int node : run.chain) {
      auto* h = dynamic_cast<rtl::HostNiNode*>(&net.node(node));
      run.nis.push_back(&h->node().ni);
    }
    net.node(source).host()->set_program([shared](rtl::HostApi& h) { shared->worm_source_program(h); });
    for (int d : dests) net.node(d).host()->set_program([shared](rtl::HostApi& h) { shared->worm_destination_program(h); });
    return;
  }
  run.endpoints.assign(static_cast<std::size_t>(n), nullptr);
  for (int node : run.chain) {
    run.endpoints[static_cast<std::size_t>(node)] = net.node(node).endpoint();
    if (!run.endpoints[static_cast<std::size_t>(node)])
      throw ConfigError("traffic.scheme " + scheme + " needs node.model endpoint or host_ni");
  }
  rtl::SimContext* c = &ctx;
  for (int d : dests)
    run.endpoints[static_cast<std::size_t>(d)]->on_receive = [shared, c, d](const rtl::Packet& p, Cycle now) {
      shared->endpoint_received(*c, d, p, now);
    };
  Run* r = &run;   // the workload keeps run_ alive for the whole run
  // A method, run once at initialisation: it never waits, and a thread that
  // ends would hand its coroutine back in a way the sanitizer build cannot
  // follow (docs/testing.md).
  sc_core::sc_spawn_options once;
  once.spawn_method();
  sc_core::sc_spawn([r, c] { r->endpoint_repetition(*c); }, "switch_multicast_start", &once);
}

void SingleMulticastWorkload::Run::note_received(rtl::NodeId node, Cycle at) {
  last_received = std::max(last_received, at);
  arrivals.emplace_back(node, at);
  if (remaining > 0 && --remaining == 0) notify_all_received();
}

void SingleMulticastWorkload::Run::worm_source_program(rtl::HostApi& h) {
  auto& mine = sends[static_cast<std::size_t>(h.node())];
  for (int r = 0; r < repetitions && h.now() < stop; ++r) {
    send_call = h.now();
    last_received = 0;
    arrivals.clear();
    remaining = chain.size() - 1;
    mine = scheme->source_worms(*topology, *routing, drop_id, chain.front(),
                             std::vector<rtl::NodeId>(chain.begin() + 1, chain.end()), bytes);
    for (const rtl::WormSend& w : mine) {
      h.send_worm(w);
      ++worms_sent;
    }
    while (remaining > 0) sc_core::wait(*all_received);
    latency.push_back(static_cast<std::uint32_t>(last_received - send_call));
  }
}

void SingleMulticastWorkload::Run::worm_destination_program(rtl::HostApi& h) {
  const auto me = static_cast<std::size_t>(h.node());
  for (;;) {
    got[me] = h.receive();
    note_received(h.node(), got[me].received);
    sends[me] = scheme->relay_worms(*topology, drop_id, got[me].relay_worm.get(), h.node(), bytes);
    got[me].relay_worm.reset();
    for (const rtl::WormSend& w : sends[me]) {
      h.send_worm(w);
      ++worms_sent;
    }
  }
}

// node.model endpoint: a repetition starts with the source injecting its
// worms; relays inject theirs when the tail of their worm arrives.
void SingleMulticastWorkload::Run::endpoint_repetition(rtl::SimContext& ctx) {
  const Cycle now = ctx.clock.now();
  if (static_cast<int>(latency.size()) >= repetitions || now >= stop) return;
  send_call = now;
  last_received = 0;
  arrivals.clear();
  remaining = chain.size() - 1;
  auto& mine = sends[static_cast<std::size_t>(chain.front())];
  mine = scheme->source_worms(*topology, *routing, drop_id, chain.front(),
                           std::vector<rtl::NodeId>(chain.begin() + 1, chain.end()), bytes);
  inject_worms(chain.front(), mine);
}

void SingleMulticastWorkload::Run::inject_worms(rtl::NodeId from, const std::vector<rtl::WormSend>& w) {
  for (const rtl::WormSend& s : w) {
    auto p = rtl::make_worm(s.encoding, s.header_bits, s.dests, s.bytes);
    p->header.relay_worm = s.relay_worm;
    p->message = 0;
    endpoints[static_cast<std::size_t>(from)]->inject(std::move(p));
    ++worms_sent;
  }
}

void SingleMulticastWorkload::Run::endpoint_received(rtl::SimContext& ctx, rtl::NodeId at, const rtl::Packet& p,
                                                     Cycle now) {
  note_received(at, now);
  inject_worms(at, scheme->relay_worms(*topology, drop_id, p.header.relay_worm.get(), at, bytes));
  if (remaining == 0) {
    latency.push_back(static_cast<std::uint32_t>(last_received - send_call));
    endpoint_repetition(ctx);
  }
}

}  // namespace wormcast::tb
