#include "rtl_models/core/link_interface.h"

namespace wormcast::rtl {

// The next m flits of the packet leave one flit per cycle from now on when
// the link holds a credit for each by its cycle (Link::stream_credits: held
// now or already returned in time; a sender's credits only grow while it
// waits): put them on the link as one record, count what the per-flit steps
// would count (the totals are read after the stream has ended, and the
// watchdog sees a move when it starts and when it ends: sim_context.h), and
// at the stream's last cycle hand the packet over if its tail went, else go
// on per flit (or with the next stream) from the next cycle (finish_stream).
bool PacketInjector::try_stream(Link& tx, int credits, Cycle now) {
  const int rest = current_->length - next_flit_;
  int m = std::min(rest, ctx_.stream_room(now));
  if (credits < m) m = tx.stream_credits(now, m);
  if (m < 2) return false;
  if (next_flit_ == 0) current_->injected = now;
  tx.send_stream(Flit{current_, next_flit_}, m, now, 0);
  ctx_.flits.injected += static_cast<std::uint64_t>(m);
  // A quiet injector may hand the packet over after the run loop's last
  // stop (no evaluation at the stream's end): all its moves now.
  ctx_.flits.moves += quiet_ ? static_cast<std::uint64_t>(m) : 1;
  ctx_.streamed_flits += static_cast<std::uint64_t>(m);
  ctx_.stats.window_flits_injected.add_span(ctx_.window, now, static_cast<std::uint64_t>(m));
  next_flit_ += m;
  stream_tail_ = now + static_cast<Cycle>(m) - 1;
  stream_flits_ = m;
  return true;
}

bool PacketInjector::finish_stream(Cycle now) {
  if (!quiet_) ctx_.flits.moves += static_cast<std::uint64_t>(stream_flits_ - 1);
  stream_tail_ = 0;
  stream_flits_ = 0;
  if (next_flit_ == current_->length) hand_over(now);
  return !quiet_ || busy();
}

void PacketInjector::missed_end(Cycle now) const {
  throw std::logic_error("packet injector: the stream of packet " + std::to_string(current_->id) + " ended at cycle " +
                         std::to_string(stream_tail_) + " with work behind it, but was not evaluated until cycle " +
                         std::to_string(now));
}

PacketPtr PacketInjector::pop_front() {
  PacketPtr p;
  if (queue_.front().id != 0) {
    p = queue_.front().build(node_);
  } else {
    p = std::move(whole_.front());
    whole_.pop_front();
  }
  queue_.pop_front();
  return p;
}

std::string PacketInjector::describe() const {
  std::string s = std::to_string(queued()) + " packets queued";
  if (current_)
    s += ", injecting packet " + std::to_string(current_->id) + " (" + std::to_string(next_flit_) + "/" +
         std::to_string(current_->length) + " flits sent)";
  return s;
}

// The rest of pkt_ is on the link as consecutive arrivals ending in its tail
// (and the tail arrives a few cycles before the run loop's next stop, where
// results are read: sim_context.h): take it in one step. Each flit's credit
// is returned at its arrival as the per-flit steps would (a sink returning
// credits at once, on a link whose sender allows a ramp: credit_ramp_ok), the
// counters take the whole rest (the window counter its overlap with the
// window), and the packet is handed over at the tail's cycle.
bool PacketAssembler::try_stream(Link& rx) {
  if (!ctx_.streams || !stream_ok_ || !credit_at_once_ || !rx.credit_ramp_ok()) return false;
  const Cycle tail = rx.tail_arrival(pkt_.get());
  if (!ctx_.receive_fits(tail)) return false;
  const Cycle first = rx.take_rest(pkt_.get(), next_);
  if (first == UINT64_MAX) return false;
  const int rest = pkt_->length - next_;
  rx.return_credit_ramp(rest, first);
  ctx_.flits.ejected += static_cast<std::uint64_t>(rest);
  ctx_.received_stream_flits += static_cast<std::uint64_t>(rest);
  ctx_.stats.window_flits_ejected.add_span(ctx_.window, first, static_cast<std::uint64_t>(rest));
  next_ = pkt_->length;
  stream_tail_ = tail;
  return true;
}

void PacketAssembler::out_of_order(const Flit& f, bool head_inside) const {
  if (head_inside)
    throw InvariantViolation(owner_ + ": head of packet " + std::to_string(f.pkt->id) + " arrived inside packet " +
                             std::to_string(pkt_->id));
  throw InvariantViolation(owner_ + ": flit " + std::to_string(f.index) + " of packet " +
                           std::to_string(f.pkt->id) + " arrived out of order");
}

std::string PacketAssembler::describe() const {
  if (!pkt_) return "";
  const std::string head = "receiving packet " + std::to_string(pkt_->id) + " (";
  if (stream_tail_ != 0)   // taken in one step: the flits arrive one per cycle up to the tail
    return head + "its last flits arrive one per cycle, the tail at cycle " + std::to_string(stream_tail_) + ")";
  return head + std::to_string(next_) + " flits in)";
}

}  // namespace wormcast::rtl
