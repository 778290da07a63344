// Shared set-up for node-model tests: a 3-switch chain with the full node
// model (host + I/O bus + NI) at every node.
#pragma once

#include <memory>

#include "rtl_models/kernel.h"
#include "topologies/elaborator.h"

namespace wormcast::test {

// sw0 - sw1 - sw2 (k = 4): node0, node3 on sw0; node2 on sw1; node1 on sw2.
inline topo::Topology chain3() {
  topo::Topology t;
  t.ports_per_switch = 4;
  t.ports.assign(3, std::vector<topo::PortPeer>(4));
  auto link = [&](int a, int pa, int b, int pb) {
    t.ports[a][pa] = {topo::PeerKind::switch_port, b, pb};
    t.ports[b][pb] = {topo::PeerKind::switch_port, a, pa};
  };
  link(0, 0, 1, 0);
  link(1, 1, 2, 0);
  t.node_attach = {{0, 1}, {2, 1}, {1, 2}, {0, 2}};
  for (int n = 0; n < 4; ++n) t.ports[t.node_attach[n].sw][t.node_attach[n].port] = {topo::PeerKind::node, n, -1};
  t.validate();
  return t;
}

struct NodeNet {
  explicit NodeNet(const topo::NetworkParams& np_in, const topo::Topology& t = chain3()) : ctx(5000) {
    rtl::fresh_kernel();
    topo::NetworkParams np = np_in;
    np.node_model = "host_ni";
    net = std::make_unique<topo::Network>("net", t, std::make_shared<const topo::UpDownRouting>(t), np, ctx, Rng(1));
  }
  rtl::HostProcessor& host(int n) { return net->nodes[static_cast<std::size_t>(n)]->host; }
  rtl::NetworkInterface& ni(int n) { return net->nodes[static_cast<std::size_t>(n)]->ni; }
  rtl::SimContext ctx;
  std::unique_ptr<topo::Network> net;
};

}  // namespace wormcast::test
