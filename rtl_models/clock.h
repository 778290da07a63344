// The clock of a simulated system. Every module's state changes at rising
// edges, i.e. at simulated times c * period for integer cycles c; modules are
// woken only when they have work (activity-driven, DESIGN.md principle 2).
#pragma once

#include <systemc>

#include "rtl_models/params.h"

namespace wormcast::rtl {

class Clock {
 public:
  explicit Clock(std::uint64_t period_ps = 5000)
      : period_(sc_core::sc_time(static_cast<double>(period_ps), sc_core::SC_PS)),
        period_ps_(period_ps) {}
  const sc_core::sc_time& period() const { return period_; }
  std::uint64_t period_ps() const { return period_ps_; }
  // Current cycle number (simulated time / period).
  Cycle now() const { return sc_core::sc_time_stamp().value() / period_.value(); }
  sc_core::sc_time delay(Cycle cycles) const { return period_ * static_cast<double>(cycles); }
  // Time from now until the rising edge of cycle c (c >= now()).
  sc_core::sc_time until(Cycle c) const {
    return sc_core::sc_time::from_value(c * period_.value()) - sc_core::sc_time_stamp();
  }
  double cycles_to_us(double c) const { return c * static_cast<double>(period_ps_) * 1e-6; }

 private:
  sc_core::sc_time period_;
  std::uint64_t period_ps_;
};

}  // namespace wormcast::rtl
