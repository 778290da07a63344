#include "rtl_models/core/watchdog.h"

#include "rtl_models/core/cycle_scheduler.h"

namespace wormcast::rtl {

Watchdog::Watchdog(sc_core::sc_module_name name, SimContext& ctx, Cycle interval, Describer describe,
                   std::function<std::uint64_t()> in_network)
    : sc_core::sc_module(name),
      ctx_(ctx),
      interval_(interval),
      describe_(std::move(describe)),
      in_network_(std::move(in_network)) {
  if (interval_ < 1) throw std::invalid_argument("watchdog interval must be >= 1 cycle");
  SC_METHOD(check);
  sensitive << wake_;
  dont_initialize();
  // It acts only at its own timed events and arms at an absolute cycle
  // (from_now): the scheduler may run ahead beside it.
  if (ctx_.scheduler != nullptr) ctx_.scheduler->tolerate(sc_core::sc_get_current_process_handle());
}

void Watchdog::arm() {
  if (armed_ || tripped_) return;
  armed_ = true;
  last_progress_ = ctx_.progress();
  last_flit_moves_ = ctx_.flits.moves;
  wake_.notify(ctx_.clock.from_now(interval_));   // armed by a client, maybe in a cycle run ahead
}

void Watchdog::check() {
  if (ctx_.idle()) {   // nothing outstanding: sleep until re-armed
    armed_ = false;
    return;
  }
  if (ctx_.progress() == last_progress_) return trip("");
  // Every flit transfer counts a move at least once per interval (a stream
  // is shorter than the interval, SimContext::stream_max_flits): flits in
  // the network with no move are stuck, however busy the nodes are.
  if (ctx_.flits.moves == last_flit_moves_) {
    const std::uint64_t stuck = in_network_();
    if (stuck > 0) return trip(" while " + std::to_string(stuck) + " flits sat in the network (the nodes kept working)");
  }
  last_progress_ = ctx_.progress();
  last_flit_moves_ = ctx_.flits.moves;
  wake_.notify(ctx_.clock.delay(interval_));
}

void Watchdog::trip(const std::string& what) {   // what: "" or how the nodes fared
  tripped_ = true;
  armed_ = false;
  const Cycle now = ctx_.clock.now();
  report_ = "no flit moved for " + std::to_string(interval_) + " cycles (until cycle " + std::to_string(now) + ")" +
            what + ", with " +
            std::to_string(ctx_.ledger.outstanding()) + " packets and " + std::to_string(ctx_.messages.outstanding()) +
            " messages outstanding: deadlock or livelock.\n";
  report_ += "Blocked resources:\n";
  for (const auto& line : describe_(now)) report_ += "  " + line + "\n";
  report_ += "Outstanding packets (first 20):\n";
  for (const auto& line : ctx_.ledger.describe_outstanding(20)) report_ += "  " + line + "\n";
  for (const auto& line : ctx_.messages.describe_outstanding(20)) report_ += "  " + line + "\n";
  if (ctx_.scheduler != nullptr) ctx_.scheduler->stop_running_ahead();
  if (on_trip_) on_trip_(report_);
  else sc_core::sc_stop();
}

}  // namespace wormcast::rtl
