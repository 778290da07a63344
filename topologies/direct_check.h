// check_direct_routing() with its figures, and a routing function of the
// caller's in place of DirectRouting::next_hop(): for tests that show a
// broken routing is caught, and that the check asks the routing function far
// less often than one walk per ordered pair would.
#pragma once

#include <cstddef>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "topologies/direct_routing.h"

namespace wormcast::topo {

// Same arguments and meaning as DirectRouting::next_hop().
using NextHopFunction = std::function<DirectHop(NodeId at, NodeId dst, VcClass in, int in_port)>;

struct DirectCheckOptions {
  const NextHopFunction* next_hop = nullptr;   // null: the routing's own next_hop()
  bool keep_route_edges = false;               // fill DirectCheckReport::route_edges
};

// A (channel, VC class) pair is numbered channel_slot * 7 + class.
struct DirectCheckReport {
  std::vector<std::string> problems;   // what check_direct_routing() returns
  std::size_t route_dependencies = 0;   // dependency edges recorded by the route walks
  std::size_t dependencies = 0;          // all edges (with UTPR worm continuations)
  long long routing_calls = 0;           // next_hop() evaluations
  bool per_pair_walk = false;            // a route was wrong: every pair was walked on its own
  std::vector<std::pair<int, int>> route_edges;   // sorted, with keep_route_edges
};

DirectCheckReport check_direct_routing_report(const DirectRouting& r, int vcs = 0,
                                              const DirectCheckOptions& options = {});

}  // namespace wormcast::topo
