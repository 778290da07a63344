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
};

// A view that forwards every query to `r` (which must outlive the view).
RoutingView view_of(const UpDownRouting& r);

std::vector<std::string> check_updown(const Topology& t, const RoutingView& r);

}  // namespace wormcast::topo::detail
