#include "rtl_models/core/link.h"

#include <stdexcept>

namespace wormcast::rtl {

Link::Link(sc_core::sc_module_name name, const Clock& clock, const LinkParams& p,
           int initial_credits)
    : sc_core::sc_module(name), credits_(initial_credits), p_(p), clock_(clock) {
  if (p_.latency < 1 || p_.credit_delay < 1)
    throw std::invalid_argument(std::string(basename()) + ": link latency and credit delay must be >= 1 cycle");
}

void Link::fail(const char* what) const {
  throw std::logic_error(std::string(name()) + ": " + what);
}

}  // namespace wormcast::rtl
