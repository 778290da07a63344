// Shared set-up for node-model tests: a 3-switch chain with the full node
// model (host + I/O bus + NI) at every node.
#pragma once

#include <memory>

#include "rtl_models/core/kernel.h"
#include "rtl_models/node/host_ni_node.h"
#include "topologies/networks/elaborator.h"

namespace wormcast::test {

// sw0 - sw1 - sw2 (k = 4): node0, node3 on sw0; node2 on sw1; node1 on sw2.
inline topo::Topology chain3() {
  auto t = topo::Topology::empty(3, 4);
  t.connect(0, 0, 1, 0).connect(1, 1, 2, 0);
  t.attach(0, 0, 1).attach(1, 2, 1).attach(2, 1, 2).attach(3, 0, 2);
  t.validate();
  return t;
}

// The host/NI node model's parameters (host, iobus, ni) are set on `model`.
struct NodeNet {
  explicit NodeNet(const rtl::HostNiModel& model = {}, const topo::Topology& t = chain3()) : ctx(5000) {
    rtl::fresh_kernel();
    topo::NetworkParams np;
    np.node_model = std::make_shared<const rtl::HostNiModel>(model);
    net = std::make_unique<topo::Network>("net", t, std::make_shared<const topo::UpDownRouting>(t), np, ctx, Rng(1));
  }
  rtl::ComputeNode& node(int n) { return static_cast<rtl::HostNiNode&>(net->node(n)).node(); }
  rtl::HostProcessor& host(int n) { return node(n).host; }
  rtl::NetworkInterface& ni(int n) { return node(n).ni; }
  rtl::SimContext ctx;
  std::unique_ptr<topo::Network> net;
};

}  // namespace wormcast::test
