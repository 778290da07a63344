// The compound header of seed001 Fig. 6.2 (Robinson, Sec. 6.5) for
// multi-phase path-based multicast (M-torus): one worm carries, after each
// destination address u_i, the count ω_i = |Φ̃^{u_i}| and the list Φ̃^{u_i}
// of the nodes u_i handles in later phases. The router routes on the first
// address; at destination u_i it delivers the block (u_i, ω_i, Φ̃^{u_i}) to
// the local processor and forwards the rest with the body.
//
// Layout (the figure is lost; this is our own, documented in
// docs/direct_networks.md): one address or count per flit,
//
//   u_1, ω_1, Φ̃^{u_1}..., u_2, ω_2, Φ̃^{u_2}..., ..., u_r, ω_r, Φ̃^{u_r}..., u_r, body
//
// i.e. the terminator (u_r again) comes after the last block, not right
// after u_r as the spec's §7.7 suggests: with the duplicate right after u_r,
// a count ω_i equal to the address u_i (node 3 with 3 nodes to serve) would
// read as a terminator; after a block, the next flit is either u_{i+1}
// (≠ u_i) or u_i again, which is unambiguous. The flit count is the same:
// Σ (2 + ω_i) + 1. A plain worm in this format (all ω_i = 0) costs "one
// additional header flit for each destination node" (Sec. 6.5).
#pragma once

#include <vector>

namespace wormcast::algo {

using NodeId = int;

struct CompoundBlock {
  NodeId dest = -1;                // u_i, a destination of this worm
  std::vector<NodeId> later;       // Φ̃^{u_i}: what u_i sends in later phases (without u_i)
  bool operator==(const CompoundBlock& o) const { return dest == o.dest && later == o.later; }
};

// Header flits, in order. Throws std::invalid_argument on no blocks, a
// negative node id or two blocks for the same destination.
std::vector<NodeId> encode_compound_header(const std::vector<CompoundBlock>& blocks);
int compound_header_flits(const std::vector<CompoundBlock>& blocks);

// Inverse of encode_compound_header (the whole header, terminator included).
// Throws std::invalid_argument naming the flit position on a malformed header
// (count past the end, missing terminator, flits after it).
std::vector<CompoundBlock> decode_compound_header(const std::vector<NodeId>& flits);

// Flits of the first block (2 + ω_1): what a destination strips and
// delivers to its processor. Throws on a header too short for its count.
int compound_first_block_flits(const std::vector<NodeId>& flits);

// What a destination's processor received: the block (u, ω, Φ̃^u...), with
// or without the terminator after it (the last destination gets the worm
// whole). Returns the block; throws on a malformed one.
CompoundBlock received_compound_block(const std::vector<NodeId>& flits);

}  // namespace wormcast::algo
