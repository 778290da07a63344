// A processing node of the node model: host processor, I/O bus and NI
// coprocessor, wired as in seed000 Fig. 2b: host --TLM--> NI target; NI DMA
// --TLM--> I/O bus --TLM--> host memory. Its link ports are the NI's.
#pragma once

#include <systemc>

#include "rtl_models/node/host_processor.h"
#include "rtl_models/node/io_bus.h"
#include "rtl_models/node/network_interface.h"

namespace wormcast::rtl {

// A node whose host is the user's own model (embed/network.h, NetworkOptions::
// user_hosts): the I/O bus and the NI of a ComputeNode, the NI's DMA bound to
// the bus, and two sockets left for the user to bind: the NI's target socket
// `ni.host_port` (descriptors, status) from the user's CPU, and the bus's
// initiator socket `bus.to_memory` to the user's memory.
class NiNode : public sc_core::sc_module {
 public:
  NiNode(sc_core::sc_module_name name, NodeId id, const IoBusParams& bp, const NiParams& np, SimContext& ctx, bool vct)
      : sc_core::sc_module(name), bus("iobus", ctx.clock, bp), ni("ni", id, np, ctx, vct) {
    ni.dma.bind(bus.target);
  }
  IoBus bus;
  NetworkInterface ni;
};

class ComputeNode : public sc_core::sc_module {
 public:
  ComputeNode(sc_core::sc_module_name name, NodeId id, int num_nodes, const HostParams& hp, const IoBusParams& bp,
              const NiParams& np, SimContext& ctx, bool vct)
      : sc_core::sc_module(name), host("host", id, num_nodes, hp, ctx), bus("iobus", ctx.clock, bp),
        ni("ni", id, np, ctx, vct) {
    host.ni.bind(ni.host_port);
    ni.dma.bind(bus.target);
    bus.to_memory.bind(host.memory);
  }
  HostProcessor host;
  IoBus bus;
  NetworkInterface ni;
};

}  // namespace wormcast::rtl
