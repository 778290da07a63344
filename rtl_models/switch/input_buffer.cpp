#include "rtl_models/switch/input_buffer.h"

#include <algorithm>
#include <stdexcept>
#include <utility>

namespace wormcast::rtl {

InputBuffer::InputBuffer(sc_core::sc_module_name name, int capacity_flits, int chunk_flits,
                         NextHeader rule)
    : sc_core::sc_module(name), capacity_(capacity_flits), chunk_(chunk_flits), rule_(rule) {
  if (capacity_ < 1 || chunk_ < 1)
    throw std::invalid_argument(std::string(this->name()) + ": capacity and chunk size must be >= 1 flit");
}

InputBuffer::~InputBuffer() {
  while (spare_) delete std::exchange(spare_, spare_->next_spare);
}

BufferEntry& InputBuffer::write_other(Flit f, Cycle now) {
  if (occupancy_ >= capacity_)
    throw std::logic_error(std::string(name()) + ": overflow (flit arrived without a free slot)");
  if (f.head()) {
    if (!entries_.empty() && entries_.back()->arrived < entries_.back()->length)
      throw std::logic_error(std::string(name()) + ": head flit interleaved into an unfinished packet");
    std::unique_ptr<BufferEntry> e = take_entry();
    if (last_) {   // the prefetch hint of the entry ahead (prefetch_behind)
      last_->next_spare = e.get();
      last_->behind_pkt = f.pkt.get();
    }
    e->pkt = f.pkt;
    e->length = f.pkt->length;
    e->header_flits = f.pkt->header_flits;
    size_chunks(*e);
    last_ = e.get();
    entries_.push_back(std::move(e));
  } else if (entries_.empty() || entries_.back()->pkt != f.pkt ||
             entries_.back()->arrived != f.index) {
    throw std::logic_error(std::string(name()) + ": body flit out of order");
  }
  return add_flit(*entries_.back(), now);
}

BufferEntry* InputBuffer::decode_candidate(Cycle route_delay) {
  if (holding_) return nullptr;
  for (std::size_t i = 0; i < entries_.size(); ++i) {
    BufferEntry& e = *entries_.at(i);
    if (!e.decoded) {
      // A decoder sees its whole header: decoding starts when the last
      // header flit is in (the head flit for a one-flit header).
      // Store-and-forward waits for the tail (its write settled by the
      // switch before this is asked: Switch::accept_port).
      if (e.arrived < (whole_ ? e.length : e.header_flits)) return nullptr;
      if (e.ready == UINT64_MAX) e.ready = std::max(whole_ ? e.last_write : e.header_done, released_at_) + route_delay;
      return &e;
    }
    // A decoded packet still holds the decode position until released.
    if (rule_ == NextHeader::after_drain || e.ungranted > 0) return nullptr;
  }
  return nullptr;
}

std::int64_t InputBuffer::set_branches(BufferEntry& e, const std::vector<Branch>& branches) {
  if (branches.empty() || branches.size() > 0xffff)
    throw std::logic_error(std::string(name()) + ": decoder produced no output branch");
  const int payload = e.pkt->length - e.pkt->header_flits;
  for (const Branch& b : branches)
    if (b.pkt->length - b.pkt->header_flits != payload || b.pkt->header_flits < 1)
      throw std::logic_error(std::string(name()) + ": packet " + std::to_string(e.pkt->id) + ": branch to port " +
                             std::to_string(b.out_port) + " carries " +
                             std::to_string(b.pkt->length - b.pkt->header_flits) + " payload flits, received " +
                             std::to_string(payload) + " (a decoder may rewrite the header, never the payload)");
  if (&branches != &e.branches) e.branches.assign(branches.begin(), branches.end());   // keeps a recycled entry's capacity
  e.decoded = true;
  holding_ = rule_ == NextHeader::after_drain;
  e.ungranted = e.unfinished = static_cast<int>(e.branches.size());
  std::fill_n(e.chunk_count(), e.chunks, static_cast<std::uint16_t>(e.branches.size()));
  std::int64_t copies = -static_cast<std::int64_t>(e.arrived);
  for (const Branch& b : e.branches) copies += available(e, b, e.arrived);
  return copies;
}

bool InputBuffer::grant(BufferEntry& e, Branch& b, Cycle now) {
  b.granted = true;
  if (--e.ungranted > 0 || rule_ != NextHeader::after_grant) return false;
  released_at_ = now;
  prefetch_behind(e);
  return true;
}

// Received flits a branch with a rewritten header is done with after reading
// its flit j: up to the source of flit j, and past the whole received header
// once the branch's header is out; frees the chunks that completes.
void InputBuffer::consume_rewritten(BufferEntry& e, Branch& b, int j, Cycle now, int& freed) {
  const int len = e.length;
  int done = source_index(e, b, j) + 1;
  if (j == b.pkt->header_flits - 1) done = std::max(done, e.header_flits);
  if (b.next == b.pkt->length) done = len;
  if (done <= b.consumed) return;
  // Chunks newly completed: those ending in (consumed, done], from the
  // first one not yet completed (ends ascend, so stop at the first beyond).
  int c = b.consumed / chunk_;
  for (int end = std::min(len, (c + 1) * chunk_); end <= done; ++c, end = std::min(len, end + chunk_)) {
    if (--e.chunk_count()[c] == 0) freed += end - c * chunk_;
    if (end == len) break;
  }
  b.consumed = done;
  if (freed > 0) change_occupancy(-freed, now);
}

Flit InputBuffer::read(BufferEntry& e, Branch& b, Cycle now, int& freed) {
  freed = 0;
  const int len = e.length, blen = b.pkt->length;
  const int j = b.next++;
  const Flit f{b.pkt, j};
  if (b.pkt.get() == e.pkt.get()) {
    // Fast path: the branch emits the received packet (unicast, or a copy
    // with the same header), so flit j is received flit j and the branch
    // has consumed exactly j flits before it. Flit j completes its chunk
    // when it is the chunk's last (consume_rewritten's loop finds the same).
    const int c = j / chunk_;
    const int end = std::min(len, (c + 1) * chunk_);
    if (end == j + 1 && --e.chunk_count()[c] == 0) {
      freed = end - c * chunk_;
      change_occupancy(-freed, now);
    }
    b.consumed = j + 1;
  } else {
    consume_rewritten(e, b, j, now, freed);
  }
  if (b.next == blen && --e.unfinished == 0) retire(e, b, now);
  return f;
}

void InputBuffer::retire(BufferEntry& e, Branch& b, Cycle now) {
  if (rule_ == NextHeader::after_drain) {
    released_at_ = now;
    holding_ = false;
    prefetch_behind(e);
  }
  std::size_t i = 0;   // the front entry, but for a later packet that drained first (after_grant)
  while (entries_.at(i).get() != &e) ++i;
  // The flit returned may be its packet's last reference until the caller
  // puts it on a link (packet.h): keep the packet until the next retirement.
  last_read_owner_ = std::move(b.pkt);
  recycle(std::move(entries_.at(i)));
  entries_.erase(i);
  last_ = entries_.empty() ? nullptr : entries_.back().get();
}

void InputBuffer::settle(Cycle write_upto, Cycle free_upto) {
  while (lazy_at_ < write_upto || lazy_at_ < free_upto) {
    const Cycle w = rs_next_at_ < write_upto ? rs_next_at_ : UINT64_MAX;
    const Cycle f = stream_free_at_ < free_upto ? stream_free_at_ : UINT64_MAX;
    if (w == UINT64_MAX && f == UINT64_MAX) break;
    // Writes of a cycle come before its frees: write up to the next free's
    // cycle (inclusive), then free.
    if (w <= f) apply_writes(std::min({f, write_upto - 1, rs_tail_at_}));
    else apply_free();
    update_lazy();
  }
}

void InputBuffer::apply_free() {
  const int end = stream_end_flit_, c = (end - 1) / chunk_;
  change_occupancy(-(end - c * chunk_), stream_free_at_);
  stream_end_flit_ = std::min(stream_len_, end + chunk_);
  // The stream's last chunk freed (it ends at the tail or at the stream's stop)?
  stream_free_at_ = end == stream_len_ || stream_end_flit_ > stream_stop_ ? UINT64_MAX
                                                                           : stream_free_cycle(stream_end_flit_);
}

// The received stream's writes at cycles rs_next_at_ .. last, in closed
// form: the occupancy climbs by one a cycle, o+1 .. o+m, so the integral
// gains o * (a - since) up to the first write and then
// (o+1) + ... + (o+m-1) = (m-1) * o + m * (m-1) / 2 until the last one
// (exact integers); the peak is o + m.
void InputBuffer::apply_writes(Cycle last) {
  BufferEntry& e = *rs_entry_;
  const Cycle a = rs_next_at_;
  const std::uint64_t m = last - a + 1, o = static_cast<std::uint64_t>(occupancy_);
  if (occupancy_ + static_cast<int>(m) > capacity_)
    throw std::logic_error(std::string(name()) + ": overflow (stream flit arrived without a free slot)");
  occ_integral_ += o * (a - occ_since_) + (m - 1) * o + m * (m - 1) / 2;
  occ_since_ = last;
  occupancy_ += static_cast<int>(m);
  peak_ = std::max(peak_, occupancy_);
  traced_occupancy = occupancy_;
  e.arrived += static_cast<int>(m);
  e.last_write = last;
  if (e.decoded) copies_ += static_cast<std::int64_t>(m) * (static_cast<std::int64_t>(e.branches.size()) - 1);
  if (last == rs_tail_at_) {
    rs_entry_ = nullptr;
    rs_next_at_ = rs_tail_at_ = UINT64_MAX;
  } else {
    rs_next_at_ = last + 1;
  }
}

void InputBuffer::receive_stream(Cycle first_write) {
  BufferEntry& e = *entries_.back();
  if (rs_entry_ || e.arrived < e.header_flits || e.arrived >= e.length)
    throw std::logic_error(std::string(name()) + ": stream received where it cannot be");
  rs_entry_ = &e;
  rs_next_at_ = first_write;
  rs_tail_at_ = first_write + static_cast<Cycle>(e.length - e.arrived) - 1;
  update_lazy();
}

void InputBuffer::finish_stream(BufferEntry& e, Branch& b, Cycle now) {
  settle(now + 1, now + 1);
  if (--e.unfinished == 0) retire(e, b, now);
}

// Retired entries are kept (their vectors keep their capacity) and reused
// for later packets: a packet's visit to a buffer allocates nothing once the
// buffer has seen as many packets at once as it will hold.
std::unique_ptr<BufferEntry> InputBuffer::take_entry() {
  if (!spare_) return std::make_unique<BufferEntry>();
  std::unique_ptr<BufferEntry> e(spare_);
  spare_ = e->next_spare;
  e->next_spare = nullptr;
  e->behind_pkt = nullptr;
  return e;
}

// A packet's chunk counts are all set when it is decoded (set_branches),
// before any read; until then they are not read, so nothing is written here
// for a packet whose counts fit the entry's line.
void InputBuffer::size_chunks(BufferEntry& e) {
  const int chunks = (e.length + chunk_ - 1) / chunk_;
  if (chunks > 0xffff) throw std::logic_error(std::string(name()) + ": packet of more than 65535 chunks");
  e.chunks = static_cast<std::uint16_t>(chunks);
  if (chunks > BufferEntry::kInlineChunks && chunks > e.heap_chunks) {
    e.heap_count = std::make_unique<std::uint16_t[]>(static_cast<std::size_t>(chunks));
    e.heap_chunks = chunks;
  }
}

void InputBuffer::recycle(std::unique_ptr<BufferEntry> e) {
  e->pkt.reset();
  e->length = e->header_flits = 0;
  e->arrived = 0;
  e->header_done = e->last_write = 0;
  e->ready = UINT64_MAX;
  e->decoded = false;
  e->branches.clear();
  e->ungranted = e->unfinished = 0;
  e->chunks = 0;   // the heap counts (if any) are kept for a later long packet
  e->next_spare = spare_;
  spare_ = e.release();
}

std::uint64_t InputBuffer::pending_copies() const {
  std::uint64_t n = 0;
  for_each_entry([&](const BufferEntry& e) {
    if (!e.decoded) {
      n += static_cast<std::uint64_t>(e.arrived);
    } else {
      for (const auto& b : e.branches)
        n += static_cast<std::uint64_t>(std::max(0, available(e, b, e.arrived) - b.next));
    }
  });
  return n;
}

}  // namespace wormcast::rtl
