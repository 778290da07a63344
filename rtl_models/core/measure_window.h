// The measurement window of a run, [warm-up end, warm-up + measure), and
// the counts and samples that only take what happens inside it. Warm-up
// exclusion is written once, here: a module counts with
// WindowedCounter::add(window, cycle) or samples with
// WindowedSamples::add(window, cycle, value) instead of testing the window
// itself.
#pragma once

#include <algorithm>
#include <cstdint>

#include "rtl_models/core/clock.h"
#include "rtl_models/core/statistics.h"

namespace wormcast::rtl {

struct MeasureWindow {
  Cycle begin = 0, end = UINT64_MAX;
  bool contains(Cycle c) const { return c >= begin && c < end; }
  // How many of the cycles first .. first + n - 1 lie in the window (one
  // flit per cycle: a stream's share of the window's flit counts).
  std::uint64_t overlap(Cycle first, std::uint64_t n) const {
    const Cycle lo = std::max(first, begin), hi = std::min(first + n, end);
    return hi > lo ? hi - lo : 0;
  }
};

// Events inside the window (flits injected, ejected, created, ...).
class WindowedCounter {
 public:
  // n events at cycle `at`.
  void add(const MeasureWindow& w, Cycle at, std::uint64_t n = 1) {
    if (w.contains(at)) count_ += n;
  }
  // One event per cycle from `first` for n cycles (a stream of flits).
  void add_span(const MeasureWindow& w, Cycle first, std::uint64_t n) { count_ += w.overlap(first, n); }
  std::uint64_t value() const { return count_; }

 private:
  std::uint64_t count_ = 0;
};

// Cycle counts (latencies, waits) of events that start inside the window.
class WindowedSamples {
 public:
  void add(const MeasureWindow& w, Cycle started, std::uint32_t value) {
    if (w.contains(started)) samples_.add(value);
  }
  const CycleSamples& samples() const { return samples_; }

 private:
  CycleSamples samples_;
};

}  // namespace wormcast::rtl
