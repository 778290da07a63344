#include "testbenches/app/progress.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace wormcast::tb {

namespace {

std::string rate_text(double cycles_per_s) {
  if (cycles_per_s >= 1e6) return fmt::format("{:.1f} M cycles/s", cycles_per_s / 1e6);
  if (cycles_per_s >= 1e3) return fmt::format("{:.1f} k cycles/s", cycles_per_s / 1e3);
  return fmt::format("{:.0f} cycles/s", cycles_per_s);
}

std::string duration_text(double s) {
  if (s < 60) return fmt::format("{:.0f} s", s);
  if (s < 3600) return fmt::format("{:.0f} min {:02.0f} s", std::floor(s / 60), std::fmod(s, 60));
  return fmt::format("{:.0f} h {:02.0f} min", std::floor(s / 3600), std::floor(std::fmod(s, 3600) / 60));
}

}  // namespace

std::string progress_line(const ProgressState& s) {
  const double rate = s.seconds > 0 ? static_cast<double>(s.now) / s.seconds : 0;
  std::string line = "[wormcast] ";
  switch (s.phase) {
    case RunPhase::warmup:
    case RunPhase::measuring: {
      const Cycle end = std::max<Cycle>(1, s.measure_end);
      const Cycle at = std::min(s.now, end);
      line += fmt::format("{} cycle {} / {} ({:3.0f}%)", s.phase == RunPhase::warmup ? "warm-up" : "measuring", at, end,
                          100.0 * static_cast<double>(at) / static_cast<double>(end));
      if (rate > 0) line += ", " + rate_text(rate) + ", ETA " + duration_text(static_cast<double>(end - at) / rate);
      break;
    }
    case RunPhase::waiting:
      line += s.trials ? fmt::format("running the trials: cycle {}", s.now)
                       : fmt::format("window done, waiting for the measured work: cycle {}", s.now);
      if (rate > 0) line += ", " + rate_text(rate);
      break;
    case RunPhase::draining:
      line += fmt::format("draining: cycle {}, {} packets in flight", s.now, s.in_flight);
      break;
  }
  line += fmt::format("; {} {} of {} complete", s.unit, s.work.completed, s.work.arrived);
  return line;
}

}  // namespace wormcast::tb
