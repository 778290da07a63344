#include "testbenches/app/workloads/arrivals.h"

#include <cmath>
#include <cstdint>
#include <stdexcept>

namespace wormcast::tb {

ArrivalKind arrival_kind(const std::string& name) {
  if (name == "bernoulli") return ArrivalKind::bernoulli;
  if (name == "poisson") return ArrivalKind::poisson;
  throw std::invalid_argument("arrivals '" + name + "': bernoulli or poisson");
}

ArrivalProcess::ArrivalProcess(ArrivalKind kind, double rate, const Rng& rng, Cycle start)
    : kind_(kind), rate_(rate), rng_(rng), instant_(static_cast<double>(start)), next_(start) {
  if (!(rate >= 0) || (kind == ArrivalKind::bernoulli && rate > 1))
    throw std::invalid_argument("arrival rate " + std::to_string(rate) + " per cycle outside " +
                                (kind == ArrivalKind::bernoulli ? "[0, 1]" : "[0, inf)"));
  if (rate == 0) {
    next_ = UINT64_MAX;
    return;
  }
  draw();
}

Cycle ArrivalProcess::pop() {
  const Cycle at = next_;
  if (at != UINT64_MAX) draw();
  return at;
}

void ArrivalProcess::draw() {
  const double u = 1.0 - rng_.uniform();   // (0, 1]
  if (kind_ == ArrivalKind::bernoulli) {
    // Cycles until the next success of per-cycle trials: 1 + Geometric.
    next_ += rate_ >= 1.0 ? 1 : 1 + static_cast<Cycle>(std::floor(std::log(u) / std::log1p(-rate_)));
    return;
  }
  instant_ += -std::log(u) / rate_;
  const double c = std::ceil(instant_);
  next_ = c >= 1.8e19 ? UINT64_MAX : static_cast<Cycle>(c);
}

}  // namespace wormcast::tb
