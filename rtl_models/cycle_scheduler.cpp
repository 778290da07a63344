#include "rtl_models/cycle_scheduler.h"

#include <algorithm>
#include <functional>

namespace wormcast::rtl {

CycleScheduler::CycleScheduler(sc_core::sc_module_name name, const Clock& clock)
    : sc_core::sc_module(name), clock_(clock) {
  sc_core::sc_spawn_options opts;
  opts.spawn_method();   // also runs at time 0: clients woken for cycle 0 during elaboration
  opts.set_sensitivity(&ev_);
  sc_core::sc_spawn(sc_core::sc_bind(&CycleScheduler::run, this), "run", &opts);
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

void CycleScheduler::run() {
  const Cycle now = clock_.now();
  pending_ = UINT64_MAX;
  running_ = true;
  base_ = now;
  inline_end_ = base_ + kRing;
  while (!far_.empty() && far_.front().at < base_ + kRing) {
    std::pop_heap(far_.begin(), far_.end(), std::greater<Far>());
    const Far f = far_.back();
    far_.pop_back();
    mark(f.id, f.at);
  }
  run_cycle(now);
  running_ = false;
  inline_end_ = 0;
  request(next_cycle());
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
        const std::size_t id = w * 64 + static_cast<std::size_t>(__builtin_ctzll(set));
        set &= set - 1;
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
            if (want == now) rescan_ = true;
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
