#include "topologies/elaborator.h"

#include <fnmatch.h>

namespace wormcast::topo {

rtl::PortSelection parse_selection(const std::string& s) {
  if (s == "deterministic") return rtl::PortSelection::deterministic;
  if (s == "round_robin") return rtl::PortSelection::round_robin;
  if (s == "random") return rtl::PortSelection::random;
  if (s == "adaptive") return rtl::PortSelection::adaptive;
  throw std::invalid_argument("unknown port selection '" + s + "'");
}

Network::Network(sc_core::sc_module_name name, const Topology& t, std::shared_ptr<const UpDownRouting> routing,
                 const NetworkParams& p, rtl::SimContext& ctx, const Rng& rng)
    : sc_core::sc_module(name), ctx_(ctx) {
  t.validate();
  const bool vct = p.sw.admission == "virtual_cut_through";
  for (int s = 0; s < t.num_switches(); ++s) {
    auto make_decoder = [&](int id) -> std::unique_ptr<rtl::Decoder> {
      return std::make_unique<rtl::UpDownDecoder>("decoder", id, routing, p.selection,
                                                  rng.fork(0x5700000000ULL + static_cast<std::uint64_t>(id)));
    };
    switches.push_back(std::make_unique<rtl::Switch>(("sw" + std::to_string(s)).c_str(), s, t.ports_per_switch,
                                                     p.sw, ctx, make_decoder));
  }
  const bool host_ni = p.node_model == "host_ni";
  if (!host_ni && p.node_model != "endpoint") throw std::invalid_argument("unknown node model '" + p.node_model + "'");
  for (int n = 0; n < t.num_nodes(); ++n) {
    const std::string nm = "node" + std::to_string(n);
    if (host_ni)
      nodes.push_back(std::make_unique<rtl::ComputeNode>(nm.c_str(), n, t.num_nodes(), p.host, p.bus, p.ni, ctx, vct));
    else
      endpoints.push_back(std::make_unique<rtl::Endpoint>(nm.c_str(), n, ctx, vct));
  }

  auto make_link = [&](const std::string& nm, int credits) -> rtl::Link& {
    links.push_back(std::make_unique<rtl::Link>(nm.c_str(), ctx.clock, p.link, credits));
    return *links.back();
  };
  for (const SwitchLink& l : t.links()) {
    auto& ab = make_link("link_sw" + std::to_string(l.a.sw) + "p" + std::to_string(l.a.port) + "_to_sw" +
                             std::to_string(l.b.sw) + "p" + std::to_string(l.b.port),
                         p.sw.buffer_flits);
    auto& ba = make_link("link_sw" + std::to_string(l.b.sw) + "p" + std::to_string(l.b.port) + "_to_sw" +
                             std::to_string(l.a.sw) + "p" + std::to_string(l.a.port),
                         p.sw.buffer_flits);
    auto& A = *switches[static_cast<std::size_t>(l.a.sw)];
    auto& B = *switches[static_cast<std::size_t>(l.b.sw)];
    A.out[static_cast<std::size_t>(l.a.port)]->bind(ab);
    B.in[static_cast<std::size_t>(l.b.port)]->bind(ab);
    B.out[static_cast<std::size_t>(l.b.port)]->bind(ba);
    A.in[static_cast<std::size_t>(l.a.port)]->bind(ba);
  }
  for (int n = 0; n < t.num_nodes(); ++n) {
    const PortRef at = t.node_attach[static_cast<std::size_t>(n)];
    auto& up = make_link("link_node" + std::to_string(n) + "_to_sw" + std::to_string(at.sw) + "p" +
                             std::to_string(at.port),
                         p.sw.buffer_flits);
    auto& down = make_link("link_sw" + std::to_string(at.sw) + "p" + std::to_string(at.port) + "_to_node" +
                               std::to_string(n),
                           host_ni ? p.ni.receive_queue : p.endpoint.rx_buffer_flits);
    auto& sw = *switches[static_cast<std::size_t>(at.sw)];
    sw.in[static_cast<std::size_t>(at.port)]->bind(up);
    sw.out[static_cast<std::size_t>(at.port)]->bind(down);
    if (host_ni) {
      auto& ni = nodes[static_cast<std::size_t>(n)]->ni;
      ni.out.bind(up);
      ni.in.bind(down);
    } else {
      auto& ep = *endpoints[static_cast<std::size_t>(n)];
      ep.out.bind(up);
      ep.in.bind(down);
    }
  }
  watchdog_ = std::make_unique<rtl::Watchdog>("watchdog", ctx, p.watchdog,
                                              [this](Cycle now) { return describe_blocked(now); });
  ctx.on_first_outstanding = [this] { watchdog_->arm(); };
}

std::uint64_t Network::flits_in_network() const {
  std::uint64_t n = 0;
  for (const auto& l : links) n += l->flits_in_flight();
  for (const auto& s : switches) n += s->pending_copies();
  return n;
}

std::vector<std::string> Network::describe_blocked(Cycle now) const {
  std::vector<std::string> lines;
  for (const auto& s : switches)
    for (auto& l : s->describe_blocked(now)) lines.push_back(std::move(l));
  for (const auto& e : endpoints)
    if (e->queued_packets() > 0) lines.push_back(e->describe(now));
  for (const auto& n : nodes)
    if (n->ni.occupancy_flits() > 0 || n->host.messages_waiting() > 0)
      lines.push_back(n->ni.describe() + "; host: " + std::to_string(n->host.messages_waiting()) +
                      " messages waiting to be received");
  return lines;
}

int Network::trace(sc_core::sc_trace_file* tf, const std::string& filter) {
  int matched = 0;
  for (auto& s : switches)
    if (fnmatch(filter.c_str(), s->name(), 0) == 0) { s->trace(tf); ++matched; }
  for (auto& e : endpoints)
    if (fnmatch(filter.c_str(), e->name(), 0) == 0) { e->trace(tf); ++matched; }
  for (auto& n : nodes)
    if (fnmatch(filter.c_str(), n->name(), 0) == 0 || fnmatch(filter.c_str(), n->ni.name(), 0) == 0) {
      n->ni.trace(tf);
      ++matched;
    }
  return matched;
}

}  // namespace wormcast::topo
