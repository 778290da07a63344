#include "rtl_models/switch/crossbar.h"

#include <stdexcept>

namespace wormcast::rtl {

Crossbar::Crossbar(sc_core::sc_module_name name, int ports, Arbitration policy, Cycle delay)
    : sc_core::sc_module(name), k_(ports), policy_(policy), delay_(delay),
      last_(static_cast<std::size_t>(ports), ports - 1),
      conn_(static_cast<std::size_t>(ports), -1),
      grants_(static_cast<std::size_t>(ports * ports), 0) {
  if (ports < 1) throw std::invalid_argument(std::string(this->name()) + ": crossbar needs >= 1 port");
  if (delay < 1) throw std::invalid_argument(std::string(this->name()) + ": crossbar delay must be >= 1 cycle");
}

int Crossbar::arbitrate(int out, const std::vector<char>& req) {
  const int start = policy_ == Arbitration::round_robin ? last_[static_cast<std::size_t>(out)] + 1 : 0;
  for (int n = 0; n < k_; ++n) {
    const int i = (start + n) % k_;
    if (req[static_cast<std::size_t>(i)]) {
      last_[static_cast<std::size_t>(out)] = i;
      return i;
    }
  }
  return -1;
}

}  // namespace wormcast::rtl
