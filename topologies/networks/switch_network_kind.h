// Network kinds of irregular switch networks (seed000 §1, §2, §7): switches
// of k ports joined by full-duplex links, up*/down* routing, one decoder per
// switch. `irregular` generates the network (seed000 §7.6); `file` loads a
// topology file. Both declare the `routing`, `switch` and `link` sections.
#pragma once

#include <memory>
#include <string>

#include "rtl_models/core/link.h"
#include "rtl_models/switch/switch.h"
#include "topologies/networks/network_kind.h"
#include "topologies/topology.h"
#include "topologies/updown.h"

namespace wormcast::topo {

struct RoutingSection {
  std::string root = "lowest_id";
  std::string selection = "deterministic";
  void visit(ParamVisitor& v);
};

RootRule parse_root_rule(const std::string& s);

class SwitchNetworkKind : public NetworkKind {
 public:
  RoutingSection routing;
  rtl::SwitchParams sw;
  std::string decoder = "updown";
  std::string drop_id = "switch_id";
  rtl::LinkParams link;

  // The switch-level topology this kind describes (generated or loaded).
  virtual Topology topology() const = 0;
  // Its nodes, if known without building the topology (0: not known).
  virtual int known_node_count() const { return 0; }
  void visit_sections(ParamVisitor& v) override;
  void describe_facts(rtl::ConfigFacts& f) const override;
  void validate(const rtl::ConfigFacts& f) const override;
  std::unique_ptr<NetworkModel> build(const char* name, const BuildInputs& in) const override;
};

class IrregularKind : public SwitchNetworkKind {
 public:
  IrregularParams gen;
  std::unique_ptr<NetworkKind> clone() const override { return std::make_unique<IrregularKind>(*this); }
  void visit_topology(ParamVisitor& v) override;
  Topology topology() const override { return generate_irregular(gen); }
  int known_node_count() const override;
  // Specs irregular:SxPpN[sSEED][cCONN] (switch_network_specs.cpp).
  std::string spec_prefix() const override { return "irregular"; }
  std::string spec_example() const override { return "irregular:SxPpN[sSEED][cCONN] (e.g. irregular:8x8p32s1)"; }
  algo::PlanNetwork plan_network(const std::string& spec) const override;
  std::vector<std::pair<std::string, std::string>> topology_settings(const std::string& spec) const override;
  void show(const std::string& spec, const SpecOptions& o, std::ostream& os) const override;
  std::vector<std::string> export_spec(const std::string& spec, const SpecOptions& o, std::ostream& os) const override;
};

class FileKind : public SwitchNetworkKind {
 public:
  std::string file;
  std::unique_ptr<NetworkKind> clone() const override { return std::make_unique<FileKind>(*this); }
  void visit_topology(ParamVisitor& v) override;
  void resolve_paths(const std::string& experiment_dir) override;
  void validate(const rtl::ConfigFacts& f) const override;
  Topology topology() const override;
  // A topology file's path (YAML/JSON, topology_io.h).
  bool reads_files() const override { return true; }
  std::string spec_example() const override { return "a topology file (YAML/JSON)"; }
  algo::PlanNetwork plan_network(const std::string& spec) const override;
  std::vector<std::pair<std::string, std::string>> topology_settings(const std::string& spec) const override {
    return {{"file", spec}};
  }
  void show(const std::string& spec, const SpecOptions& o, std::ostream& os) const override;
  std::vector<std::string> export_spec(const std::string& spec, const SpecOptions& o, std::ostream& os) const override;
};

// InfiniBand m-port n-tree IBFT(m, n) (seed003 §2; topologies/fat_tree.h):
// the switch network of fat_tree_topology(), with the IB forwarding tables
// as its decoder and store-and-forward switches by default (seed003 §12).
// Up*/down* tables are still built (for switch.decoder updown).
class FatTreeKind : public SwitchNetworkKind {
 public:
  int m = 8, n = 3;
  FatTreeKind() {
    decoder = "ib";
    sw.admission = "store_and_forward";
    sw.next_header = "after_grant";   // an IB switch looks up the next packet while the one ahead is sent
  }
  std::unique_ptr<NetworkKind> clone() const override { return std::make_unique<FatTreeKind>(*this); }
  void visit_topology(ParamVisitor& v) override;
  void validate(const rtl::ConfigFacts& f) const override;
  Topology topology() const override;
  int known_node_count() const override;
  // Specs ibft:M,N (fat_tree_io.h); exported as dot.
  std::string spec_prefix() const override { return "ibft"; }
  std::string spec_example() const override { return "ibft:8,3"; }
  algo::PlanNetwork plan_network(const std::string& spec) const override;
  std::vector<std::pair<std::string, std::string>> topology_settings(const std::string& spec) const override;
  void show(const std::string& spec, const SpecOptions& o, std::ostream& os) const override;
  std::vector<std::string> export_spec(const std::string& spec, const SpecOptions& o, std::ostream& os) const override;
};

// `topo show` of a switch network: its switches, ports and up*/down*
// levels, and the independent check of its tables.
void show_switch_network(const Topology& t, std::ostream& os);
// A switch network in format yaml, json, dot or anynet; returns warnings.
std::vector<std::string> write_switch_network(const Topology& t, const std::string& format, std::ostream& os);

}  // namespace wormcast::topo
