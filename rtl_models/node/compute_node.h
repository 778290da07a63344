// A processing node of the node model: host processor, I/O bus and NI
// coprocessor, wired as in seed000 Fig. 2b: host --TLM--> NI target; NI DMA
// --TLM--> I/O bus --TLM--> host memory. Its link ports are the NI's.
#pragma once

#include <systemc>

#include "rtl_models/node/host_processor.h"
#include "rtl_models/node/io_bus.h"
#include "rtl_models/node/network_interface.h"

namespace wormcast::rtl {

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
