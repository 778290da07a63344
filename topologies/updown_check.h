// Internal: the up*/down* checker works on this narrow view of a routing so
// that tests can hand it deliberately broken tables (UpDownRouting itself has
// no way to corrupt an entry). Not part of the public topology interface; use
// check_updown() from updown.h.
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "topologies/topology.h"
#include "topologies/updown.h"

namespace wormcast::topo::detail {

struct RoutingView {
  std::function<SwitchId()> root;
  std::function<int(SwitchId)> level;
  std::function<SwitchId(SwitchId)> tree_parent;
  std::function<bool(SwitchId, PortId)> is_up_port;
  std::function<Phase(SwitchId, PortId)> arrival_phase;
  std::function<const std::vector<PortId>&(SwitchId, Phase, NodeId)> ports;
  // Optional: all of a node's entries at once, out[s * 2 + phase] =
  // &ports(s, phase, d) (UpDownRouting::ports_to). Empty: the checker calls
  // ports() per entry. view_of() leaves it empty, so a test that replaces
  // `ports` is checked through its own function.
  std::function<void(NodeId, std::vector<const std::vector<PortId>*>&)> ports_to;
};

// A view that forwards every query to `r` (which must outlive the view).
RoutingView view_of(const UpDownRouting& r);

std::vector<std::string> check_updown(const Topology& t, const RoutingView& r);

}  // namespace wormcast::topo::detail
