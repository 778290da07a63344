#include "algorithms/direct_members.h"

#include <stdexcept>
#include <unordered_set>

namespace wormcast::algo {

std::string node_name_or_id(const topo::DirectTopology& t, topo::NodeId x) {
  return t.valid_node(x) ? t.name(x) : "#" + std::to_string(x);
}

std::string node_set_text(const topo::DirectTopology& t, const std::vector<topo::NodeId>& nodes) {
  std::string s = "{";
  for (std::size_t i = 0; i < nodes.size(); ++i) s += (i ? ", " : "") + node_name_or_id(t, nodes[i]);
  return s + "}";
}

void check_multicast_members(const topo::DirectTopology& t, topo::NodeId source, const std::vector<topo::NodeId>& dests,
                             const std::string& who, const std::string& role) {
  if (!t.valid_node(source))
    throw std::invalid_argument(who + ": " + role + " node " + std::to_string(source) + " is not a node of " + t.spec());
  if (dests.empty()) throw std::invalid_argument(who + ": no destinations");
  std::unordered_set<topo::NodeId> seen;
  for (topo::NodeId d : dests) {
    if (!t.valid_node(d))
      throw std::invalid_argument(who + ": destination node " + std::to_string(d) + " is not a node of " + t.spec());
    if (d == source) throw std::invalid_argument(who + ": destination node " + t.name(d) + " is the " + role);
    if (!seen.insert(d).second) throw std::invalid_argument(who + ": destination node " + t.name(d) + " is listed twice");
  }
}

}  // namespace wormcast::algo
