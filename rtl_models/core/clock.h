// The clock of a simulated system. Every module's state changes at rising
// edges, i.e. at simulated times c * period for integer cycles c; modules are
// woken only when they have work (activity-driven, docs/design.md principle 2).
#pragma once

#include <systemc>

#include "rtl_models/core/params.h"

namespace wormcast::rtl {

class Clock {
 public:
  explicit Clock(std::uint64_t period_ps = 5000)
      : period_(sc_core::sc_time(static_cast<double>(period_ps), sc_core::SC_PS)),
        period_ps_(period_ps) {}
  const sc_core::sc_time& period() const { return period_; }
  std::uint64_t period_ps() const { return period_ps_; }
  // Current cycle number (simulated time / period; while the cycle
  // scheduler runs ahead of the kernel, the cycle it is evaluating).
  Cycle now() const {
    return ahead_ != kNotAhead ? ahead_ : sc_core::sc_time_stamp().value() / period_.value();
  }
  // A length of `cycles` cycles. Not while the scheduler runs ahead: a
  // delay counted from the kernel's time would land in the wrong cycle
  // (from_now and until are right in both cases).
  sc_core::sc_time delay(Cycle cycles) const {
    if (ahead_ != kNotAhead) ahead_misuse("delay");
    return period_ * static_cast<double>(cycles);
  }
  // Time from the kernel's now until the rising edge of cycle c (c >= now()):
  // an absolute cycle, so right while the scheduler runs ahead too (which
  // then looks at the kernel's pending activity again: touched).
  sc_core::sc_time until(Cycle c) const {
    touched_ = true;
    return sc_core::sc_time::from_value(c * period_.value()) - sc_core::sc_time_stamp();
  }
  // Time from now() until `cycles` cycles later, for a notification.
  sc_core::sc_time from_now(Cycle cycles) const {
    return ahead_ != kNotAhead ? until(ahead_ + cycles) : delay(cycles);
  }
  double cycles_to_us(double c) const { return c * static_cast<double>(period_ps_) * 1e-6; }

  // The cycle scheduler's run-ahead (cycle_scheduler.h): it evaluates cycle
  // c while the kernel is still at an earlier cycle.
  void set_ahead(Cycle c) { ahead_ = c; }
  void end_ahead() { ahead_ = kNotAhead; }
  // Has until() been called since the last clear (someone notified an event
  // at an absolute cycle)?
  bool touched() const { return touched_; }
  void clear_touched() { touched_ = false; }

 private:
  static constexpr Cycle kNotAhead = ~Cycle{0};
  [[noreturn]] void ahead_misuse(const char* what) const;
  sc_core::sc_time period_;
  std::uint64_t period_ps_;
  Cycle ahead_ = kNotAhead;
  mutable bool touched_ = false;
};

}  // namespace wormcast::rtl
