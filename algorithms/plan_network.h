// The network a `wormcast plan` request names (docs/plan.md): a SPEC
// string parsed into an irregular switch network (generated or loaded, with its up*/down* routing) or a
// direct network (torus, mesh, hypercube, with its default routing) or an
// InfiniBand fat tree IBFT(m, n), plus the node naming of the papers:
// integer ids for irregular networks (JSON numbers), coordinate tuples
// highest dimension first for tori and meshes ("(4,3)"), bit strings for
// hypercubes ("0101") and "P(201)" for fat-tree nodes, all JSON strings.
// Plain C++, no SystemC.
//
// SPEC forms:
//   irregular:SxPpN[sSEED][cCONN]   S switches of P ports, N nodes, generator
//                                   seed (default 1), connectivity (default 0.8):
//                                   irregular:8x8p32s1, irregular:16x8p64s3c0.6
//   torus:6x6:uni, torus:16x16x16:bi, mesh:8x8, hypercube:6 (direct_topology.h)
//   ibft:M,N                        the m-port n-tree (fat_tree.h): ibft:8,3
//   anything else: a topology file (YAML/JSON, topology_io.h)
#pragma once

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <vector>

#include "topologies/direct_routing.h"
#include "topologies/direct_topology.h"
#include "topologies/fat_tree.h"
#include "topologies/topology.h"
#include "topologies/updown.h"

namespace wormcast::algo {

enum class NetworkClass { none, irregular, direct, fat_tree };

// How a network class names its nodes and describes itself: one per class
// (plan_network.cpp), so PlanNetwork asks its naming instead of testing its
// kind. The defaults are an irregular network's: integer ids.
class NodeNaming {
 public:
  virtual ~NodeNaming() = default;
  virtual int num_nodes() const = 0;
  virtual std::string describe(const std::string& spec) const = 0;
  virtual std::string text(topo::NodeId n) const { return std::to_string(n); }
  virtual nlohmann::json json(topo::NodeId n) const { return n; }
  // t without spaces; throws std::invalid_argument "<what>: ..." naming it,
  // the network (`spec`) and the valid range or form.
  virtual topo::NodeId parse(const std::string& t, const std::string& text, const std::string& what,
                             const std::string& spec) const;
};

struct PlanNetwork {
  NetworkClass kind = NetworkClass::none;
  std::shared_ptr<const NodeNaming> naming;      // null for none
  std::string spec;                              // canonical spec or the file path
  std::optional<topo::Topology> topology;        // irregular only
  std::optional<topo::UpDownRouting> routing;    // irregular only
  std::optional<topo::DirectTopology> direct;    // direct only
  std::optional<topo::DirectRouting> direct_routing;
  std::optional<topo::FatTree> fat_tree;         // fat_tree only

  int num_nodes() const;   // 0 for none
  // "irregular switch network irregular:8x8p32s1", "direct network torus:6x6:uni",
  // "InfiniBand fat tree ibft:8,3".
  std::string describe() const;
  // Name as text ("5", "(4,3)", "0101", "P(201)") and as JSON (5 or "(4,3)").
  std::string node_text(topo::NodeId n) const;
  nlohmann::json node_json(topo::NodeId n) const;
  // Reads a name; throws std::invalid_argument "<what>: ..." naming the text
  // and the valid range when it is no node of this network.
  topo::NodeId parse_node(const std::string& text, const std::string& what) const;
};

// "irregular:8x8p32s1" -> parameters; throws std::invalid_argument quoting
// the spec and the expected form.
topo::IrregularParams parse_irregular_spec(const std::string& spec);
// Canonical spec of generator parameters (connectivity only when not 0.8).
std::string irregular_spec(const topo::IrregularParams& p);

// The networks of the SPEC forms above; a spec string itself is resolved by
// the network kinds' registry (topo::resolve_network_spec,
// topologies/networks/network_kind.h), the same that `run` builds from.
PlanNetwork irregular_network(const topo::IrregularParams& p);
PlanNetwork file_network(const std::string& path);
// A torus, mesh or hypercube with its default routing (topo::default_routing).
PlanNetwork direct_network(const topo::DirectTopology& t);
PlanNetwork fat_tree_network(const topo::FatTree& t);

// "3,5,9" or "(0,1),(2,3)": names separated by commas outside parentheses;
// spaces are ignored. Each must be a node; none may repeat or be the source.
// Errors name `what` (e.g. "--dests").
std::vector<topo::NodeId> parse_node_list(const PlanNetwork& net, const std::string& list,
                                          topo::NodeId source, const std::string& what);

// k distinct destinations drawn uniformly from the nodes other than source
// (partial Fisher-Yates on std::mt19937_64(seed), so the set depends only on
// the seed). Throws std::invalid_argument if k < 1 or k > nodes - 1.
std::vector<topo::NodeId> random_destinations(int num_nodes, topo::NodeId source, long long k,
                                              std::uint64_t seed);

}  // namespace wormcast::algo
