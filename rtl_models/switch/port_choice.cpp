#include "rtl_models/switch/port_choice.h"

#include "rtl_models/switch/decoder.h"

namespace wormcast::rtl {

std::size_t PortChooser::choose_among(const std::vector<int>& legal, const OutputPortState& ports) {
  switch (sel_) {
    case PortSelection::deterministic: return 0;
    case PortSelection::round_robin: return rr_++ % legal.size();
    case PortSelection::random: return static_cast<std::size_t>(rng_.below(legal.size()));
    case PortSelection::adaptive: {
      int best = -1;
      std::size_t chosen = 0;
      for (std::size_t i = 0; i < legal.size(); ++i) {
        const int p = legal[i];
        const int score = (ports.busy(p) ? 0 : 1 << 30) + ports.free_credits(p);
        if (score > best) { best = score; chosen = i; }
      }
      return chosen;
    }
  }
  return 0;
}

}  // namespace wormcast::rtl
