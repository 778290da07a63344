#include "rtl_models/link_interface.h"

namespace wormcast::rtl {

bool PacketInjector::step(LinkTxIf& tx, Cycle now, Cycle& next) {
  if (!current_ && !queue_.empty()) {
    current_ = std::move(queue_.front());
    queue_.pop_front();
    next_flit_ = 0;
  }
  if (!current_) return false;
  const int credits = tx.credits(now);
  if (credits <= 0 || (vct_ && next_flit_ == 0 && credits < current_->length)) {
    next = std::min(next, tx.next_credit_arrival());
    return false;
  }
  if (next_flit_ == 0) current_->injected = now;
  const bool tail = next_flit_ == current_->length - 1;
  tx.send(Flit{current_, next_flit_++}, now, 0);
  ++ctx_.flits.injected;
  ++ctx_.flits.moves;
  if (ctx_.window.contains(now)) ++ctx_.stats.window_flits_injected;
  if (tail) {
    PacketPtr done = std::move(current_);
    current_.reset();
    if (on_sent) on_sent(done, now);
  }
  return true;
}

std::string PacketInjector::describe() const {
  std::string s = std::to_string(queued()) + " packets queued";
  if (current_)
    s += ", injecting packet " + std::to_string(current_->id) + " (" + std::to_string(next_flit_) + "/" +
         std::to_string(current_->length) + " flits sent)";
  return s;
}

bool PacketAssembler::step(LinkRxIf& rx, Cycle now, Cycle& next,
                           const std::function<void(const PacketPtr&, Cycle)>& on_packet) {
  bool any = false;
  while (rx.has_flit(now)) {
    Flit f = rx.pop();
    if (credit_at_once_) rx.return_credits(1, now);
    ++ctx_.flits.ejected;
    if (ctx_.window.contains(now)) ++ctx_.stats.window_flits_ejected;
    if (f.head()) {
      if (pkt_)
        throw InvariantViolation(owner_ + ": head of packet " + std::to_string(f.pkt->id) + " arrived inside packet " +
                                 std::to_string(pkt_->id));
      pkt_ = f.pkt;
      next_ = 0;
    }
    if (!pkt_ || f.pkt != pkt_ || f.index != next_)
      throw InvariantViolation(owner_ + ": flit " + std::to_string(f.index) + " of packet " +
                               std::to_string(f.pkt->id) + " arrived out of order");
    ++next_;
    any = true;
    if (f.tail()) {
      PacketPtr done = std::move(pkt_);
      pkt_.reset();
      on_packet(done, now);
    }
  }
  next = std::min(next, rx.next_flit_arrival());
  return any;
}

std::string PacketAssembler::describe() const {
  return pkt_ ? "receiving packet " + std::to_string(pkt_->id) + " (" + std::to_string(next_) + " flits in)" : "";
}

}  // namespace wormcast::rtl
