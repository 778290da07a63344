// What a multi-destination worm becomes at an intermediate destination
// (intermediate reception, seed001 Fig. 5.10): a local copy for the node's
// processor (the header flits it strips and the body, a unicast packet to
// the node) and the forwarded worm (the rest of the header and the body),
// both new packets. One function for both routers (fast and reference), so
// that the header checks and the split are written once.
#pragma once

#include <string>

#include "rtl_models/core/packet.h"
#include "rtl_models/core/sim_context.h"

namespace wormcast::rtl {

struct IrSplit {
  int strip = 1;   // leading header flits the local copy alone gets
  PacketPtr fwd, copy;
};

// Header flits the node strips: the address (plain IR: one flit per address
// plus the terminator) or the compound header's first block (Fig. 6.2).
// Throws std::invalid_argument, prefixed by `who`, on a header that does not
// match its destination list at `at`.
int ir_strip(const Packet& old, NodeId at, const std::string& who);

// The split of `old` (at its intermediate destination `at`, more addresses
// left); new ids from ctx, the forwarded worm's first. Throws as ir_strip,
// and on a list naming `at` twice in a row.
IrSplit split_ir_worm(const Packet& old, NodeId at, SimContext& ctx, const std::string& who);

}  // namespace wormcast::rtl
