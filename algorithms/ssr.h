// Single Switch Replication (SSR) worms, seed000 §5.2 (§5.2.1, header §5.3):
// one worm per switch that has destinations; it is routed like a unicast to
// that switch and replicated there to the node ports marked in a p-bit port
// string. Derivation needs only the node -> (switch, port) map.
#pragma once

#include <vector>

#include "algorithms/poc.h"
#include "topologies/topology.h"
#include "topologies/updown.h"

namespace wormcast::algo {

// What the header's ID field names (§5.3). switch_id is the default: the
// paper's example uses it and Autonet lets messages address switches. With
// node_id the field holds the worm's first destination on that switch.
enum class SsrId { switch_id, node_id };

struct SsrWorm {
  topo::SwitchId sw = -1;
  std::vector<topo::NodeId> destinations;   // the destinations on sw, by port order
  std::vector<bool> port_bits;              // bit i = 1: output port i of sw leads to a destination
  // Value of the header's ID field.
  int id(SsrId kind = SsrId::switch_id) const { return kind == SsrId::switch_id ? sw : destinations.front(); }
};

// Groups dests by switch; groups follow `switch_order` (every switch holding a
// destination must appear in it). Throws std::invalid_argument on a bad
// multicast or an incomplete order.
std::vector<SsrWorm> ssr_worms(const topo::Topology& t, topo::NodeId source,
                               const std::vector<topo::NodeId>& dests,
                               const std::vector<topo::SwitchId>& switch_order);

// Default order: switches in the order of the POC chains of Fig. 13
// (poc.h), which is the order Figs. 15(a)/16(a) hand the SSR worms out in
// (5, 3, 9, 1, 7, ...). The paper sorts worms only by size, and all SSR worms
// of that example have two destinations, so this order is what breaks ties.
std::vector<SsrWorm> ssr_worms(const topo::Topology& t, const topo::UpDownRouting& r,
                               topo::NodeId source, const std::vector<topo::NodeId>& dests,
                               const PocOptions& opt = {});

}  // namespace wormcast::algo
