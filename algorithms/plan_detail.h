// Helpers shared by the scheme planners of plan_kbinomial.cpp and
// switch_scheme.cpp: declared choices to values, switch names.
#pragma once

#include <initializer_list>
#include <stdexcept>
#include <string>
#include <utility>

namespace wormcast::algo::detail {

// The value named by `v`, one of `choices` (the option's declaration has
// checked it).
template <class E>
E choice(const std::string& v, std::initializer_list<std::pair<const char*, E>> choices) {
  for (const auto& [name, value] : choices)
    if (v == name) return value;
  throw std::logic_error("'" + v + "' is not a declared choice");
}

// The name under which `value` appears in `choices`.
template <class E>
const char* name_of(E value, std::initializer_list<std::pair<const char*, E>> choices) {
  for (const auto& [name, v] : choices)
    if (v == value) return name;
  return "?";
}

inline std::string switch_name(int s) { return "sw" + std::to_string(s); }

}  // namespace wormcast::algo::detail
