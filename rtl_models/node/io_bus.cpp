#include "rtl_models/node/io_bus.h"

#include <cmath>
#include <stdexcept>

namespace wormcast::rtl {

IoBus::IoBus(sc_core::sc_module_name name, const Clock& clock, const IoBusParams& p)
    : sc_core::sc_module(name), target("target"), to_memory("to_memory"), clock_(clock), p_(p),
      bytes_per_cycle_(p.bandwidth * static_cast<double>(clock.period_ps()) * 1e-12) {
  if (!(p.bandwidth > 0)) throw std::invalid_argument(std::string(this->name()) + ": bandwidth must be positive");
  target.register_b_transport(this, &IoBus::b_transport);
}

Cycle IoBus::transfer_cycles(std::uint64_t bytes) const {
  // A small tolerance keeps exact ratios (e.g. 133 B at 1.33 B/cycle) exact.
  const double c = static_cast<double>(bytes) / bytes_per_cycle_;
  return p_.setup + static_cast<Cycle>(std::ceil(c - 1e-9));
}

void IoBus::b_transport(int, ::tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  // Consume any time the initiator annotated before arbitrating.
  if (delay > sc_core::SC_ZERO_TIME) {
    sc_core::wait(delay);
    delay = sc_core::SC_ZERO_TIME;
  }
  const Cycle now = clock_.now();
  const Cycle start = std::max(now, free_at_);
  const Cycle duration = transfer_cycles(trans.get_data_length());
  free_at_ = start + duration;
  busy_ += duration;
  ++transfers_;
  bytes_ += trans.get_data_length();
  const Cycle end = free_at_;
  sc_core::wait(clock_.until(end));
  // The memory sees the access when the transfer completes, so a completion
  // carried by the last receive write is not visible early.
  sc_core::sc_time zero = sc_core::SC_ZERO_TIME;
  to_memory->b_transport(trans, zero);
}

}  // namespace wormcast::rtl
