// Deadlock / livelock watchdog (docs/design.md principle 6). While packets are
// outstanding it wakes every `interval` cycles; it trips when nothing
// progressed during a whole interval (no flit crossed a link and no node
// finished an activity), or when flits sat in the network and none of them
// moved for a whole interval while the nodes kept working (sources under
// load keep sending into a deadlocked network). Tripping stops the
// simulation and keeps a report listing the blocked buffers and the packets
// holding them. It sleeps while the
// network is empty, so an idle network costs nothing. A network embedded in
// a user's model (embed/network.h) is told instead: the trip calls its
// handler with the report, and the user's simulation goes on.
#pragma once

#include <functional>
#include <string>
#include <systemc>
#include <vector>

#include "rtl_models/core/sim_context.h"

namespace wormcast::rtl {

class Watchdog : public sc_core::sc_module {
 public:
  SC_HAS_PROCESS(Watchdog);
  using Describer = std::function<std::vector<std::string>(Cycle)>;
  // in_network: the flit copies inside the network's links and buffers now.
  Watchdog(sc_core::sc_module_name name, SimContext& ctx, Cycle interval, Describer describe,
           std::function<std::uint64_t()> in_network);

  void arm();
  // Called with the report when the watchdog trips, instead of sc_stop().
  void set_on_trip(std::function<void(const std::string& report)> f) { on_trip_ = std::move(f); }
  bool tripped() const { return tripped_; }
  const std::string& report() const { return report_; }

 private:
  void check();
  void trip(const std::string& what);
  SimContext& ctx_;
  Cycle interval_;
  Describer describe_;
  std::function<std::uint64_t()> in_network_;
  std::function<void(const std::string&)> on_trip_;
  bool armed_ = false, tripped_ = false;
  std::uint64_t last_progress_ = 0, last_flit_moves_ = 0;
  std::string report_;
  sc_core::sc_event wake_;
};

}  // namespace wormcast::rtl
