#include "algorithms/multicast_set.h"

#include <stdexcept>
#include <string>

namespace wormcast::algo {

void check_multicast(const topo::Topology& t, topo::NodeId source,
                     const std::vector<topo::NodeId>& dests) {
  const int n = t.num_nodes();
  const std::string range = " (nodes are 0.." + std::to_string(n - 1) + ")";
  if (source < 0 || source >= n)
    throw std::invalid_argument("multicast: source node " + std::to_string(source) +
                                " is not a node of the topology" + range);
  if (dests.empty()) throw std::invalid_argument("multicast: the destination set is empty");
  std::vector<char> seen(n, 0);
  for (topo::NodeId d : dests) {
    if (d < 0 || d >= n)
      throw std::invalid_argument("multicast: destination " + std::to_string(d) +
                                  " is not a node of the topology" + range);
    if (d == source)
      throw std::invalid_argument("multicast: destination " + std::to_string(d) +
                                  " is the source itself");
    if (seen[d])
      throw std::invalid_argument("multicast: destination " + std::to_string(d) + " is listed twice");
    seen[d] = 1;
  }
}

}  // namespace wormcast::algo
