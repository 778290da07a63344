// When a source's multicasts (or messages) arrive, as a stream of cycles:
//  * bernoulli: in each cycle, one arrival with probability `rate` (at most
//    one per cycle; gaps are geometric, >= 1 cycle);
//  * poisson: a Poisson process of `rate` arrivals per cycle in continuous
//    time, each arrival at the first cycle boundary at or after its instant
//    (several may fall in one cycle; gaps are exponential).
// Both have mean `rate` arrivals per cycle; Bernoulli's count per cycle has
// variance rate (1 - rate), Poisson's rate. Plain C++, no SystemC.
#pragma once

#include <string>

#include "rtl_models/core/params.h"
#include "rtl_models/core/rng.h"

namespace wormcast::tb {

enum class ArrivalKind { bernoulli, poisson };

// "bernoulli" or "poisson"; throws std::invalid_argument naming the text.
ArrivalKind arrival_kind(const std::string& name);

class ArrivalProcess {
 public:
  // rate in [0, 1] for bernoulli, >= 0 for poisson; 0: no arrivals. The
  // first arrival follows cycle `start` (bernoulli: in start + 1 or later).
  ArrivalProcess(ArrivalKind kind, double rate, const Rng& rng, Cycle start = 0);
  // The cycle of the next arrival (UINT64_MAX: none); non-decreasing.
  Cycle peek() const { return next_; }
  // Consumes the next arrival and returns its cycle.
  Cycle pop();

 private:
  void draw();
  ArrivalKind kind_;
  double rate_;
  Rng rng_;
  double instant_;   // poisson: the next arrival's instant, in cycles
  Cycle next_;
};

}  // namespace wormcast::tb
