// Choice among several legal output ports (seed000 §10 item 6), shared by
// every decoder of an irregular switch network: deterministic (lowest port),
// round_robin (a per-decoder counter), random (seeded sub-stream) or adaptive
// (idle outputs first, then most free downstream credits, ties to the lowest
// port).
#pragma once

#include <cstddef>
#include <vector>

#include "rtl_models/core/rng.h"

namespace wormcast::rtl {

class OutputPortState;

enum class PortSelection { deterministic, round_robin, random, adaptive };

class PortChooser {
 public:
  PortChooser(PortSelection sel, Rng rng) : sel_(sel), rng_(rng) {}
  // Index into `legal` (non-empty, ascending) of the chosen port. Inline for
  // the one-port case (most decodes of a minimal table), which draws nothing.
  std::size_t choose(const std::vector<int>& legal, const OutputPortState& ports) {
    return legal.size() <= 1 ? 0 : choose_among(legal, ports);
  }
  PortSelection selection() const { return sel_; }

 private:
  std::size_t choose_among(const std::vector<int>& legal, const OutputPortState& ports);
  PortSelection sel_;
  Rng rng_;
  unsigned rr_ = 0;
};

}  // namespace wormcast::rtl
