// Small text helpers shared by the topology spec and name parsers
// (direct_topology.cpp, fat_tree.cpp). Plain C++.
#pragma once

#include <string>
#include <vector>

namespace wormcast::topo::detail {

// The pieces of `s` between separators `sep` (empty pieces kept; "" gives one).
inline std::vector<std::string> split(const std::string& s, char sep) {
  std::vector<std::string> out(1);
  for (char c : s) {
    if (c == sep) out.emplace_back();
    else out.back() += c;
  }
  return out;
}

}  // namespace wormcast::topo::detail
