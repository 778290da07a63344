#include "rtl_models/core/cycle_scheduler.h"

#include <algorithm>
#include <functional>
#include <stdexcept>

namespace wormcast::rtl {

CycleScheduler::CycleScheduler(sc_core::sc_module_name name, Clock& clock, const Cycle* horizon)
    : sc_core::sc_module(name), clock_(clock), horizon_(horizon) {
  sc_core::sc_spawn_options opts;
  opts.spawn_method();   // also runs at time 0: clients woken for cycle 0 during elaboration
  opts.set_sensitivity(&ev_);
  self_ = sc_core::sc_spawn(sc_core::sc_bind(&CycleScheduler::run, this), "run", &opts);
}

void Clock::ahead_misuse(const char* what) const {
  throw std::logic_error(std::string("Clock::") + what + " while the cycle scheduler runs ahead of the kernel (cycle " +
                         std::to_string(ahead_) + ", kernel at " + sc_core::sc_time_stamp().to_string() +
                         "): a relative time would land in the wrong cycle; use Clock::from_now or until");
}

// The census of the run-ahead: any process but the scheduler's own and the
// tolerated ones could act between two cycles of the clients.
void CycleScheduler::start_of_simulation() {
  prefetch_ = clients_.size() >= kPrefetchClients;
  if (!off_reason_.empty()) return;
  if (horizon_ == nullptr) {
    off_reason_ = "no run horizon (the scheduler was built without one)";
    return;
  }
  const std::string other = foreign_process();
  if (!other.empty()) {
    off_reason_ = "process " + other + " runs beside the scheduler";
    return;
  }
  run_ahead_ = true;
}

std::string CycleScheduler::foreign_process() const {
  const auto& top = sc_core::sc_get_top_level_objects();
  std::vector<sc_core::sc_object*> todo(top.begin(), top.end());
  while (!todo.empty()) {
    sc_core::sc_object* o = todo.back();
    todo.pop_back();
    const sc_core::sc_process_handle h(o);
    if (h.valid() && h != self_ && std::find(tolerated_.begin(), tolerated_.end(), h) == tolerated_.end())
      return o->name();
    const auto& children = o->get_child_objects();
    todo.insert(todo.end(), children.begin(), children.end());
  }
  return {};
}

void CycleScheduler::every_cycle(const std::string& why) {
  run_ahead_ = false;
  if (off_reason_.empty()) off_reason_ = why;
}

// The first cycle that must not be run ahead: the end of the current
// sc_start (its own time is evaluated in the next one), or the first cycle
// at or after the kernel's next pending activity (0: none may).
Cycle CycleScheduler::ahead_limit() const {
  if (stopped_ || sc_core::sc_pending_activity_at_current_time()) return 0;
  Cycle limit = *horizon_;
  if (sc_core::sc_pending_activity_at_future_time()) {
    const std::uint64_t at = (sc_core::sc_time_stamp() + sc_core::sc_time_to_pending_activity()).value();
    const std::uint64_t period = clock_.period().value();
    limit = std::min<Cycle>(limit, at / period + (at % period != 0 ? 1 : 0));
  }
  return limit;
}

// A cycle run ahead must leave the kernel as it found it at its current
// time: a delta notification would run a process at the kernel's (earlier)
// time.
void CycleScheduler::after_ahead_cycle(Cycle now) {
  if (sc_core::sc_pending_activity_at_current_time())
    throw std::logic_error(std::string(name()) + ": a client made kernel activity at the kernel's current time (" +
                           sc_core::sc_time_stamp().to_string() + ") while the scheduler evaluated cycle " +
                           std::to_string(now) + " ahead of it (run-ahead, cycle_scheduler.h)");
}

int CycleScheduler::add(Client* c) {
  clients_.push_back(Entry{c});
  const std::size_t words = (clients_.size() + 63) / 64;
  if (words != words_) {   // word-major: the existing words keep their places
    words_ = words;
    ring_.resize(words_ * kRing, 0);
  }
  return static_cast<int>(clients_.size() - 1);
}

void CycleScheduler::push(int id, Cycle c) {
  if (c < base_ + kRing) {
    mark(id, c);
  } else {
    far_.push_back(Far{c, id});
    std::push_heap(far_.begin(), far_.end(), std::greater<Far>());
  }
  if (!running_ && sc_core::sc_is_running()) request(c);
}

void CycleScheduler::request(Cycle c) {
  if (c >= pending_) return;
  pending_ = c;
  ev_.notify(clock_.until(c));
}

Cycle CycleScheduler::next_cycle() const {
  if (occupied_ != 0) {
    const unsigned shift = static_cast<unsigned>(base_ % kRing);
    const std::uint64_t rotated = shift == 0 ? occupied_ : (occupied_ >> shift) | (occupied_ << (kRing - shift));
    return base_ + static_cast<Cycle>(__builtin_ctzll(rotated));
  }
  return far_.empty() ? UINT64_MAX : far_.front().at;
}

// A cycle before the one being evaluated would be marked in a ring slot of
// a later cycle and skipped there as stale: the client would never run
// again (found when a source's creation cycle, left in the past by an
// overflow, was asked for). An error instead of a silent stop.
void CycleScheduler::past_wakeup(std::size_t id, Cycle want, Cycle now) const {
  throw std::logic_error(std::string(name()) + ": client " + std::to_string(id) + " evaluated at cycle " +
                         std::to_string(now) + " asked to be evaluated at cycle " + std::to_string(want) +
                         ", which has passed");
}

// One kernel activation: the kernel's cycle, then, running ahead, every
// cycle with work before the limit, in the order (and with the ring
// windows) that one activation per cycle would give.
void CycleScheduler::run() {
  ++activations_;
  const Cycle now = clock_.now();
  pending_ = UINT64_MAX;
  running_ = true;
  enter(now);
  run_cycle(now);
  if (run_ahead_) {
    // The clock is the kernel's again however the batch ends (an error
    // from a client included).
    struct EndAhead {
      Clock& clock;
      ~EndAhead() { clock.end_ahead(); }
    } end_ahead{clock_};
    clock_.clear_touched();
    Cycle limit = ahead_limit();
    for (Cycle c = next_cycle(); c < limit; c = next_cycle()) {
      clock_.set_ahead(c);
      enter(c);
      run_cycle(c);
      after_ahead_cycle(c);
      if (clock_.touched()) {   // a notification at an absolute cycle: the kernel's next activity may be sooner
        clock_.clear_touched();
        limit = ahead_limit();
      }
    }
  }
  running_ = false;
  inline_end_ = 0;
  request(next_cycle());
}

// The ring's window starts at cycle `now`; far wake-ups that fall in it move in.
void CycleScheduler::enter(Cycle now) {
  base_ = now;
  inline_end_ = base_ + kRing;
  while (!far_.empty() && far_.front().at < base_ + kRing) {
    std::pop_heap(far_.begin(), far_.end(), std::greater<Far>());
    const Far f = far_.back();
    far_.pop_back();
    mark(f.id, f.at);
  }
}

// Ascending handles; a word is re-read after each evaluation, so a client
// woken for this cycle meanwhile runs in this pass if its handle is ahead,
// else in the next pass (rescan_).
void CycleScheduler::run_cycle(Cycle now) {
  do {
    rescan_ = false;
    for (std::size_t w = 0; w < words_; ++w) {
      std::uint64_t& set = ring_[slot_word(w, now)];
      while (set != 0) {
        const std::size_t id = lowest_handle(w, set);
        set &= set - 1;
        // A software pipeline over the cycle's clients in this word (large
        // designs: prefetch_): the next one's prefetch hook, the first line
        // of the one after it, the entry of the third; their fetches
        // overlap this evaluation.
        if (prefetch_ && set != 0) {
          clients_[lowest_handle(w, set)].client->prefetch();
          const std::uint64_t later = set & (set - 1);
          if (later != 0) {
            __builtin_prefetch(clients_[lowest_handle(w, later)].client);
            const std::uint64_t third = later & (later - 1);
            if (third != 0) __builtin_prefetch(&clients_[lowest_handle(w, third)]);
          }
        }
        Entry& e = clients_[id];
        if (e.due != now) continue;   // stale: woken earlier and evaluated then
        e.due = UINT64_MAX;
        if (e.last == now) continue;  // evaluated already this cycle (as a Wakeup'd module would skip)
        e.last = now;
        ++evaluations_;
        const Cycle want = e.client->evaluate_cycle(now);
        if (want < e.due) {   // at(id, want), the entry at hand
          e.due = want;
          if (want < inline_end_) {
            mark(static_cast<int>(id), want);
            if (want <= now) {
              if (want < now) past_wakeup(id, want, now);
              rescan_ = true;
            }
          } else {
            push(static_cast<int>(id), want);
          }
        }
      }
    }
  } while (rescan_);
  occupied_ &= ~(std::uint64_t{1} << (now % kRing));
}

}  // namespace wormcast::rtl
