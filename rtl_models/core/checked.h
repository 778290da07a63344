// Invariant checks that cost nothing in the regular build. A fast path that
// relies on a property it does not test (the VC router's numbered
// invariants, rtl_models/direct/vc_router.h) states it with
// WORMCAST_INVARIANT(number, condition, message); a build configured with
// -DWORMCAST_CHECKED=ON (CI's sanitizer pass, docs/testing.md) evaluates
// each one and throws rtl::InvariantViolation naming the invariant and what
// the message says when it fails. Elsewhere the macro compiles to nothing:
// neither the condition nor the message is evaluated, so both may be as
// costly as they need to be.
#pragma once

#include <string>

#include "rtl_models/core/sim_context.h"

namespace wormcast::rtl {

#ifdef WORMCAST_CHECKED
inline constexpr bool kCheckedBuild = true;
#else
inline constexpr bool kCheckedBuild = false;
#endif

// Throws InvariantViolation "<where>: invariant <number> (<condition>) violated: <message>".
[[noreturn]] void invariant_failed(const std::string& where, int number, const char* condition,
                                   const std::string& message);

}  // namespace wormcast::rtl

#ifdef WORMCAST_CHECKED
#define WORMCAST_INVARIANT(where, number, condition, message)                                 \
  do {                                                                                        \
    if (!(condition)) ::wormcast::rtl::invariant_failed((where), (number), #condition, (message)); \
  } while (0)
#else
#define WORMCAST_INVARIANT(where, number, condition, message) \
  do {                                                        \
  } while (0)
#endif
