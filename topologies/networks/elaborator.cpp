#include "topologies/networks/elaborator.h"

#include <fnmatch.h>

#include <algorithm>

#include "rtl_models/node/endpoint_node.h"

namespace wormcast::topo {

Network::Network(sc_core::sc_module_name name, const Topology& t, std::shared_ptr<const UpDownRouting> routing,
                 const NetworkParams& p, rtl::SimContext& ctx, const Rng& rng)
    : sc_core::sc_module(name), topology_(t), routing_(std::move(routing)), params_(p), ctx_(ctx) {
  t.validate();
  scheduler_ = std::make_unique<rtl::CycleScheduler>("scheduler", ctx.clock, &ctx.stream_horizon);
  ctx.scheduler = scheduler_.get();
  build_switches(p, rng);
  const bool vct = p.sw.whole_packet_admission();
  const std::shared_ptr<const rtl::NodeModel> model =
      p.node_model ? p.node_model : std::make_shared<const rtl::EndpointModel>();
  for (int n = 0; n < t.num_nodes(); ++n)
    nodes.push_back(model->build("node" + std::to_string(n), n, t.num_nodes(), ctx, vct));
  build_links(p);
  watchdog_ = std::make_unique<rtl::Watchdog>("watchdog", ctx, p.watchdog,
                                              [this](Cycle now) { return describe_blocked(now); },
                                              [this] { return flits_in_network(); });
  ctx.on_first_outstanding = [this] { watchdog_->arm(); };
}

Network::~Network() {
  if (ctx_.scheduler == scheduler_.get()) ctx_.scheduler = nullptr;
}

void Network::build_switches(const NetworkParams& p, const Rng& rng) {
  const auto& decoders = rtl::decoder_registry();
  if (!decoders.find(p.decoder))
    throw std::invalid_argument("unknown decoder '" + p.decoder + "' (known: " + decoders.joined_names() + ")");
  auto topology = std::make_shared<const Topology>(topology_);
  auto shared = decoder_shared_ = std::make_shared<rtl::DecoderShared>();
  for (int s = 0; s < topology_.num_switches(); ++s) {
    auto make_decoder = [&](int id) -> std::unique_ptr<rtl::Decoder> {
      rtl::DecoderSetup setup{id,       routing_,  p.selection, rng.fork(0x5700000000ULL + static_cast<std::uint64_t>(id)),
                              topology, p.drop_id, shared};
      return decoders.make(p.decoder, "decoder", setup);
    };
    switches.push_back(std::make_unique<rtl::Switch>(("sw" + std::to_string(s)).c_str(), s,
                                                     topology_.ports_per_switch, p.sw, ctx_, make_decoder));
  }
}

rtl::Link& Network::make_link(const std::string& name, const NetworkParams& p, int credits) {
  links.push_back(std::make_unique<rtl::Link>(name.c_str(), ctx_.clock, p.link, credits));
  return *links.back();
}

void Network::build_links(const NetworkParams& p) {
  auto port_name = [](int sw, int port) { return "sw" + std::to_string(sw) + "p" + std::to_string(port); };
  for (const SwitchLink& l : topology_.links()) {
    auto& ab = make_link("link_" + port_name(l.a.sw, l.a.port) + "_to_" + port_name(l.b.sw, l.b.port), p,
                         p.sw.buffer_flits);
    auto& ba = make_link("link_" + port_name(l.b.sw, l.b.port) + "_to_" + port_name(l.a.sw, l.a.port), p,
                         p.sw.buffer_flits);
    auto& A = *switches[static_cast<std::size_t>(l.a.sw)];
    auto& B = *switches[static_cast<std::size_t>(l.b.sw)];
    A.out[static_cast<std::size_t>(l.a.port)]->bind(ab);
    B.in[static_cast<std::size_t>(l.b.port)]->bind(ab);
    B.out[static_cast<std::size_t>(l.b.port)]->bind(ba);
    A.in[static_cast<std::size_t>(l.a.port)]->bind(ba);
  }
  for (int n = 0; n < topology_.num_nodes(); ++n) {
    const PortRef at = topology_.node_attach[static_cast<std::size_t>(n)];
    rtl::NodeHardware& node = *nodes[static_cast<std::size_t>(n)];
    auto& up = make_link("link_node" + std::to_string(n) + "_to_" + port_name(at.sw, at.port), p, p.sw.buffer_flits);
    auto& down = make_link("link_" + port_name(at.sw, at.port) + "_to_node" + std::to_string(n), p,
                           node.receive_credits());
    auto& sw = *switches[static_cast<std::size_t>(at.sw)];
    sw.in[static_cast<std::size_t>(at.port)]->bind(up);
    sw.out[static_cast<std::size_t>(at.port)]->bind(down);
    node.link_out().bind(up);
    node.link_in().bind(down);
  }
}

rtl::Endpoint& Network::endpoint(int n) {
  rtl::Endpoint* e = node(n).endpoint();
  if (!e) throw std::logic_error("node " + std::to_string(n) + " has no packet endpoint (node model is not endpoint)");
  return *e;
}

rtl::HostProcessor& Network::host(int n) {
  rtl::HostProcessor* h = node(n).host();
  if (!h) throw std::logic_error("node " + std::to_string(n) + " runs no software (node model is not host_ni)");
  return *h;
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
  for (const auto& n : nodes) {
    std::string line = n->describe_blocked(now);
    if (!line.empty()) lines.push_back(std::move(line));
  }
  return lines;
}

int Network::trace(sc_core::sc_trace_file* tf, const std::string& filter) {
  int matched = 0;
  for (auto& s : switches)
    if (fnmatch(filter.c_str(), s->name(), 0) == 0) { if (tf) s->trace(tf); ++matched; }
  for (auto& n : nodes) matched += n->trace(tf, filter);
  return matched;
}

std::vector<std::uint64_t> Network::flits_sent_per_link() const {
  std::vector<std::uint64_t> v;
  v.reserve(links.size());
  for (const auto& l : links) v.push_back(l->flits_sent());
  return v;
}

nlohmann::json Network::describe() const {
  return {{"description", topology_.description},
          {"switches", topology_.num_switches()},
          {"nodes", topology_.num_nodes()},
          {"links", topology_.links().size()},
          {"root", routing_->root()},
          {"levels", routing_->max_level() + 1}};
}

void Network::register_statistics(rtl::StatsScope s) const {
  const Cycle& now = s.now;
  s.stats.add("link_utilization", "fraction",
              "flits sent / cycles of the measured period (from the measurement window's start until the measured "
              "work is done, the load on) per link (mean, max over links)",
              [this, &now] { return window_link_utilization(now); });
  s.stats.add("input_buffer_peak_flits", "flits", "largest input-buffer occupancy of any switch port", [this] {
    int peak = 0;
    for (const auto& sw : switches)
      for (int p = 0; p < sw->ports(); ++p) peak = std::max(peak, sw->buffer(p).peak_occupancy());
    return peak;
  });
}

}  // namespace wormcast::topo
