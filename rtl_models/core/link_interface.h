// The packet side of a link attachment, shared by every module that puts
// whole packets on a link and takes whole packets off one (traffic endpoints,
// NI coprocessors). Not modules: the owner calls step() from its clocked
// process.
//   PacketInjector: a queue of packets sent one flit per cycle under credit
//     flow control (cut-through, or virtual cut-through for the head).
//   PacketAssembler: takes every arrived flit, checks packets arrive whole
//     and in order, and hands each complete packet to the owner; credits are
//     returned at once (a sink) or later by the owner (a buffer that frees
//     space when the packet leaves it).
#pragma once

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "rtl_models/core/link.h"
#include "rtl_models/core/ring.h"
#include "rtl_models/core/sim_context.h"

namespace wormcast::rtl {

class PacketInjector {
 public:
  // `node`: the src of the packets built from queued records.
  PacketInjector(SimContext& ctx, bool vct, NodeId node = -1) : ctx_(ctx), vct_(vct), node_(node) {}
  void push(PacketPtr p) {
    queue_.push_back(QueuedUnicast{});   // id 0: the next of whole_
    whole_.push_back(std::move(p));
  }
  // Queue a packet as a record; its Packet is built when it comes to the
  // front (QueuedUnicast). Packets leave in the order pushed, either kind.
  void push(const QueuedUnicast& q) {
    if (q.id == 0) throw std::logic_error("PacketInjector: a queued record needs a packet id");
    queue_.push_back(q);
  }
  // Send at most one flit at cycle now. Returns true if a flit left; when
  // blocked on credits, lowers `next` to the next credit arrival. `tx` is a
  // LinkTxIf or, called directly, a Link.
  template <class Tx> bool step(Tx& tx, Cycle now, Cycle& next);
  std::size_t queued() const { return queue_.size() + (current_ ? 1 : 0); }
  // Not busy: step() would send nothing and leave `next` alone (a streamed
  // packet stays current_ until its stream has ended).
  bool busy() const { return current_ != nullptr || !queue_.empty(); }
  std::string describe() const;
  // Called when a packet's tail flit has left.
  std::function<void(const PacketPtr&, Cycle)> on_sent;
  // A traced owner mirrors every flit sent: it keeps streams off.
  void disable_streams() { stream_ok_ = false; }
  // Blocked only when the link has no credit (cut-through; a virtual
  // cut-through head also waits with some): step() then lowers `next` to
  // next_credit_arrival(), so its link need not wake it on other returns
  // (Link::wake_blocked_sender_only).
  bool blocks_only_without_credit() const { return !vct_; }
  // For an owner whose evaluations in cycles it is not woken for do nothing
  // (Endpoint): step() then returns false when a stream starts (it asks for
  // the stream's last cycle instead of the next one), and true at a
  // stream's end only if there is more to send (busy()): the cycles in
  // between, and the one after an idle injector's last stream, have nothing
  // for it to do.
  void quiet_streams() { quiet_ = true; }
  // With quiet_streams: whether the hand-over of a packet is watched
  // (on_sent does something). Unwatched, and with nothing queued behind it,
  // a stream ends without an evaluation at its last cycle: the packet is
  // handed over, as of that cycle, by the next step() or settle().
  void set_watched(bool watched) { watched_ = watched; }
  // At the start of the owner's evaluation in cycle now: a stream that ended
  // before now without one is handed over (queued() is then as the per-flit
  // steps would have left it).
  void settle(Cycle now) {
    if (stream_tail_ != 0 && now > stream_tail_ && lazy_end()) finish_stream(stream_tail_);
  }

 private:
  bool try_stream(Link& tx, int credits, Cycle now);
  bool finish_stream(Cycle now);
  // May the current stream end without an evaluation at its last cycle?
  // Not if its hand-over is watched, or the cycle after it has work (the
  // rest of the packet, or a queued one, to send).
  bool lazy_end() const {
    return quiet_ && !watched_ && queue_.empty() && current_ && next_flit_ == current_->length;
  }
  [[noreturn]] void missed_end(Cycle now) const;
  // current_'s tail has left: release it and tell on_sent.
  void hand_over(Cycle now) {
    PacketPtr done = std::move(current_);
    current_.reset();
    if (on_sent) on_sent(done, now);
  }
  // The front of the queue as a Packet (built from its record, or the next
  // whole packet).
  PacketPtr pop_front();
  SimContext& ctx_;
  bool vct_;
  bool quiet_ = false;   // quiet_streams()
  bool watched_ = true;  // set_watched()
  NodeId node_;
  // The queue in order: records, and for each packet pushed whole an entry
  // with id 0 (ids start at 1: SimContext::next_packet_id) standing for the
  // front of whole_. Rings, not deques (24 bytes each, not 80): the fields
  // an endpoint's evaluation reads stay in few lines (a deque would push
  // them into more, each a D1 miss in Endpoint::evaluate_cycle).
  Ring<QueuedUnicast> queue_;
  Ring<PacketPtr> whole_;
  PacketPtr current_;
  int next_flit_ = 0;
  // The stream step (docs/performance.md): flits of current_ up to
  // next_flit_ - 1 are on the link as one record; the last leaves at
  // stream_tail_ (0: no stream).
  bool stream_ok_ = true;
  Cycle stream_tail_ = 0;
  int stream_flits_ = 0;
};

class PacketAssembler {
 public:
  PacketAssembler(SimContext& ctx, std::string owner, bool return_credits_at_once)
      : ctx_(ctx), owner_(std::move(owner)), credit_at_once_(return_credits_at_once) {}
  // Take every flit that has arrived by cycle now; on_packet(pkt, now) for
  // each completed packet. Returns true if any flit was taken one by one
  // (not the tail of a stream taken in one step); lowers `next` to the next
  // flit arrival.
  // `rx` is a LinkRxIf or, called directly, a Link.
  template <class Rx, class OnPacket> bool step(Rx& rx, Cycle now, Cycle& next, OnPacket&& on_packet);
  // Deferred receiving (Link::allow_deferred_receive; the owner returned
  // each flit's credit when it was sent): take every flit that has arrived
  // by cycle now, each counted at its own arrival, and lower `next` to the
  // link's deferred_due(settle). Returns true if any flit was taken.
  // Flits taken after their arrival count as received_stream_flits.
  template <class OnPacket> bool step_deferred(Link& rx, Cycle now, Cycle settle, Cycle& next, OnPacket&& on_packet);
  bool receiving() const { return pkt_ != nullptr; }
  std::string describe() const;
  // A traced owner mirrors every flit received: it keeps streams off.
  void disable_streams() { stream_ok_ = false; }

 private:
  [[noreturn]] void out_of_order(const Flit& f, bool head_inside) const;   // throws InvariantViolation
  bool try_stream(Link& rx);
  // One flit taken off the link, arrived at cycle `at`: counts and checks.
  template <class OnPacket> void take(const Flit& f, Cycle at, OnPacket&& on_packet);
  template <class OnPacket> void finish_stream(Cycle now, OnPacket&& on_packet);
  SimContext& ctx_;
  std::string owner_;
  bool credit_at_once_;
  PacketPtr pkt_;
  int next_ = 0;
  // The stream step, receiving side (docs/performance.md): the rest of pkt_
  // was taken off the link in one step; its tail arrives at stream_tail_
  // (0: no stream), where the packet is handed over as the per-flit steps
  // would.
  bool stream_ok_ = true;
  Cycle stream_tail_ = 0;
};

template <class Tx>
bool PacketInjector::step(Tx& tx, Cycle now, Cycle& next) {
  if (stream_tail_ != 0) {
    if (now < stream_tail_) {
      if (!lazy_end()) next = std::min(next, stream_tail_);
      return false;
    }
    if (now == stream_tail_ || !quiet_) return finish_stream(now);
    if (!lazy_end()) missed_end(now);
    finish_stream(stream_tail_);   // ended unwatched: go on from this cycle
  }
  if (!current_ && !queue_.empty()) {
    current_ = pop_front();
    next_flit_ = 0;
  }
  if (!current_) return false;
  const int credits = tx.credits(now);
  if (credits <= 0 || (vct_ && next_flit_ == 0 && credits < current_->length)) {
    next = std::min(next, tx.next_credit_arrival());
    return false;
  }
  if constexpr (std::is_same_v<Tx, Link>) {
    if (ctx_.streams && stream_ok_ && try_stream(tx, credits, now)) {
      if (!quiet_) return true;
      if (!lazy_end()) next = std::min(next, stream_tail_);
      return false;
    }
  }
  if (next_flit_ == 0) current_->injected = now;
  const bool tail = next_flit_ == current_->length - 1;
  tx.send(Flit{current_, next_flit_++}, now, 0);
  ++ctx_.flits.injected;
  ++ctx_.flits.moves;
  ctx_.stats.window_flits_injected.add(ctx_.window, now);
  if (tail) hand_over(now);
  return true;
}

template <class Rx, class OnPacket>
bool PacketAssembler::step(Rx& rx, Cycle now, Cycle& next, OnPacket&& on_packet) {
  bool any = false;
  if (stream_tail_ != 0) {
    if (now < stream_tail_) {
      next = std::min(next, stream_tail_);
      return false;
    }
    // Not counted as an arrival for the owner: the cycle after a stream's
    // tail has nothing the owner must do (its next flit's arrival wakes it),
    // and only untraced owners stream (rx_valid-style mirrors stay exact).
    finish_stream(now, on_packet);
  }
  while (rx.has_flit(now)) {
    const Flit f = rx.pop();
    if (credit_at_once_) rx.return_credits(1, now);
    take(f, now, on_packet);
    any = true;
  }
  if constexpr (std::is_same_v<Rx, Link>) {
    if (pkt_ && try_stream(rx)) {
      next = std::min(next, stream_tail_);
      return any;
    }
  }
  next = std::min(next, rx.next_flit_arrival());
  return any;
}

template <class OnPacket>
void PacketAssembler::take(const Flit& f, Cycle at, OnPacket&& on_packet) {
  ++ctx_.flits.ejected;
  ctx_.stats.window_flits_ejected.add(ctx_.window, at);
  if (f.head()) {
    if (pkt_) out_of_order(f, true);
    pkt_ = f.pkt;   // an owning reference (packet.h)
    next_ = 0;
  }
  if (!pkt_ || f.pkt != pkt_ || f.index != next_) out_of_order(f, false);
  ++next_;
  if (f.tail()) {
    PacketPtr done = std::move(pkt_);
    pkt_.reset();
    on_packet(done, at);
  }
}

template <class OnPacket>
bool PacketAssembler::step_deferred(Link& rx, Cycle now, Cycle settle, Cycle& next, OnPacket&& on_packet) {
  bool any = false;
  while (rx.has_flit(now)) {
    // A whole packet that has arrived and is alone on the link (a VC
    // router's ejection run): taken in one step, each flit counted as at
    // its arrival.
    if (!pkt_ && rx.front().index == 0 && rx.tail_arrival(rx.front().pkt.get()) <= now) {
      PacketPtr whole = rx.front().pkt;
      const Cycle first = rx.take_rest(whole.get(), 0);
      if (first != UINT64_MAX) {
        const auto n = static_cast<std::uint64_t>(whole->length);
        const Cycle tail = first + n - 1;
        ctx_.flits.ejected += n;
        ctx_.stats.window_flits_ejected.add_span(ctx_.window, first, n);
        ctx_.received_stream_flits += now > tail ? n : n - 1;   // taken after their arrival
        on_packet(whole, tail);
        any = true;
        continue;
      }
    }
    const Cycle at = rx.next_flit_arrival();
    if (at < now) ++ctx_.received_stream_flits;   // taken after its arrival (a speed figure)
    take(rx.pop(), at, on_packet);
    any = true;
  }
  next = std::min(next, rx.deferred_due(settle));
  return any;
}

template <class OnPacket>
void PacketAssembler::finish_stream(Cycle now, OnPacket&& on_packet) {
  if (now != stream_tail_) throw std::logic_error(owner_ + ": a received stream's tail was missed");
  stream_tail_ = 0;
  PacketPtr done = std::move(pkt_);
  pkt_.reset();
  on_packet(done, now);
}

}  // namespace wormcast::rtl
