// Reading and writing topologies: the wormcast topology file (YAML, or the
// same structure as JSON), and Graphviz DOT export.
//
// File format (YAML; JSON with the same keys is accepted):
//   format: wormcast-topology/1
//   ports_per_switch: 8
//   switches: 8
//   links:                       # full-duplex inter-switch links
//     - {a: [0, 1], b: [3, 5]}   # switch 0 port 1 <-> switch 3 port 5
//   nodes:                       # node id -> switch port
//     - {node: 0, at: [0, 2]}
//   description: "optional free text"
#pragma once

#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

#include "topologies/topology.h"
#include "topologies/updown.h"

namespace YAML { class Node; }

namespace wormcast::topo {

// Loads and validates a topology file. Errors (unreadable file, malformed
// YAML/JSON, unknown key, wrong type, port out of range, port used twice, node
// ids not 0..N-1, disconnected network) throw TopologyError whose message
// starts with "<path>: " and names the key/element and the reason.
Topology load_topology(const std::string& path);
// Same, from an already parsed node; `origin` prefixes error messages.
Topology topology_from_yaml(const YAML::Node& n, const std::string& origin);

void write_topology_yaml(const Topology& t, std::ostream& os);
void write_topology_json(const Topology& t, std::ostream& os);
// Graphviz DOT: switches as boxes, nodes as circles, port numbers as labels.
// With routing, inter-switch edges point in their "up" direction and tree
// links are drawn solid, cross links dashed; the root is highlighted.
void write_topology_dot(const Topology& t, const UpDownRouting* routing, std::ostream& os);
// BookSim2 "anynet" network file (src/networks/anynet.cpp): one line per
// switch, "router S node N ... router T ...", switches and nodes keeping
// wormcast's ids; each inter-switch link is listed once, on the line of its
// lower-numbered switch (BookSim adds the reverse channel), all latencies 1.
// BookSim orders a router's ports itself (nodes first), so port numbers are
// not kept. The format has no comments and keys a router's neighbours by id,
// so parallel links between two switches cannot be expressed: they are
// written once, and every extra link is returned as a (lower, higher) switch
// pair so the caller can say so (the CLI warns on stderr).
std::vector<std::pair<SwitchId, SwitchId>> write_topology_anynet(const Topology& t, std::ostream& os);

}  // namespace wormcast::topo
