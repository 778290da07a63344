// The CPU side of a processor that runs host software (HostApi): the
// host processor of the node model (HostProcessor) and the processor of a
// direct network's node (DirectProcessor). It counts the cycles the program
// keeps the CPU busy and makes the program's timed waits keep HostApi's
// same-cycle rule: a program that resumes in cycle t sees every message
// completed in t. The writers of those completions (the I/O bus's DMA, the
// node's receivers in the network's evaluation) run in the first delta of
// the cycle, before or after the program's process as the kernel orders
// them; one delta later all of them are in. One place for the rule, so the
// two processors keep it alike.
#pragma once

#include <systemc>

#include "rtl_models/core/sim_context.h"

namespace wormcast::rtl {

class ProgramCpu {
 public:
  explicit ProgramCpu(SimContext& ctx) : ctx_(ctx) {}

  // The program computes for c cycles (software overhead): the CPU is busy
  // and the node makes progress (the deadlock watchdog's node_progress).
  void busy_for(Cycle c) {
    if (c == 0) return;
    sc_core::wait(ctx_.clock.delay(c));
    see_this_cycle();
    busy_ += c;
    ++ctx_.node_progress;
  }
  // One delta: every message completed in this cycle is in.
  static void see_this_cycle() { sc_core::wait(sc_core::SC_ZERO_TIME); }
  // Waits on `arrival` (notified when a message completes) until
  // `pending()` holds, or until cycle `until` at most (UINT64_MAX: no
  // limit; a cycle not after now: no wait). Returns pending().
  template <class Pending>
  bool wait_for_message(Pending pending, const sc_core::sc_event& arrival, Cycle until) {
    if (pending()) return true;
    if (until == UINT64_MAX) {
      sc_core::wait(arrival);
    } else if (until > ctx_.clock.now()) {
      sc_core::wait(ctx_.clock.until(until), arrival);
      see_this_cycle();   // woken at `until`: a completion of that cycle may not be in yet
    }
    return pending();
  }
  Cycle busy_cycles() const { return busy_; }

 private:
  SimContext& ctx_;
  Cycle busy_ = 0;
};

}  // namespace wormcast::rtl
