#include "testbenches/app/run_loop.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstdio>

namespace wormcast::tb {

void RunLoop::advance_to(Cycle target) {
  ctx_.stream_horizon = target;   // streams end before the results can be read (sim_context.h)
  if (target > now_) sc_core::sc_start(ctx_.clock.delay(target - now_));
  now_ = target;
  if (load_on_) backlog_.push_back({now_, workload_.work_count(ctx_)});
  if (progress_) print_progress();
}

void RunLoop::print_progress() {
  ProgressState s;
  s.phase = phase_;
  s.now = now_;
  s.measure_end = measure_end_;
  s.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  s.work = workload_.work_count(ctx_);
  s.unit = workload_.work_unit();
  s.in_flight = ctx_.ledger.outstanding();
  s.trials = workload_.of_trials();
  // Padded so that a shorter line overwrites all of the one before.
  const std::string line = progress_line(s);
  std::fprintf(stderr, "\r%-100s", line.c_str());
}

// The evidence besides the measured work's (saturation.h); a deadlock is
// the watchdog's report, not saturation.
void RunLoop::judge(LoopOutcome& out, Cycle load_end) {
  SaturationInputs in;
  in.measured_incomplete = !out.saturation.empty();   // set by run() from the workload, with its account
  if (in.measured_incomplete) in.measured_detail = out.saturation.front().detail;
  in.backlog = std::move(backlog_);
  in.unit = workload_.work_unit();
  in.window_begin = sim_.warmup;
  in.window_end = measure_end_;
  in.load_end = load_end;
  in.ended_by_drain_limit = !out.drained && !stopped();
  in.packets_left = ctx_.ledger.outstanding();
  in.messages_left = ctx_.messages.outstanding();
  out.saturation = judge_saturation(in);
  out.saturated = !out.saturation.empty();
}

LoopOutcome RunLoop::run() {
  LoopOutcome out;
  measure_end_ = sim_.warmup + sim_.measure;
  const Cycle hard_end = measure_end_ + sim_.drain_limit;
  const Cycle chunk = std::max<Cycle>(1000, measure_end_ / 100);
  started_ = std::chrono::steady_clock::now();
  try {
    sc_core::sc_start(sc_core::SC_ZERO_TIME);
    backlog_.push_back({0, workload_.work_count(ctx_)});
    // Warm-up and measurement window. The network's counters are marked at
    // the end of the warm-up and when the measured work is done (below), so
    // that link utilisation covers the measured period with the load on.
    if (sim_.warmup == 0) net_.mark_window_begin(0);
    while (now_ < measure_end_ && !stopped()) {
      const bool warming = now_ < sim_.warmup;
      phase_ = warming ? RunPhase::warmup : RunPhase::measuring;
      advance_to(std::min(warming ? sim_.warmup : measure_end_, now_ + chunk));
      if (warming && now_ == sim_.warmup) net_.mark_window_begin(now_);
    }
    spdlog::debug("cycle {}: measurement window closed", now_);
    // Keep the load on until the measured work has completed, or all of it
    // that was created (a source that stopped creating makes the run
    // saturated, measured_pending, but waiting longer changes nothing).
    phase_ = RunPhase::waiting;
    while (!stopped() && workload_.measured_outstanding(ctx_) && now_ < hard_end)
      advance_to(std::min(hard_end, now_ + 1000));
    if (!stopped()) net_.mark_window_end(now_);
    const bool pending = workload_.measured_pending(ctx_);
    if (pending) out.saturation.push_back({"measured_incomplete", workload_.pending_work(ctx_)});
    // Stop creating work and drain, so every packet can be checked for delivery.
    spdlog::debug("cycle {}: measured work {}; stopping creation, draining {} packets", now_,
                  pending ? "NOT complete (saturated)" : "complete", ctx_.ledger.outstanding());
    const Cycle load_end = now_;
    load_on_ = false;
    workload_.stop_creating_at(now_);
    phase_ = RunPhase::draining;
    while (!stopped() && !ctx_.idle() && now_ < hard_end) advance_to(std::min(hard_end, now_ + 1000));
    out.drained = ctx_.idle();
    spdlog::debug("cycle {}: {}", now_, out.drained ? "network drained" : "drain limit reached");
    judge(out, load_end);
  } catch (const std::exception& e) {
    out.error = e.what();
  }
  if (progress_) std::fprintf(stderr, "\n");
  out.now = now_;
  return out;
}

}  // namespace wormcast::tb
