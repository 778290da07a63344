// Packets and flits (seed000 §2.2, §5.3). A packet is one object shared by
// reference; a flit is (packet reference, index), so buffers and links hold
// packet references and counters rather than per-flit objects (docs/design.md
// principle 3). A flit's reference is a plain pointer (PacketRef), not an
// owning one: see "Who owns a packet" below. The first `header_flits` flits carry the routing header; how
// many there are depends on the header encoding (1 for unicast; the multicast
// encodings — SSR port strings, multi-drop (ID, port-string) lists, N-bit
// destination strings — set their own count). A replicating switch gives each
// branch its own Packet copy when the branch's header differs (tree worms
// rewrite the destination string per branch), sharing `origin` ids.
#pragma once

#include <cstdint>
#include <cstddef>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "algorithms/worm_encoding.h"
#include "rtl_models/core/params.h"

namespace wormcast::algo {
struct RelayWorm;   // algorithms/multiphase.h
}

namespace wormcast::rtl {

using NodeId = int;
using PacketId = std::uint64_t;

enum class HeaderKind : std::uint8_t {
  unicast,      // one destination node
  multicast,    // destination set carried explicitly (encodings added by multicast issues)
};

// The part of a multicast header a smart NI reads to relay a k-binomial
// multicast (seed000 §4.7, seed002 §6): the relay's block [first, last] of
// the chain ordering (it is position `first`), its step budget, the
// message-wide k and tree construction, and the node ids of the chain
// positions it may address (first..last; at() refuses any other). From it
// the relay computes its children with algo::relay_children, locally
// (docs/design.md principle 1).
//
// Size: a compact encoding is 1 byte k, 1 byte steps + construction bit,
// 2 bytes block size and 2 bytes per node id of positions first+1..last:
// encoded_bytes() = 4 + 2·(last - first). Like the papers (t_ns/t_nr
// abstract the NI's work on it), the model carries it out of band: it adds
// no flits on the wire beyond ni.header_flits. The chain vector is shared
// between copies only to save memory; a relay reads its own block only.
struct MulticastRelay {
  std::shared_ptr<const std::vector<NodeId>> chain;   // positions 0..n-1 (0 = source)
  std::size_t first = 0, last = 0;
  unsigned steps = 0;
  unsigned k = 1;
  std::uint8_t construction = 0;                      // algo::TreeConstruction
  Cycle step_origin = 0;   // step-timing mode (ni.step_cycles): cycle step 1 begins (set by the source NI)
  // Node id at chain position `pos` of this block. Throws std::out_of_range
  // outside [first, last].
  NodeId at(std::size_t pos) const {
    if (pos < first || pos > last || !chain || last >= chain->size())
      throw std::out_of_range("multicast header: chain position " + std::to_string(pos) + " outside the block [" +
                              std::to_string(first) + ", " + std::to_string(last) + "]");
    return (*chain)[pos];
  }
  std::size_t size() const { return last - first + 1; }
  std::size_t encoded_bytes() const { return 4 + 2 * (last - first); }
};

// Switch-based multicast worms (seed000 §5.3): the encoding of the header
// bits a multicast decoder reads (algorithms/worm_encoding.h). A worm has
// kind multicast, `dests` = every node it must reach, and header_flits =
// algo::header_flits(worm_bits->size()) (1-byte flits).
using WormEncoding = algo::WormEncoding;

struct PacketHeader {
  NodeId dest = -1;                 // unicast destination (first: beside the packet's length, see Packet)
  HeaderKind kind = HeaderKind::unicast;
  WormEncoding worm = WormEncoding::none;
  // Direct networks, message replication (seed001 §1.6, a tree-shaped worm):
  // kind multicast, `dests` the nodes still to reach; each router splits the
  // worm into one copy per output its destinations route to. One header
  // flit (the destination set is carried out of band, like a bit-string
  // header). Only routers with router.replication on accept it. Here, with
  // kind and worm: a VC router's test for a plain unicast header reads the
  // three at every hop, in one line (at the end of the header this flag
  // would be in the make_shared block's third line, a D1 miss per
  // worm-level hop on large meshes).
  bool direct_tree = false;
  // InfiniBand (seed003, switch.decoder ib): the 16-bit DLID of the local
  // route header, a unicast LID or an MLID (>= 0xC000); 0 = none.
  std::uint16_t lid = 0;
  std::shared_ptr<const std::vector<bool>> worm_bits;   // the encoded header, MSB-first per field
  // Multi-phase schemes (path-based, SSR): what the receivers that relay
  // must send next (algo::relay_sends reads it); carried out of band like
  // MulticastRelay, its size is algo::payload_node_ids.
  std::shared_ptr<const algo::RelayWorm> relay_worm;
  std::vector<NodeId> dests;        // multicast destination set (sorted)
  // Smart-NI multicast: set on packets of a k-binomial multicast (at the
  // source NI and on every relayed copy, which travels as a unicast worm to
  // `dest`); the switches ignore it.
  std::shared_ptr<const MulticastRelay> relay;
  // Direct networks, IR worms with the compound header of seed001 Fig. 6.2
  // (algorithms/compound_header.h): the header flits in order (addresses,
  // counts, later-phase lists, terminator); `dests` still lists the worm's
  // destinations. header_flits == compound->size(). Null for plain IR worms.
  std::shared_ptr<const std::vector<NodeId>> compound;
};

struct Packet : std::enable_shared_from_this<Packet> {
  // What every hop reads (a flit's tail test, a buffer's write, a unicast
  // decode) first, so that with the control block and the weak reference
  // shared_from_this reads they span 48 bytes of the make_shared block, not
  // three lines of it (docs/performance.md).
  int length = 1;               // total flits, header flits included
  int header_flits = 1;
  PacketHeader header;
  PacketId id = 0;              // unique per physical copy in the run
  PacketId origin = 0;          // id of the packet as injected (copies share it)
  std::uint64_t message = 0;    // message this packet belongs to (0 = none)
  NodeId src = -1;
  Cycle created = 0;            // cycle the packet was generated at its source
  Cycle injected = 0;           // cycle its head flit left the source
  bool measured = false;        // created inside the measurement window
  // Background traffic (testbenches/app/workloads/background_workload.h):
  // a unicast another device at the source node sends beside the node's
  // own work; the node's sink hands it to the background's receiver, never
  // to the node's software or NI firmware.
  bool background = false;
  // Node model: position in its message and sender-side timestamps.
  int msg_index = 0, msg_packets = 1;
  int payload_bytes = 0;        // message bytes carried (1 flit = 1 byte)
  int msg_bytes = 0;            // length of the whole message
  Cycle dma_in_done = 0, ns_done = 0;   // at the sending NI
  Cycle arrived = 0, nr_done = 0;       // at the receiving NI
};

using PacketPtr = std::shared_ptr<Packet>;

// What a source decides for a plain unicast packet (traffic.h); its other
// fields are filled in by the endpoint or left as constructed.
struct UnicastShape {
  NodeId dest = -1;
  int length = 1;
  int header_flits = 1;
};

// A plain unicast packet waiting in its source's queue, before its Packet
// exists (docs/performance.md): a saturated source queues hundreds
// of packets that wait thousands of cycles, and a Packet for each (256 bytes
// with its control block) costs fresh pages and cold cache lines that this
// record (32 bytes) does not. The Packet is built when the packet starts to
// leave, with the fields the endpoint would have given it at creation.
struct QueuedUnicast {
  PacketId id = 0;
  Cycle created = 0;
  UnicastShape shape;
  bool measured = false;
  PacketPtr build(NodeId src) const {
    auto p = std::make_shared<Packet>();
    p->length = shape.length;
    p->header_flits = shape.header_flits;
    p->header.dest = shape.dest;
    p->id = p->origin = id;
    p->src = src;
    p->created = created;
    p->measured = measured;
    return p;
  }
};

// Who owns a packet. Packets are created with std::make_shared and owned by
// the holders that keep them across cycles: a source's queue and the packet
// it is injecting, a switch's input-buffer entry and its branches, a VC
// router's buffered segments, a receiver's packet being assembled, NI
// queues, and a link for every packet whose tail flit is on it (a link
// takes an owning reference when it accepts a tail flit and keeps it until
// the next tail flit is popped, so the receiver has taken its own reference
// by then). A flit holds a plain pointer: every flit of a packet on a link
// or in a buffer is covered by one of those holders (the sender holds the
// packet until its tail has been sent; the link from then on), so moving a
// flit costs no reference-count change (two atomic operations per flit and
// hop with a shared_ptr). A packet is freed when its last holder lets go:
// after it was delivered and its last flit left every buffer and link.
//
// PacketRef converts from a PacketPtr (taking its pointer) and to one
// (shared_from_this: a new owning reference, for a holder), and compares
// with either, so code written for `flit.pkt` as a shared_ptr compiles
// unchanged.
class PacketRef {
 public:
  PacketRef() = default;
  PacketRef(std::nullptr_t) {}                        // NOLINT: implicit like a pointer
  PacketRef(const PacketPtr& p) : p_(p.get()) {}     // NOLINT: implicit on purpose
  explicit PacketRef(Packet* p) : p_(p) {}
  Packet* operator->() const { return p_; }
  Packet& operator*() const { return *p_; }
  Packet* get() const { return p_; }
  explicit operator bool() const { return p_ != nullptr; }
  // A new owning reference (the packet must be owned by a PacketPtr).
  operator PacketPtr() const { return p_ ? p_->shared_from_this() : PacketPtr(); }   // NOLINT
  friend bool operator==(PacketRef a, PacketRef b) { return a.p_ == b.p_; }
  friend bool operator!=(PacketRef a, PacketRef b) { return a.p_ != b.p_; }

 private:
  Packet* p_ = nullptr;
};

struct Flit {
  PacketRef pkt;
  int index = 0;                // 0 .. pkt->length-1
  bool head() const { return index == 0; }
  bool tail() const { return index == pkt->length - 1; }
  bool header() const { return index < pkt->header_flits; }
};

}  // namespace wormcast::rtl
