// The host I/O bus between host memory and the NI (seed000 §2.3, §7.2: 266 MB/s,
// PCI-class). A shared resource: DMA transfers from any initiator bound to it
// are served one at a time in request order, each taking
// ceil(bytes / bytes_per_cycle) cycles (plus an optional per-transfer setup),
// so concurrent DMA engines contend. Loosely-timed blocking transport: a
// transfer's b_transport returns when the transfer has finished.
#pragma once

#include <systemc>
#include <tlm>
#include <tlm_utils/multi_passthrough_target_socket.h>
#include <tlm_utils/simple_initiator_socket.h>

#include "rtl_models/core/clock.h"
#include "rtl_models/core/params.h"

namespace wormcast::rtl {

struct IoBusParams {
  double bandwidth = 266e6;   // bytes per second
  Cycle setup = 0;            // fixed cycles per transfer (arbitration, address phase)
  void visit(ParamVisitor& v) {
    v.bandwidth("bandwidth", bandwidth, "I/O bus bandwidth between host memory and the NI (seed000: 266MB/s)");
    v.cycles("setup", setup, "fixed overhead per DMA transfer on the bus (cycles)");
  }
};

class IoBus : public sc_core::sc_module {
 public:
  tlm_utils::multi_passthrough_target_socket<IoBus> target;       // DMA engines bind here
  tlm_utils::simple_initiator_socket<IoBus> to_memory;             // host memory

  IoBus(sc_core::sc_module_name name, const Clock& clock, const IoBusParams& p);
  // Cycles a transfer of `bytes` occupies the bus.
  Cycle transfer_cycles(std::uint64_t bytes) const;
  // Cycles the bus has been busy up to cycle `now`. Transfers are granted
  // first come first served and every request arrives by `now`, so the
  // granted time after `now` is one contiguous stretch ending at free_at_:
  // it is granted but not yet used, and does not count.
  Cycle busy_cycles(Cycle now) const { return busy_ - (free_at_ > now ? free_at_ - now : 0); }
  std::uint64_t transfers() const { return transfers_; }
  std::uint64_t bytes_moved() const { return bytes_; }

 private:
  void b_transport(int id, ::tlm::tlm_generic_payload& trans, sc_core::sc_time& delay);
  const Clock& clock_;
  IoBusParams p_;
  double bytes_per_cycle_;
  Cycle free_at_ = 0;     // first cycle the bus is free
  Cycle busy_ = 0;
  std::uint64_t transfers_ = 0, bytes_ = 0;
};

}  // namespace wormcast::rtl
