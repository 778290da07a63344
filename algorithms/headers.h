// Bit-level headers of the switch-based multicast worms, seed000 §5.3
// (Fig. 12) and §5.9. Bits are kept most-significant-first per field, fields
// in the order listed; a header is sent in whole flits of its own (the last
// flit zero-padded), so its flit count is header_flits(bits).
//
//  SSR:        [tag 1][ID w_id][port string p]                 = 1 + w_id + p
//  multi-drop: [tag 1][pair count w_cnt][(ID w_id, port string p) x pairs]
//              = 1 + w_cnt + pairs * (w_id + p)
//  tree:       [up-down 1][destination string N]                = 1 + N
//
//  tag: 1 = multidestination (0 would be a unicast; not encoded here).
//  w_id = id_field_bits(S) for switch IDs (default) or id_field_bits(N) for
//  node IDs, where id_field_bits(c) = max(1, ceil(log2 c)).
//  w_cnt = id_field_bits(S + 1): the paper leaves the end of the pair
//  sequence implicit; an explicit count (0..S) lets a switch find it, and a
//  switch consuming the first pair writes count - 1 (consume_pair).
//  The tree header has no tag: a tree-scheme network carries only bit-string
//  worms (a unicast is a one-bit string). For N = 256 it is 257 bits, 33 flits.
#pragma once

#include <cstdint>
#include <vector>

#include "algorithms/node_bits.h"
#include "algorithms/ssr.h"
#include "topologies/topology.h"

namespace wormcast::algo {

using Bits = std::vector<bool>;

struct HeaderGeometry {
  int num_switches = 0;
  int num_nodes = 0;
  int ports_per_switch = 0;
  static HeaderGeometry of(const topo::Topology& t) {
    return {t.num_switches(), t.num_nodes(), t.ports_per_switch};
  }
};

// max(1, ceil(log2 count)): bits to name one of `count` things (count >= 1).
int id_field_bits(int count);
// ceil(bits / flit_bits); throws std::invalid_argument for bits < 0 or flit_bits < 1.
int header_flits(int bits, int flit_bits = 8);
// Flits of 8 bits, first bit in the most significant position, zero-padded.
std::vector<std::uint8_t> pack_bytes(const Bits& bits);

struct DropPair {
  int id = -1;              // switch ID or node ID (SsrId)
  Bits port_bits;           // p bits: port i of that switch leads to a destination
  bool operator==(const DropPair& o) const { return id == o.id && port_bits == o.port_bits; }
};

// ---- SSR --------------------------------------------------------------------
int ssr_header_bits(const HeaderGeometry& g, SsrId kind = SsrId::switch_id);
Bits encode_ssr(const HeaderGeometry& g, const DropPair& h, SsrId kind = SsrId::switch_id);
DropPair decode_ssr(const HeaderGeometry& g, const Bits& bits, SsrId kind = SsrId::switch_id);
DropPair ssr_pair(const SsrWorm& w, SsrId kind = SsrId::switch_id);

// ---- multi-drop (path-based) ------------------------------------------------
int multidrop_header_bits(const HeaderGeometry& g, int pairs, SsrId kind = SsrId::switch_id);
Bits encode_multidrop(const HeaderGeometry& g, const std::vector<DropPair>& pairs,
                      SsrId kind = SsrId::switch_id);
std::vector<DropPair> decode_multidrop(const HeaderGeometry& g, const Bits& bits,
                                       SsrId kind = SsrId::switch_id);
// One pair per switch with destinations, in visiting order (consecutive
// destinations on one switch share a pair). With node IDs the pair names the
// first destination on that switch.
std::vector<DropPair> multidrop_pairs(const topo::Topology& t, const std::vector<topo::NodeId>& destinations,
                                      SsrId kind = SsrId::switch_id);
// What the switch matching the first pair does: read it and forward the rest
// (count - 1 pairs; an empty header when it was the last).
struct ConsumedPair {
  DropPair pair;
  Bits rest;
  bool last = false;
};
ConsumedPair consume_pair(const HeaderGeometry& g, const Bits& bits, SsrId kind = SsrId::switch_id);

// ---- tree (bit string) ------------------------------------------------------
int tree_header_bits(const HeaderGeometry& g);
Bits encode_tree(const HeaderGeometry& g, bool up_down, const NodeBits& dests);
struct TreeHeader {
  bool up_down = true;
  NodeBits dests;
};
TreeHeader decode_tree(const HeaderGeometry& g, const Bits& bits);

}  // namespace wormcast::algo
