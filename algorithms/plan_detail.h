// Helpers shared by the scheme planners of plan_kbinomial.cpp and
// switch_scheme.cpp: reading PlanOptions with errors that name the option.
#pragma once

#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>

namespace wormcast::algo::detail {

// The value named by `v` among `choices`, or `def` when unset. Throws
// std::invalid_argument "--opt: 'x' is not one of a, b".
template <class E>
E pick(const std::optional<std::string>& v, const char* opt,
       std::initializer_list<std::pair<const char*, E>> choices, E def) {
  if (!v) return def;
  std::string names;
  for (const auto& [name, value] : choices) {
    if (*v == name) return value;
    names += (names.empty() ? "" : ", ") + std::string(name);
  }
  throw std::invalid_argument(std::string(opt) + ": '" + *v + "' is not one of " + names);
}

// The name under which `value` appears in `choices`.
template <class E>
const char* name_of(E value, std::initializer_list<std::pair<const char*, E>> choices) {
  for (const auto& [name, v] : choices)
    if (v == value) return name;
  return "?";
}

// `v` or `def`; std::invalid_argument "--opt must be at least min (what), got x".
inline long long at_least(const std::optional<long long>& v, const char* opt, long long min, long long def,
                          const char* what) {
  if (!v) return def;
  if (*v < min)
    throw std::invalid_argument(std::string(opt) + " must be at least " + std::to_string(min) + " (" + what +
                                "), got " + std::to_string(*v));
  return *v;
}

inline std::string switch_name(int s) { return "sw" + std::to_string(s); }

}  // namespace wormcast::algo::detail
