#include "rtl_models/link.h"

#include <stdexcept>

namespace wormcast::rtl {

Link::Link(sc_core::sc_module_name name, const Clock& clock, const LinkParams& p,
           int initial_credits)
    : sc_core::sc_module(name), clock_(clock), p_(p), credits_(initial_credits) {
  if (p_.latency < 1 || p_.credit_delay < 1)
    throw std::invalid_argument(std::string(basename()) + ": link latency and credit delay must be >= 1 cycle");
}

int Link::credits(Cycle now) {
  while (!credit_returns_.empty() && credit_returns_.front().arrival <= now) {
    credits_ += credit_returns_.front().n;
    credit_returns_.pop_front();
  }
  return credits_;
}

void Link::send(Flit f, Cycle now, Cycle extra_delay) {
  if (last_send_ == now)
    throw std::logic_error(std::string(name()) + ": two flits sent in one cycle");
  if (credits(now) <= 0)
    throw std::logic_error(std::string(name()) + ": flit sent without a credit");
  --credits_;
  last_send_ = now;
  ++flits_sent_;
  const Cycle arrival = now + extra_delay + p_.latency;
  if (f.tail()) tail_owners_.push_back(f.pkt);   // an owning reference (packet.h)
  flits_.push_back({arrival, f});
  if (rx_client_) rx_client_->link_activity(arrival);
}

Flit Link::pop() {
  const Flit f = flits_.front().flit;
  flits_.pop_front();
  if (f.tail()) {
    popped_owner_ = std::move(tail_owners_.front());
    tail_owners_.pop_front();
  }
  return f;
}

void Link::return_credits(int n, Cycle now) {
  if (n <= 0) return;
  const Cycle arrival = now + p_.credit_delay;
  if (!credit_returns_.empty() && credit_returns_.back().arrival == arrival)
    credit_returns_.back().n += n;
  else
    credit_returns_.push_back({arrival, n});
  if (tx_client_) tx_client_->link_activity(arrival);
}

Cycle Link::next_flit_arrival() const {
  return flits_.empty() ? UINT64_MAX : flits_.front().arrival;
}

Cycle Link::next_credit_arrival() const {
  return credit_returns_.empty() ? UINT64_MAX : credit_returns_.front().arrival;
}

}  // namespace wormcast::rtl
