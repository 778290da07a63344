// The switch-network kinds named by a spec (network_kind.h, "Naming a
// network of this kind without an experiment file"): irregular:SxPpN...,
// a topology file, ibft:M,N.
#include <fmt/format.h>

#include <ostream>
#include <stdexcept>

#include "algorithms/ib_multicast.h"
#include "topologies/fat_tree_io.h"
#include "topologies/networks/switch_network_kind.h"
#include "topologies/topology_io.h"
#include "topologies/updown_check.h"

namespace wormcast::topo {

void show_switch_network(const Topology& t, std::ostream& os) {
  const UpDownRouting r(t);
  os << t.description << "\n";
  os << fmt::format("{} switches x {} ports, {} nodes, {} inter-switch links; up*/down* root {}, {} levels\n",
                    t.num_switches(), t.ports_per_switch, t.num_nodes(), t.links().size(), r.root(), r.max_level() + 1);
  for (int s = 0; s < t.num_switches(); ++s) {
    std::string line = fmt::format("  sw{:<3} level {}:", s, r.level(s));
    for (int p = 0; p < t.ports_per_switch; ++p) {
      const auto& pp = t.peer(s, p);
      if (pp.kind == PeerKind::node) line += fmt::format(" p{}=node{}", p, pp.id);
      else if (pp.kind == PeerKind::switch_port)
        line += fmt::format(" p{}=sw{}.p{}({})", p, pp.id, pp.port, r.is_up_port(s, p) ? "up" : "down");
      else line += fmt::format(" p{}=-", p);
    }
    os << line << "\n";
  }
  const auto problems = check_updown(t, r);
  os << (problems.empty() ? "  up*/down* tables: legal, minimal, deadlock-free (CDG acyclic)\n"
                          : "  up*/down* check FAILED: " + problems.front() + "\n");
}

std::vector<std::string> write_switch_network(const Topology& t, const std::string& format, std::ostream& os) {
  std::vector<std::string> warnings;
  if (format == "yaml") {
    write_topology_yaml(t, os);
  } else if (format == "json") {
    write_topology_json(t, os);
  } else if (format == "anynet") {   // BookSim2 network_file; it cannot express parallel links
    for (const auto& [a, b] : write_topology_anynet(t, os))
      warnings.push_back("anynet: a parallel link between switches " + std::to_string(a) + " and " +
                         std::to_string(b) + " is merged into one (BookSim2 cannot express parallel links)");
  } else if (format == "dot") {
    const UpDownRouting r(t);
    write_topology_dot(t, &r, os);
  } else {
    throw std::invalid_argument("--format " + format + ": expected yaml, json, dot or anynet");
  }
  return warnings;
}

// --- irregular:SxPpN[sSEED][cCONN] -------------------------------------------

algo::PlanNetwork IrregularKind::plan_network(const std::string& spec) const {
  return algo::irregular_network(algo::parse_irregular_spec(spec));
}

void IrregularKind::show(const std::string& spec, const SpecOptions&, std::ostream& os) const {
  show_switch_network(*algo::irregular_network(algo::parse_irregular_spec(spec)).topology, os);
}

std::vector<std::string> IrregularKind::export_spec(const std::string& spec, const SpecOptions& o,
                                                    std::ostream& os) const {
  return write_switch_network(*algo::irregular_network(algo::parse_irregular_spec(spec)).topology, o.format, os);
}

// --- experiment settings of a spec (testbenches) ----------------------------

std::vector<std::pair<std::string, std::string>> IrregularKind::topology_settings(const std::string& spec) const {
  const IrregularParams p = algo::parse_irregular_spec(spec);
  return {{"switches", std::to_string(p.switches)}, {"ports", std::to_string(p.ports)},
          {"nodes", std::to_string(p.nodes)},       {"connectivity", fmt::format("{}", p.connectivity)},
          {"seed", std::to_string(p.seed)}};
}

std::vector<std::pair<std::string, std::string>> FatTreeKind::topology_settings(const std::string& spec) const {
  const FatTree t = parse_fat_tree_spec(spec);
  return {{"m", std::to_string(t.m())}, {"n", std::to_string(t.n())}};
}

// --- topology files ---------------------------------------------------------

algo::PlanNetwork FileKind::plan_network(const std::string& spec) const { return algo::file_network(spec); }

void FileKind::show(const std::string& spec, const SpecOptions&, std::ostream& os) const {
  show_switch_network(load_topology(spec), os);
}

std::vector<std::string> FileKind::export_spec(const std::string& spec, const SpecOptions& o, std::ostream& os) const {
  return write_switch_network(load_topology(spec), o.format, os);
}

// --- ibft:M,N ---------------------------------------------------------------

algo::PlanNetwork FatTreeKind::plan_network(const std::string& spec) const {
  try {
    return algo::fat_tree_network(parse_fat_tree_spec(spec));
  } catch (const TopologyError& e) {
    throw std::invalid_argument(e.what());
  }
}

// With a check of the paper's forwarding tables: every cyclic-DLID route
// reaches its destination (up to 1024 nodes: O(N^2) traces).
void FatTreeKind::show(const std::string& spec, const SpecOptions&, std::ostream& os) const {
  const FatTree t = parse_fat_tree_spec(spec);
  show_fat_tree(t, os);
  if (t.num_nodes() > 1024) {
    os << "  forwarding tables: not checked above 1024 nodes\n";
    return;
  }
  try {
    const int lids = algo::lids_per_node(t);
    for (NodeId s = 0; s < t.num_nodes(); ++s)
      for (NodeId d = 0; d < t.num_nodes(); ++d)
        if (s != d) algo::trace_unicast(t, s, algo::cyclic_dlid(t, s, d));
    os << "  addressing: " << lids << " LIDs per node (LMC), LIDs 1.." << lids * t.num_nodes()
       << "; forwarding tables (Eqs. 1-2): every cyclic route reaches its destination\n";
  } catch (const std::invalid_argument& e) {
    os << "  addressing: not applicable (" << e.what() << ")\n";
  }
}

std::vector<std::string> FatTreeKind::export_spec(const std::string& spec, const SpecOptions& o,
                                                  std::ostream& os) const {
  if (o.format != "dot")
    throw std::invalid_argument("topo export " + spec + ": --format " + o.format + ": fat trees are exported as dot only");
  write_fat_tree_dot(parse_fat_tree_spec(spec), os);
  return {};
}

}  // namespace wormcast::topo
