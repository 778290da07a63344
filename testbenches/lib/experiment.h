// An experiment: everything a run needs, declared once (visit) so it can be
// loaded from YAML with --set overrides, listed by `wormcast params`, and
// echoed into results.
#pragma once

#include <string>
#include <vector>

#include "rtl_models/endpoint.h"
#include "rtl_models/host_processor.h"
#include "rtl_models/io_bus.h"
#include "rtl_models/network_interface.h"
#include "rtl_models/link.h"
#include "rtl_models/switch.h"
#include "rtl_models/traffic.h"
#include "testbenches/lib/config.h"

namespace wormcast::tb {

struct TopologySection {
  std::string kind = "irregular";   // irregular | file
  int switches = 8;
  int ports = 8;
  int nodes = 32;
  double connectivity = 0.8;
  std::uint64_t seed = 1;
  std::string file;
  void visit(ParamVisitor& v) {
    v.choice("kind", kind, {"irregular", "file"}, "generate an irregular network (seed000 §7.6) or load a topology file");
    v.count("switches", switches, "number of switches (irregular)", 1, 1 << 16);
    v.count("ports", ports, "ports per switch (irregular)", 1, 1024);
    v.count("nodes", nodes, "number of processing nodes (irregular)", 1, 1 << 20);
    v.real("connectivity", connectivity, "", "fraction of the free switch ports that are linked (irregular; 80% ok)",
           1e-9, 1.0, true);
    v.seed("seed", seed, "topology generator seed (independent of the run seed)");
    v.text("file", file, "topology file (kind: file), YAML or JSON, relative to the experiment file");
  }
};

struct RoutingSection {
  std::string root = "lowest_id";
  std::string selection = "deterministic";
  void visit(ParamVisitor& v) {
    v.choice("root", root, {"lowest_id", "max_degree"}, "BFS spanning-tree root for up*/down*");
    v.choice("selection", selection, {"deterministic", "round_robin", "random", "adaptive"},
             "choice among several legal minimal up*/down* ports (deterministic = lowest port)");
  }
};

struct NodeSection {
  std::string model = "endpoint";
  void visit(ParamVisitor& v) {
    v.choice("model", model, {"endpoint", "host_ni"},
             "what sits at each node: endpoint (packet source/sink at the link) or host_ni "
             "(host processor + I/O bus + NI coprocessor, message traffic)");
  }
};

struct MessageSection {
  int size = 128;   // bytes (= flits) per message
  void visit(ParamVisitor& v) {
    v.flits("size", size, "message length (node.model host_ni); 1 flit = 1 byte, split into ni.packet_size packets");
  }
};

struct SimSection {
  Cycle warmup = 10000;
  Cycle measure = 50000;
  Cycle drain_limit = 200000;
  Cycle watchdog = 20000;
  void visit(ParamVisitor& v) {
    v.cycles("warmup", warmup, "cycles before measurement starts");
    v.cycles("measure", measure, "measurement window: packets created in it are measured", 1);
    v.cycles("drain_limit", drain_limit,
             "extra cycles allowed for measured packets to arrive and the network to drain; "
             "beyond it the run is reported saturated");
    v.cycles("watchdog", watchdog, "cycles without any flit moving (with packets outstanding) that count as deadlock", 1);
  }
};

struct ExperimentConfig {
  std::string name = "experiment";
  std::uint64_t seed = 1;
  std::uint64_t period_ps = 5000;
  TopologySection topology;
  RoutingSection routing;
  rtl::SwitchParams sw;
  rtl::LinkParams link;
  NodeSection node;
  rtl::EndpointParams endpoint;
  rtl::HostParams host;
  rtl::IoBusParams iobus;
  rtl::NiParams ni;
  rtl::TrafficParams traffic;
  MessageSection message;
  SimSection sim;
  std::string source_file;   // not a parameter: where it was loaded from

  void visit(ParamVisitor& v);
  // Cross-parameter checks (throws ConfigError naming the keys).
  void validate() const;
};

// Load an experiment file (YAML) with overrides; an empty path gives the
// defaults plus overrides. Throws ConfigError.
ExperimentConfig load_experiment(const std::string& path, const std::vector<Override>& overrides);

}  // namespace wormcast::tb
