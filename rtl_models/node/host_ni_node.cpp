#include "rtl_models/node/host_ni_node.h"

#include <fnmatch.h>

#include <algorithm>
#include <cstdio>
#include <iterator>
#include <stdexcept>

namespace wormcast::rtl {

int HostNiNode::trace(sc_core::sc_trace_file* tf, const std::string& filter) {
  if (fnmatch(filter.c_str(), node_.name(), 0) != 0 && fnmatch(filter.c_str(), node_.ni.name(), 0) != 0) return 0;
  if (tf) node_.ni.trace(tf);
  return 1;
}

std::string HostNiNode::describe_blocked(Cycle) const {
  if (node_.ni.occupancy_flits() == 0 && node_.host.messages_waiting() == 0) return {};
  return node_.ni.describe() + "; host: " + std::to_string(node_.host.messages_waiting()) +
         " messages waiting to be received";
}

int NiOnlyNode::trace(sc_core::sc_trace_file* tf, const std::string& filter) {
  if (fnmatch(filter.c_str(), node_.name(), 0) != 0 && fnmatch(filter.c_str(), node_.ni.name(), 0) != 0) return 0;
  if (tf) node_.ni.trace(tf);
  return 1;
}

std::string NiOnlyNode::describe_blocked(Cycle) const {
  return node_.ni.occupancy_flits() == 0 ? std::string() : node_.ni.describe();
}

namespace {

// Mean and max over nodes of a per-node busy fraction.
nlohmann::json mean_max(const std::vector<double>& v) {
  double sum = 0, mx = 0;
  for (double x : v) {
    sum += x;
    mx = std::max(mx, x);
  }
  return {{"mean", sum / std::max<double>(1.0, static_cast<double>(v.size()))}, {"max", mx}};
}

}  // namespace

namespace {

constexpr LatencyPart kAllParts[] = {
    {"host_send", &MessageStats::host_send},   {"io_bus_send", &MessageStats::io_bus_send},
    {"ni_send", &MessageStats::ni_send},       {"network", &MessageStats::network},
    {"ni_receive", &MessageStats::ni_receive}, {"io_bus_receive", &MessageStats::io_bus_receive},
    {"host_receive", &MessageStats::host_receive}};

// The mean of each named part over the measured deliveries; a part the
// model does not name but that holds cycles is an error of the model.
nlohmann::json latency_breakdown(const MessageStats& m, const std::vector<LatencyPart>& parts) {
  const double n = static_cast<double>(std::max<std::uint64_t>(1, m.measured_delivered));
  nlohmann::json out = nlohmann::json::object();
  for (const LatencyPart& p : parts) out[p.name] = m.*p.sum / n;
  for (const LatencyPart& all : kAllParts) {
    const bool named = std::any_of(parts.begin(), parts.end(), [&](const LatencyPart& p) { return p.sum == all.sum; });
    if (!named && m.*all.sum != 0)
      throw std::logic_error(std::string("messages.breakdown_mean_cycles: the node model has no part for the ") +
                             all.name + " cycles it measured");
  }
  return out;
}

}  // namespace

void register_message_statistics(StatsScope s, std::vector<LatencyPart> parts) {
  const SimContext& ctx = s.ctx;
  s.stats.add("messages.sent", "messages", "messages sent by host software (per destination)",
              [&ctx] { return ctx.msg_stats.created; });
  s.stats.add("messages.received", "messages", "message deliveries completed at destination hosts",
              [&ctx] { return ctx.msg_stats.delivered; });
  s.stats.add("messages.measured_expected", "messages", "destinations of messages sent in the measurement window",
              [&ctx] { return ctx.msg_stats.measured_expected; });
  s.stats.add("messages.measured_received", "messages", "of those, deliveries completed",
              [&ctx] { return ctx.msg_stats.measured_delivered; });
  s.stats.add("messages.latency_cycles", "cycles", "measured message latency: send call to end of t_hr",
              [&ctx] { return summarize_cycles(ctx.msg_stats.latency, ctx.clock.cycles_to_us(1.0)); });
  s.stats.add("messages.breakdown_mean_cycles", "cycles",
              "mean of each latency component of the node model over measured deliveries (they sum to the mean "
              "latency)",
              [&ctx, parts = std::move(parts)] { return latency_breakdown(ctx.msg_stats, parts); });
}

void HostNiModel::visit(ParamVisitor& v) {
  v.begin_section("host", "host processor (node.model host_ni)");
  host.visit(v);
  v.end_section();
  v.begin_section("iobus", "host I/O bus (node.model host_ni)");
  bus.visit(v);
  v.end_section();
  v.begin_section("ni", "NI coprocessor (node.model host_ni)");
  ni.visit(v);
  v.end_section();
}

void HostNiModel::packet_bound(ConfigFacts& f) const {
  f.packet_flits = ni.packet_size + ni.header_flits;
  f.packet_what = "ni.packet_size + ni.header_flits";
}

void HostNiModel::validate(const ConfigFacts& f) const {
  if (ni.packet_size + ni.header_flits > ni.receive_queue)
    throw std::invalid_argument(f.where + ": ni.receive_queue (" + std::to_string(ni.receive_queue) +
                                " flits) is smaller than one packet");
  if (ni.step_cycles > 0 && ni.step_cycles <= ni.t_ns + ni.t_nr)
    throw std::invalid_argument(f.where + ": ni.step_cycles (" + std::to_string(ni.step_cycles) +
                                ") must exceed ni.t_ns + ni.t_nr (a step holds one send and one receive)");
  const Cycle longest = std::max({host.t_hs, host.t_hr, ni.t_ns, ni.t_nr, ni.step_cycles});
  if (f.watchdog <= longest)
    throw std::invalid_argument(f.where + ": sim.watchdog (" + std::to_string(f.watchdog) +
                                " cycles) must exceed the longest single overhead (" + std::to_string(longest) +
                                " cycles), or a busy host/NI would count as deadlock");
}

namespace {
// Busy fractions of a node's three resources over `now` cycles, each checked
// to lie in [0, 1] (statistics and the saturation report share them).
struct NodeBusy {
  double host, ni, bus;
};
// A node's parts, with or without wormcast's host (NiOnlyNode: the user's).
struct NodeParts {
  const HostProcessor* host;
  const NetworkInterface* ni;
  const IoBus* bus;
};
NodeParts parts_of(const NodeHardware* h) {
  if (const auto* n = dynamic_cast<const HostNiNode*>(h)) return {&n->node().host, &n->node().ni, &n->node().bus};
  const auto& n = dynamic_cast<const NiOnlyNode&>(*h).node();
  return {nullptr, &n.ni, &n.bus};
}
NodeBusy node_busy(const NodeParts& n, Cycle now) {
  const double cyc = std::max<double>(1.0, static_cast<double>(now));
  return {checked_fraction(n.host ? static_cast<double>(n.host->busy_cycles()) : 0.0, cyc, "host busy"),
          checked_fraction(static_cast<double>(n.ni->stats().busy), cyc, "NI busy"),
          checked_fraction(static_cast<double>(n.bus->busy_cycles(now)), cyc, "I/O bus")};
}
}  // namespace

void HostNiModel::register_statistics(StatsScope s, const std::vector<NodeHardware*>& hw) const {
  register_message_statistics(s, {std::begin(kAllParts), std::end(kAllParts)});
  std::vector<NodeParts> nodes;
  for (const NodeHardware* h : hw) nodes.push_back(parts_of(h));
  const Cycle& now = s.now;
  auto fractions = [nodes, &now](double NodeBusy::*part) {
    std::vector<double> v;
    for (const NodeParts& n : nodes) v.push_back(node_busy(n, now).*part);
    return mean_max(v);
  };
  s.stats.add("nodes.host_busy_fraction", "fraction", "host CPU busy time / cycles simulated (mean, max over nodes)",
              [fractions] { return fractions(&NodeBusy::host); });
  s.stats.add("nodes.ni_busy_fraction", "fraction", "NI processor busy time / cycles simulated (mean, max)",
              [fractions] { return fractions(&NodeBusy::ni); });
  s.stats.add("nodes.io_bus_utilization", "fraction", "I/O bus busy time / cycles simulated (mean, max)",
              [fractions] { return fractions(&NodeBusy::bus); });
  s.stats.add("nodes.ni_memory_flits", "flits", "NI memory occupancy: peak over nodes, time-weighted mean", [nodes, &now] {
    int peak = 0;
    double occ = 0;
    const double cyc = std::max<double>(1.0, static_cast<double>(now));
    for (const NodeParts& n : nodes) {
      const NiStats st = n.ni->stats();
      occ += st.occupancy_integral / cyc;
      peak = std::max(peak, st.peak_flits);
    }
    return nlohmann::json{{"peak", peak},
                          {"time_weighted_mean", occ / std::max<double>(1.0, static_cast<double>(nodes.size()))}};
  });
}

std::string HostNiModel::bottleneck(const std::vector<NodeHardware*>& hw, Cycle now) const {
  // The busiest of the three node resources over all nodes, if nearly saturated.
  double best = 0;
  std::string what;
  for (std::size_t i = 0; i < hw.size(); ++i) {
    const NodeBusy b = node_busy(parts_of(hw[i]), now);
    const std::pair<double, const char*> parts[] = {{b.host, "host CPU"}, {b.ni, "NI processor"}, {b.bus, "I/O bus"}};
    for (const auto& [f, name] : parts)
      if (f > best) {
        best = f;
        what = std::string(name) + " of node " + std::to_string(i);
      }
  }
  if (best < 0.9) return {};
  char pct[16];
  std::snprintf(pct, sizeof pct, "%.1f%%", 100.0 * best);
  return what + " busy " + pct + " of the time";
}

std::unique_ptr<NodeModel> make_host_ni_node_model() { return std::make_unique<HostNiModel>(); }

}  // namespace wormcast::rtl
