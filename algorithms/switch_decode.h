// What a switch does with an SSR or multi-drop header (seed000 §5.4): the
// pure decision a switch decoder module makes from the header bits, the input
// port's phase and its own rows of the unicast up*/down* tables.
//  * switch-ID variant (default): the ID is compared with this switch;
//    on a match the node ports marked '1' get copies; otherwise the worm
//    follows a minimal legal route toward the named switch.
//  * node-ID variant: a match is "the ID names a node attached here";
//    otherwise the worm is routed as a unicast to that node.
//  * multi-drop: the first pair acts as above; a matching pair is stripped
//    (consume_pair) and the rest heads for the next pair's switch. By
//    Definition 3 at most one copy leaves toward another switch.
// Among several legal minimal ports the decoder takes ports[choice % count]
// (choice 0 = lowest port; pass a counter for round-robin or a random draw
// for adaptive routing, §10 item 6).
#pragma once

#include <cstddef>
#include <functional>
#include <vector>

#include "algorithms/headers.h"
#include "algorithms/poc.h"
#include "topologies/topology.h"
#include "topologies/updown.h"

namespace wormcast::algo {

// Ports of s on minimal legal up*/down* routes from (s, ph) to switch dst_sw,
// ascending (empty when s == dst_sw or no legal route exists).
std::vector<topo::PortId> ports_toward_switch(const topo::Topology& t, const topo::UpDownRouting& r,
                                              topo::SwitchId s, topo::Phase ph, topo::SwitchId dst_sw);

struct DropAction {
  std::vector<topo::PortId> deliver;   // node ports that get a copy
  topo::PortId forward = -1;           // toward the next switch; -1: the worm ends here
  Bits forward_header;                 // header on the forwarded copy
};

DropAction decode_ssr_at_switch(const topo::Topology& t, const topo::UpDownRouting& r, topo::SwitchId s,
                                topo::Phase arrival, const Bits& header, SsrId kind = SsrId::switch_id,
                                std::size_t choice = 0);
DropAction decode_multidrop_at_switch(const topo::Topology& t, const topo::UpDownRouting& r, topo::SwitchId s,
                                      topo::Phase arrival, const Bits& header, SsrId kind = SsrId::switch_id,
                                      std::size_t choice = 0);
// The same with the choice among legal ports made by `pick` (given the legal
// ports, ascending, non-empty; returns an index into them): a switch decoder
// passes its adaptive / round-robin port selection here.
using PortPicker = std::function<std::size_t(const std::vector<topo::PortId>&)>;
DropAction decode_ssr_at_switch(const topo::Topology& t, const topo::UpDownRouting& r, topo::SwitchId s,
                                topo::Phase arrival, const Bits& header, SsrId kind, const PortPicker& pick);
DropAction decode_multidrop_at_switch(const topo::Topology& t, const topo::UpDownRouting& r, topo::SwitchId s,
                                      topo::Phase arrival, const Bits& header, SsrId kind, const PortPicker& pick);

// Injects a multi-drop header at the sender's switch and applies the decode
// at every switch; returns the route taken and the nodes reached, in order
// (PathWorm::destinations), for worm_check. The h-th hop uses choice + h.
// Throws std::invalid_argument when a decode finds no legal way on.
PathWorm run_multidrop_worm(const topo::Topology& t, const topo::UpDownRouting& r, topo::NodeId sender,
                            const Bits& header, SsrId kind = SsrId::switch_id, std::size_t choice = 0);

}  // namespace wormcast::algo
