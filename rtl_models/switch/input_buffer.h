// Input buffer of a switch port (seed000 §2.2): a single FIFO of packets with
// chunk-count replication after [48]. A packet is divided into chunks of
// `chunk_flits`; when its header is decoded, every chunk gets a count equal to
// the number of output ports (branches) that must read it. Each branch reads
// at its own pace, so a blocked branch does not stall the others; a chunk's
// flits are freed (and credited upstream) when its count reaches zero.
// Unicast is the one-branch case. Cut-through admission: flits enter as
// credits allow, before the whole packet fits.
//
// Storage is one entry per packet (a packet reference plus counters), never
// one object per flit (docs/design.md principle 3).
#pragma once

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "rtl_models/core/packet.h"
#include "rtl_models/core/ring.h"

namespace wormcast::rtl {

// When the packet behind the FIFO head may have its header decoded.
enum class NextHeader : std::uint8_t {
  after_grant,   // once every branch of the packet ahead holds its output port
  after_drain,   // once the packet ahead has been read completely by all branches
};

// One output copy of a buffered packet. A branch may emit its own header
// (a multi-drop or tree worm rewrites it per branch), so its packet may have
// other header_flits and length than the one received; the payload is the
// same. Branch flit j comes from received flit source_index(j): header flits
// from the received header (which has fully arrived before decoding), payload
// flit H_b + i from received flit H + i.
struct Branch {
  int out_port = -1;
  PacketPtr pkt;          // what this branch emits (a copy when its header differs)
  int next = 0;           // next flit index to read (of pkt)
  int consumed = 0;       // received flits this branch is done with (a prefix)
  bool granted = false;
};

// One buffered packet. Its counters and the first chunk counts share one
// cache line (64-byte aligned): a saturated buffer holds tens of packets, so
// an entry is cold (out of every cache) when its packet reaches the decode
// position, and each line it spans is a miss at the decode, the grant and
// the reads. The chunk counts of a packet of up to
// kInlineChunks chunks live in that line; longer packets keep theirs in a
// heap block that the entry keeps when it is recycled.
struct alignas(64) BufferEntry {
  static constexpr int kInlineChunks = 4;
  // First line: what the write, the decode position, the decode, the grant
  // and the reads test.
  PacketPtr pkt;                      // as received
  int length = 0, header_flits = 0;   // pkt->length and pkt->header_flits, kept at hand
  int arrived = 0;                    // flits written so far
  int ungranted = 0;                  // branches still waiting for their output
  int unfinished = 0;                 // branches that have not read the tail
  bool decoded = false;
  std::uint16_t chunks = 0;           // chunk counts in use (the packet's chunks)
  Cycle ready = UINT64_MAX;           // cycle at which the decode result is usable
  Cycle last_write = 0;
  std::uint16_t inline_count[kInlineChunks] = {};
  // Second line.
  Cycle header_done = 0;              // cycle the last header flit was written
  std::vector<Branch> branches;
  std::unique_ptr<std::uint16_t[]> heap_count;   // chunks > kInlineChunks
  int heap_chunks = 0;                           // heap_count's size
  // Retired: the next retired entry (InputBuffer::spare_). Buffered: the
  // entry written behind this one and its packet, or null: a hint for
  // prefetching only (InputBuffer::prefetch_behind), never dereferenced, so
  // it may be stale (after_grant: a later packet can drain first).
  BufferEntry* next_spare = nullptr;
  const Packet* behind_pkt = nullptr;

  // Readers still owed per chunk (chunks of them).
  std::uint16_t* chunk_count() { return chunks <= kInlineChunks ? inline_count : heap_count.get(); }
};
static_assert(sizeof(BufferEntry) == 128, "BufferEntry: two cache lines");

class InputBuffer : public sc_core::sc_module {
 public:
  InputBuffer(sc_core::sc_module_name name, int capacity_flits, int chunk_flits, NextHeader rule);
  // Store-and-forward (switch.admission store_and_forward, seed003 §12): a
  // packet is decoded only once its tail has been written, `route_delay`
  // after that write; otherwise once its header is in.
  void set_store_and_forward(bool on) { whole_ = on; }
  bool store_and_forward() const { return whole_; }
  ~InputBuffer() override;

  int capacity() const { return capacity_; }
  int chunk_flits() const { return chunk_; }
  int occupancy() const { return occupancy_; }
  int peak_occupancy() const { return peak_; }
  bool empty() const { return entries_.empty(); }
  std::size_t packets() const { return entries_.size(); }

  // Store an arriving flit (flits of a packet arrive in order, packets whole).
  // Returns the entry it joined. A body flit in order with room for it takes
  // the inline path; heads and every error go through write_other().
  BufferEntry& write(Flit f, Cycle now) {
    if (lazy_at_ < now) settle(now, now);
    if (!f.head() && occupancy_ < capacity_ && last_) {
      BufferEntry& e = *last_;
      if (e.pkt.get() == f.pkt.get() && e.arrived == f.index) return add_flit(e, now);
    }
    return write_other(f, now);
  }

  // The packet at the decode position, or nullptr: the first undecoded entry,
  // provided the packet ahead of it has released the position (NextHeader).
  // Its `ready` is set to max(head arrival, release cycle) + route_delay
  // (store-and-forward: the tail's write instead of the head's arrival).
  BufferEntry* decode_candidate(Cycle route_delay);
  // Install the decoder's branches: every chunk's count becomes their number.
  // `branches` may be e.branches itself (filled in place by the decoder).
  // Returns the flit copies this makes of what has arrived: the branches'
  // available flits minus the received ones ((branches - 1) * arrived when
  // every branch emits the received packet). Throws std::logic_error for a
  // branch whose payload differs in length from the received packet's.
  std::int64_t set_branches(BufferEntry& e, const std::vector<Branch>& branches);
  // Flit copies made (positive) or dropped (negative, a branch whose header
  // shrank) by the write that brought e to e.arrived flits.
  std::int64_t copies_per_write(const BufferEntry& e) const {
    if (!e.decoded) return 0;
    // A payload flit (past every header) gives each branch one flit.
    if (e.arrived > e.header_flits) return static_cast<std::int64_t>(e.branches.size()) - 1;
    std::int64_t n = -1;
    for (const auto& b : e.branches) n += available(e, b, e.arrived) - available(e, b, e.arrived - 1);
    return n;
  }
  // Record that branch b of e won its output port at cycle now. Returns
  // true when the grant released the decode position (after_grant: e's last
  // branch granted), so the entry behind e may now be decoded.
  bool grant(BufferEntry& e, Branch& b, Cycle now);

  // Can branch b read its next flit at cycle now? (flits written this cycle
  // are readable from the next cycle on)
  bool readable(const BufferEntry& e, const Branch& b, Cycle now) const {
    const int avail = e.arrived - (e.last_write == now ? 1 : 0);
    return source_index(e, b, b.next) < avail;
  }
  // Received flit that branch flit j comes from.
  static int source_index(const BufferEntry& e, const Branch& b, int j) {
    const int h = e.header_flits, hb = b.pkt->header_flits;
    return j < hb ? std::min(j, h - 1) : h + (j - hb);
  }
  // Branch flits whose source flit is among the first `a` received.
  static int available(const BufferEntry& e, const Branch& b, int a) {
    const int h = e.header_flits, hb = b.pkt->header_flits;
    if (a >= h) return hb + (a - h);
    return std::min(hb, a);
  }
  // Read branch b's next flit. `freed` receives the number of flits whose
  // chunk count dropped to zero (to be credited upstream). When the last
  // branch reads the tail, the entry is removed and `e` becomes invalid.
  Flit read(BufferEntry& e, Branch& b, Cycle now, int& freed);

  // The stream step (docs/performance.md). Branch b, the only branch of e,
  // emits the received packet and will read its next `count` flits at
  // cycles now, now+1, ... (the switch has checked that nothing can stop
  // them): its read position moves past them at once; each chunk they
  // complete is freed at the cycle its last flit is read, applied to the
  // occupancy lazily (before any later write, and by settle), and
  // on_free(cycle, flits) is called for each such chunk now, in cycle order
  // (the credit returns). A chunk the stream leaves unfinished keeps its
  // count for the per-flit read of its last flit.
  // Requires NextHeader::after_drain (so no other entry is read meanwhile).
  template <class OnFree> void start_stream(BufferEntry& e, Branch& b, Cycle now, int count, OnFree&& on_free);
  // Apply the lazy events (docs/performance.md, the stream step): the
  // received stream's writes of cycles before `write_upto` and the read
  // stream's chunk frees of cycles before `free_upto`, in cycle order (in a
  // cycle, writes come before frees: a switch accepts before it reads), to
  // the entry's counters, the occupancy, its integral and its peak.
  void settle(Cycle write_upto, Cycle free_upto);
  // Is a lazy write or free of a cycle before `c` still to be applied?
  bool lazy_before(Cycle c) const { return lazy_at_ < c; }

  // The receiving side of the stream step: the last entry's remaining
  // received flits (e.arrived .. length-1, past its header) were taken off
  // the input link in one step and are written at cycles first_write,
  // first_write + 1, ... (one per cycle, as the link delivers them). Applied
  // by settle(); until then e.arrived and e.last_write are those of the last
  // settled cycle. Each write of a decoded entry adds its branches - 1 flit
  // copies, collected by take_copies().
  void receive_stream(Cycle first_write);
  bool receiving() const { return rs_entry_ != nullptr; }
  // Cycle the received stream writes its tail (UINT64_MAX: none pending).
  Cycle receive_tail() const { return rs_tail_at_; }
  // Cycle the tail of e is (or was) written, if known: 0 when it has
  // arrived, the stream's tail cycle when a received stream brings it,
  // else UINT64_MAX.
  Cycle tail_write(const BufferEntry& e) const {
    if (e.arrived == e.length) return 0;
    return &e == rs_entry_ ? rs_tail_at_ : UINT64_MAX;
  }
  // Earliest cycle branch b's next flit is readable if a received stream
  // brings it (UINT64_MAX otherwise; the link's arrivals wake the switch).
  // Call after settling the writes of cycle now.
  Cycle readable_at(const BufferEntry& e, const Branch& b, Cycle now) const {
    if (&e != rs_entry_) return UINT64_MAX;
    const int src = source_index(e, b, b.next);
    return src < e.arrived ? now + 1 : rs_next_at_ + static_cast<Cycle>(src - e.arrived) + 1;
  }
  // Flit copies made by settled stream writes since the last call.
  std::int64_t take_copies() {
    const std::int64_t n = copies_;
    copies_ = 0;
    return n;
  }
  // At the cycle of the stream's tail read: free its last chunks and
  // retire the entry as read() does (`e` becomes invalid).
  void finish_stream(BufferEntry& e, Branch& b, Cycle now);
  bool streams_allowed() const { return rule_ == NextHeader::after_drain; }

  // Flit copies waiting in this buffer (undecoded: arrived; decoded: unread
  // flits per branch), for the flit-conservation invariant.
  std::uint64_t pending_copies() const;
  const BufferEntry& last_entry() const { return *last_; }   // not empty()
  template <class F> void for_each_entry(F f) const {
    entries_.for_each([&](const std::unique_ptr<BufferEntry>& e) { f(*e); });
  }
  // Time-weighted occupancy integral (flit-cycles) up to `now`.
  double occupancy_integral(Cycle now) const {
    return static_cast<double>(occ_integral_ + static_cast<std::uint64_t>(occupancy_) * (now - occ_since_));
  }

 private:
  void change_occupancy(int delta, Cycle now) {
    occ_integral_ += static_cast<std::uint64_t>(occupancy_) * (now - occ_since_);
    occ_since_ = now;
    occupancy_ += delta;
    peak_ = std::max(peak_, occupancy_);
    traced_occupancy = occupancy_;
  }
  BufferEntry& write_other(Flit f, Cycle now);
  // The decode position has just moved past e: its successor is the next
  // decode candidate, decoded in the switch's next evaluated cycle. In a
  // saturated buffer that entry and its packet were written thousands of
  // cycles ago and are out of every cache; fetching them now overlaps the
  // misses with the rest of this cycle's simulation, and the
  // prefetched lines are still cached one cycle later, at the decode.
  static void prefetch_behind(const BufferEntry& e) {
    const char* next = reinterpret_cast<const char*>(e.next_spare);
    if (next == nullptr) return;
    __builtin_prefetch(next);
    __builtin_prefetch(next + 64);
    // The packet's control block and the fields a decode reads (packet.h).
    const char* pkt = reinterpret_cast<const char*>(e.behind_pkt);
    __builtin_prefetch(pkt - 16);
    __builtin_prefetch(pkt + 40);
  }
  void apply_free();
  void apply_writes(Cycle last);
  void update_lazy() { lazy_at_ = std::min(stream_free_at_, rs_next_at_); }
  void retire(BufferEntry& e, Branch& b, Cycle now);
  // Cycle the stream frees its chunk ending at received flit `end`.
  Cycle stream_free_cycle(int end) const { return stream_start_ + static_cast<Cycle>(end - 1 - stream_first_); }
  void consume_rewritten(BufferEntry& e, Branch& b, int j, Cycle now, int& freed);
  BufferEntry& add_flit(BufferEntry& e, Cycle now) {
    ++e.arrived;
    e.last_write = now;
    if (e.arrived == e.header_flits) e.header_done = now;
    change_occupancy(+1, now);
    return e;
  }
  std::unique_ptr<BufferEntry> take_entry();
  void recycle(std::unique_ptr<BufferEntry> e);
  // Chunk count storage for e's packet (e.chunks of them; values unset).
  void size_chunks(BufferEntry& e);

  // The members a written flit, an occupancy change and the decode position
  // read, in one cache line (in a saturated network each line they read
  // is a miss per arriving packet).
  alignas(64) Cycle lazy_at_ = UINT64_MAX;   // min(stream_free_at_, rs_next_at_)
  BufferEntry* last_ = nullptr;   // entries_.back() (nullptr: empty), read per written flit
  int occupancy_ = 0, capacity_;
  int peak_ = 0;

 public:
  int traced_occupancy = 0;   // mirrors occupancy_ for VCD

 private:
  std::uint64_t occ_integral_ = 0;   // flit-cycles (an integer: exact)
  Cycle occ_since_ = 0;
  int chunk_;
  NextHeader rule_;
  // after_drain: the front entry is decoded and holds the decode position
  // until it retires, so there is no candidate. decode_candidate answers
  // from this line without reading the entry, cold in a saturated buffer.
  bool holding_ = false;
  bool whole_ = false;        // store-and-forward: decode after the tail
  Cycle released_at_ = 0;     // when the decode position was last released

  // Packets in arrival order. A Ring, not a vector: a saturated buffer
  // holds tens of packets, and retiring the front one would shift all their
  // pointers; not a deque: an empty Ring costs no allocation at
  // construction (a deque allocates a block per buffer, a visible cost when
  // a network sets up thousands of buffers).
  Ring<std::unique_ptr<BufferEntry>> entries_;
  // Retired entries for reuse, last retired first, linked through their
  // next_spare: a head entry reads only this pointer (beside entries_, which
  // it writes too) and the entry it takes, not a vector's members and heap
  // block (two more cache misses per packet in a saturated buffer). The
  // list owns them (raw pointers: a push or pop is two moves of a pointer,
  // without unique_ptr's tests for an object to delete); the destructor
  // deletes them.
  BufferEntry* spare_ = nullptr;
  // The received stream, if any: flit rs_entry_->arrived is written at
  // rs_next_at_, the tail at rs_tail_at_ (UINT64_MAX: none pending).
  BufferEntry* rs_entry_ = nullptr;
  Cycle rs_next_at_ = UINT64_MAX, rs_tail_at_ = UINT64_MAX;
  std::int64_t copies_ = 0;
  // The stream being read, if any: flit stream_first_ + i read at cycle
  // stream_start_ + i; the next chunk to free ends at stream_end_flit_ and
  // is freed at stream_free_at_ (UINT64_MAX: no stream frees pending).
  Cycle stream_start_ = 0, stream_free_at_ = UINT64_MAX;
  int stream_first_ = 0, stream_end_flit_ = 0, stream_len_ = 0, stream_stop_ = 0;   // stop: past its last flit
  PacketPtr last_read_owner_;   // packet of the last flit read from a retired entry
};

template <class OnFree>
void InputBuffer::start_stream(BufferEntry& e, Branch& b, Cycle now, int count, OnFree&& on_free) {
  settle(now + 1, now + 1);   // a stream before this one has freed everything by now
  const int len = e.length, j = b.next;
  stream_start_ = now;
  stream_first_ = j;
  stream_len_ = len;
  stream_stop_ = j + count;
  stream_end_flit_ = std::min(len, (j / chunk_ + 1) * chunk_);
  stream_free_at_ = stream_end_flit_ <= stream_stop_ ? stream_free_cycle(stream_end_flit_) : UINT64_MAX;
  for (int end = stream_end_flit_; end <= stream_stop_; end = std::min(len, end + chunk_)) {
    const int c = (end - 1) / chunk_;
    e.chunk_count()[c] = 0;
    on_free(stream_free_cycle(end), end - c * chunk_);
    if (end == len) break;
  }
  b.next = b.consumed = stream_stop_;
  update_lazy();
}

}  // namespace wormcast::rtl
