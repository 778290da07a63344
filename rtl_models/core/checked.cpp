#include "rtl_models/core/checked.h"

namespace wormcast::rtl {

void invariant_failed(const std::string& where, int number, const char* condition, const std::string& message) {
  throw InvariantViolation(where + ": invariant " + std::to_string(number) + " (" + condition + ") violated: " +
                           message);
}

}  // namespace wormcast::rtl
