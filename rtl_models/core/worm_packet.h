// Packets of the switch-based multicast worms (seed000 §5.3): a worm carries
// its real encoded header (algorithms/headers.h) in header_flits =
// ceil(bits / 8) one-byte flits ahead of its payload. Helpers to build a worm
// at its source, to build the copy a switch emits on a branch whose header
// differs (multi-drop pairs stripped, tree strings rewritten), and the
// up*/down* unicast step every multicast decoder also performs.
#pragma once

#include <string>
#include <vector>

#include "algorithms/headers.h"
#include "algorithms/switch_scheme.h"
#include "rtl_models/core/packet.h"
#include "rtl_models/switch/port_choice.h"
#include "topologies/updown.h"

namespace wormcast::rtl {

// A worm as host software hands it to its NI (algorithms/switch_scheme.h,
// whose scheme records make them).
using WormSend = algo::WormSend;

// Header flits of a worm header of `bits` bits (1-byte flits, >= 1).
int worm_header_flits(std::size_t bits);

// A worm to `dests` (the ledger registers each) with `payload_flits` of
// payload. Throws std::invalid_argument for an empty header or destination
// set, or payload_flits < 0.
PacketPtr make_worm(WormEncoding enc, algo::Bits bits, std::vector<NodeId> dests, int payload_flits);

// The copy a branch emits with header `bits` and destinations `dests`: same
// payload, origin, message and stamps as `received`; header_flits and length
// follow from the new header.
PacketPtr branch_copy(const Packet& received, algo::Bits bits, std::vector<NodeId> dests);

// Output port of a unicast packet at switch `sw` arriving on `in_port`, on a
// minimal legal up*/down* route chosen by `chooser`. Throws
// std::runtime_error (naming `who`) when no legal route exists.
int unicast_port(const topo::UpDownRouting& r, int sw, int in_port, const Packet& pkt, PortChooser& chooser,
                 const OutputPortState& ports, const std::string& who);

const char* worm_encoding_name(WormEncoding e);

}  // namespace wormcast::rtl
