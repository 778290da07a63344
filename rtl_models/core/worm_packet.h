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
#include "rtl_models/core/packet.h"
#include "rtl_models/core/registry.h"
#include "rtl_models/switch/port_choice.h"
#include "topologies/updown.h"

namespace wormcast::rtl {

// A switch-based multicast worm (seed000 §5.3) as host software hands it to
// its NI: the encoded header (algorithms/headers.h), every destination it
// reaches, and what relays among them must send next (opaque to the NI).
struct WormSend {
  WormEncoding encoding = WormEncoding::none;
  std::vector<bool> header_bits;
  std::vector<NodeId> dests;
  std::shared_ptr<const algo::RelayWorm> relay_worm;
  int bytes = 0;
};

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

// ---- the host software's side of the switch-based schemes ------------------
// A switch-based scheme of seed000 §5 as one record: the decoder its worms
// need and the local rule the host software runs (what the source sends,
// what a node sends after receiving a worm). Built-ins (worm_schemes()):
// tree: one bit-string worm from the source; path-lg / path-greedy: POC
// multi-drop worms scheduled Less-Greedy / Greedy (§5.7); ssr: SSR worms
// scheduled Less-Greedy. Every worm of a multi-phase scheme carries its
// algo::RelayWorm, from which each receiver computes alone what it sends
// next (algo::relay_sends). The workloads and testbenches select a record
// by name and never tell schemes apart.
class WormScheme {
 public:
  virtual ~WormScheme() = default;
  virtual std::string name() const = 0;
  // The decoder (switch.decoder) its worms need.
  virtual const char* decoder() const = 0;
  // The worms the source sends, in order (they leave one after another).
  // Throws std::invalid_argument on a bad multicast (algo::check_multicast).
  virtual std::vector<WormSend> source_worms(const topo::Topology& t, const topo::UpDownRouting& r, algo::SsrId id,
                                             NodeId source, const std::vector<NodeId>& dests, int bytes) const = 0;
  // The worms node `me` sends after receiving a worm that carried `got`, in
  // order (none for a node that does not relay).
  virtual std::vector<WormSend> relay_worms(const topo::Topology& t, algo::SsrId id, const algo::RelayWorm* got,
                                            NodeId me, int bytes) const = 0;
};

using WormSchemeRegistry = Registry<WormScheme>;
// tree, path-lg, path-greedy, ssr, with their descriptions.
const WormSchemeRegistry& worm_schemes();
// The record of `name`, alive for the whole program; throws
// std::invalid_argument naming the known schemes.
const WormScheme& worm_scheme(const std::string& name);

}  // namespace wormcast::rtl
