#include "testbenches/lib/experiment.h"

#include <algorithm>
#include <filesystem>
#include <fstream>

namespace wormcast::tb {

void ExperimentConfig::visit(ParamVisitor& v) {
  v.text("name", name, "experiment name, used for results file names");
  v.seed("seed", seed, "seed of the run's random generator (traffic, random port choice)");
  v.begin_section("clock", "clock");
  v.time_ps("period", period_ps, "clock period; all delays are in cycles of this clock");
  v.end_section();
  v.set_clock_period_ps(period_ps);
  v.begin_section("topology", "network topology");
  topology.visit(v);
  v.end_section();
  v.begin_section("routing", "up*/down* routing");
  routing.visit(v);
  v.end_section();
  v.begin_section("switch", "input-buffered cut-through switch");
  sw.visit(v);
  v.end_section();
  v.begin_section("link", "links");
  link.visit(v);
  v.end_section();
  v.begin_section("node", "node model");
  node.visit(v);
  v.end_section();
  v.begin_section("endpoint", "packet endpoint (node.model endpoint)");
  endpoint.visit(v);
  v.end_section();
  v.begin_section("host", "host processor (node.model host_ni)");
  host.visit(v);
  v.end_section();
  v.begin_section("iobus", "host I/O bus (node.model host_ni)");
  iobus.visit(v);
  v.end_section();
  v.begin_section("ni", "NI coprocessor (node.model host_ni)");
  ni.visit(v);
  v.end_section();
  v.begin_section("traffic", "synthetic traffic: packets (endpoint) or messages (host_ni)");
  traffic.visit(v);
  v.end_section();
  v.begin_section("message", "messages (node.model host_ni)");
  message.visit(v);
  v.end_section();
  v.begin_section("sim", "run control");
  sim.visit(v);
  v.end_section();
}

void ExperimentConfig::validate() const {
  const std::string where = source_file.empty() ? std::string("configuration") : source_file;
  if (node.model == "host_ni" && ni.packet_size + ni.header_flits > sw.buffer_flits)
    throw ConfigError(where + ": ni.packet_size + ni.header_flits (" + std::to_string(ni.packet_size + ni.header_flits) +
                      " flits) exceeds switch.buffer (" + std::to_string(sw.buffer_flits) +
                      " flits): a packet must fit completely in an input buffer (seed000 §2.2)");
  if (node.model == "host_ni" && ni.packet_size + ni.header_flits > ni.receive_queue)
    throw ConfigError(where + ": ni.receive_queue (" + std::to_string(ni.receive_queue) +
                      " flits) is smaller than one packet");
  if (node.model == "host_ni") {
    const Cycle longest = std::max({host.t_hs, host.t_hr, ni.t_ns, ni.t_nr});
    if (sim.watchdog <= longest)
      throw ConfigError(where + ": sim.watchdog (" + std::to_string(sim.watchdog) +
                        " cycles) must exceed the longest single overhead (" + std::to_string(longest) +
                        " cycles), or a busy host/NI would count as deadlock");
  }
  if (node.model == "endpoint" && traffic.packet_size > sw.buffer_flits)
    throw ConfigError(where + ": traffic.packet_size (" + std::to_string(traffic.packet_size) +
                      " flits) exceeds switch.buffer (" + std::to_string(sw.buffer_flits) +
                      " flits): a packet must fit completely in an input buffer (seed000 §2.2)");
  if (traffic.header_flits > traffic.packet_size)
    throw ConfigError(where + ": traffic.header_flits (" + std::to_string(traffic.header_flits) +
                      ") exceeds traffic.packet_size (" + std::to_string(traffic.packet_size) + ")");
  if (topology.kind == "file" && topology.file.empty())
    throw ConfigError(where + ": topology.file: required when topology.kind is 'file'");
  if (topology.kind == "irregular" && !topology.file.empty())
    throw ConfigError(where + ": topology.file: given but topology.kind is 'irregular' (set kind: file)");
  if (sw.admission == "virtual_cut_through" && endpoint.rx_buffer_flits < traffic.packet_size)
    throw ConfigError(where + ": endpoint.rx_buffer (" + std::to_string(endpoint.rx_buffer_flits) +
                      ") is smaller than a packet; virtual cut-through could never deliver");
}

ExperimentConfig load_experiment(const std::string& path, const std::vector<Override>& overrides) {
  ExperimentConfig cfg;
  YAML::Node root;
  if (!path.empty()) {
    root = load_yaml_file(path);
    cfg.source_file = path;
  }
  YamlParamReader reader(root, path.empty() ? "defaults" : path, overrides);
  cfg.visit(reader);
  reader.finish();
  if (cfg.topology.kind == "file" && !path.empty() && !cfg.topology.file.empty() &&
      std::filesystem::path(cfg.topology.file).is_relative()) {
    // Relative to the experiment file (if it exists there), else to the cwd.
    auto rel = std::filesystem::path(path).parent_path() / cfg.topology.file;
    if (std::filesystem::exists(rel)) cfg.topology.file = rel.string();
  }
  cfg.validate();
  return cfg;
}

}  // namespace wormcast::tb
