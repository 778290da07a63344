#include "rtl_models/node/processor_node.h"

#include <fnmatch.h>

#include <algorithm>
#include <cstdio>

#include "rtl_models/node/host_ni_node.h"

namespace wormcast::rtl {

int ProcessorNode::trace(sc_core::sc_trace_file* tf, const std::string& filter) {
  int n = 0;
  for (int i = 0; i < proc_.ports(); ++i)
    if (fnmatch(filter.c_str(), proc_.port(i).name(), 0) == 0 || fnmatch(filter.c_str(), proc_.name(), 0) == 0) {
      if (tf) proc_.port(i).trace(tf);
      ++n;
    }
  return n;
}

std::string ProcessorNode::describe_blocked(Cycle now) const {
  std::string s;
  for (int i = 0; i < proc_.ports(); ++i)
    if (proc_.port(i).queued_packets() > 0) s += (s.empty() ? "" : "; ") + proc_.port(i).describe(now);
  if (proc_.messages_waiting() > 0)
    s += (s.empty() ? std::string(proc_.name()) + ": " : "; ") + std::to_string(proc_.messages_waiting()) +
         " messages waiting to be received";
  return s;
}

void ProcessorModel::visit(ParamVisitor& v) {
  v.begin_section("processor", "direct-network processor: t_S/t_R, one link pair per internal channel "
                               "(node.model processor)");
  params.visit(v);
  v.end_section();
}

void ProcessorModel::packet_bound(ConfigFacts& f) const {
  f.packet_flits = f.workload_packet_flits + params.header_flits;
  f.packet_what = f.workload_packet_key + " + processor.header_flits";
}

void ProcessorModel::validate(const ConfigFacts& f) const {
  const Cycle longest = std::max(params.t_s, params.t_r);
  if (f.watchdog <= longest)
    throw std::invalid_argument(f.where + ": sim.watchdog (" + std::to_string(f.watchdog) +
                                " cycles) must exceed processor.t_s and processor.t_r (" + std::to_string(longest) +
                                " cycles), or a busy processor would count as deadlock");
  if (!f.direct_network)
    throw std::invalid_argument(f.where + ": node.model processor is the node of direct networks (topology.kind "
                                "torus, mesh or hypercube); switch networks use endpoint or host_ni");
}

void ProcessorModel::register_statistics(StatsScope s, const std::vector<NodeHardware*>& hw) const {
  // No I/O bus or NI: t_S (with, model B, the wait for the channel), the
  // wait in the channel queue until the head leaves, head injected to tail
  // delivered, and the wait for the CPU with t_R.
  register_message_statistics(s, {{"send", &MessageStats::host_send},
                                  {"source_queue", &MessageStats::ni_send},
                                  {"network", &MessageStats::network},
                                  {"receive", &MessageStats::host_receive}});
  std::vector<const DirectProcessor*> procs;
  for (NodeHardware* h : hw) procs.push_back(&static_cast<ProcessorNode*>(h)->processor());
  const Cycle& now = s.now;
  s.stats.add("nodes.cpu_busy_fraction", "fraction",
              "processor CPU busy time (t_S, t_R, compute) / cycles simulated (mean, max over nodes)", [procs, &now] {
                double sum = 0, mx = 0;
                const double cyc = std::max<double>(1.0, static_cast<double>(now));
                for (const DirectProcessor* p : procs) {
                  const double f = checked_fraction(static_cast<double>(p->busy_cycles()), cyc, "CPU busy");
                  sum += f;
                  mx = std::max(mx, f);
                }
                return nlohmann::json{{"mean", sum / std::max<double>(1.0, static_cast<double>(procs.size()))},
                                      {"max", mx}};
              });
}

std::string ProcessorModel::bottleneck(const std::vector<NodeHardware*>& hw, Cycle now) const {
  const double cyc = std::max<double>(1.0, static_cast<double>(now));
  double best = 0;
  std::size_t at = 0;
  for (std::size_t i = 0; i < hw.size(); ++i) {
    const double f = static_cast<double>(static_cast<const ProcessorNode*>(hw[i])->processor().busy_cycles()) / cyc;
    if (f > best) best = f, at = i;
  }
  if (best < 0.9) return {};
  char pct[16];
  std::snprintf(pct, sizeof pct, "%.1f%%", 100.0 * best);
  return "processor CPU of node " + std::to_string(at) + " busy " + pct + " of the time";
}

std::unique_ptr<NodeModel> make_processor_node_model() { return std::make_unique<ProcessorModel>(); }

}  // namespace wormcast::rtl
