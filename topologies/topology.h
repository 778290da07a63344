// Switch-level description of an interconnection network: switches with k
// ports, each port open, attached to a processing node, or joined by a
// full-duplex link to a port of another switch (seed000 §1.1, §7.6).
// Pure data, no SystemC: the elaborator turns it into modules.
#pragma once

#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

namespace wormcast::topo {

using SwitchId = int;
using NodeId = int;
using PortId = int;

// Size limits. Tables and simulated switches grow with switches * ports and
// up*/down* tables with switches^2, so larger inputs are rejected with a
// TopologyError naming the key and value instead of exhausting memory.
// kMaxSwitches also keeps UpDownRouting's 16-bit table entries exact.
constexpr int kMaxSwitches = 8192;
constexpr int kMaxPortsPerSwitch = 4096;
constexpr long long kMaxSwitchPorts = 1 << 20;   // switches * ports_per_switch

// Any problem with a topology (generated or read from a file). The message
// names the file (if any), the key/element and the reason.
class TopologyError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

enum class PeerKind { none, node, switch_port };

struct PortPeer {
  PeerKind kind = PeerKind::none;
  int id = -1;         // node id (kind == node) or switch id (kind == switch_port)
  PortId port = -1;    // remote port (kind == switch_port)
};

struct PortRef {
  SwitchId sw = -1;
  PortId port = -1;
  bool operator==(const PortRef& o) const { return sw == o.sw && port == o.port; }
};

// One full-duplex inter-switch link, listed once with a < b (or a == b never).
struct SwitchLink {
  PortRef a, b;
};

struct Topology {
  int ports_per_switch = 0;                   // k
  std::vector<std::vector<PortPeer>> ports;   // [switch][port]
  std::vector<PortRef> node_attach;           // node id -> (switch, port)
  std::string description;                    // how it was made (generator + params, or file)

  // Building by hand (tests, examples, users' own networks in code):
  // `switches` switches of `ports` open ports; then connect and attach.
  static Topology empty(int switches, int ports, std::string description = "built in code");
  // Full-duplex link: switch a port pa <-> switch b port pb.
  Topology& connect(SwitchId a, PortId pa, SwitchId b, PortId pb);
  // Node n on switch s port p (node ids must end up 0..N-1).
  Topology& attach(NodeId n, SwitchId s, PortId p);

  int num_switches() const { return static_cast<int>(ports.size()); }
  int num_nodes() const { return static_cast<int>(node_attach.size()); }
  const PortPeer& peer(SwitchId s, PortId p) const { return ports.at(s).at(p); }
  std::vector<SwitchLink> links() const;              // each link once
  std::vector<NodeId> nodes_at(SwitchId s) const;     // nodes attached to s, by port order
  bool connected() const;                             // switch graph connected
  // Throws TopologyError on: sizes above the limits, port index out of range, asymmetric link,
  // link between two ports of one switch, node attached twice or missing,
  // no switches, disconnected switch graph.
  void validate() const;
};

// seed000 §7.6: s switches with k ports and p nodes; (s*k - p) switch ports
// are to be interconnected; `connectivity` in (0,1] is the fraction of those
// ports that are actually linked. Node placement is random (or, with
// hosts_per_switch = h > 0, h nodes on ports 0..h-1 of every switch). Generation is
// retried (deterministically from `seed`) until the switch graph is connected.
struct IrregularParams {
  int switches = 8;
  int ports = 8;
  int nodes = 32;
  double connectivity = 0.8;
  std::uint64_t seed = 1;
  int hosts_per_switch = 0;   // > 0: exactly this many nodes on each switch (ports 0..h-1), seed002 §7.2
};

// Number of inter-switch links the generator makes:
// floor(connectivity * (s*k - p) / 2), i.e. the linked-port count rounded
// down to an even number (documented rounding rule).
int irregular_link_count(const IrregularParams& p);

// Throws TopologyError when the parameters cannot produce a connected network
// (0 switches, more nodes than ports, too few links to connect s switches,
// sizes above the limits, ...).
Topology generate_irregular(const IrregularParams& p);

}  // namespace wormcast::topo
