// One activity list per clock, evaluated by one SystemC process per cycle
// that has work (docs/design.md principle 2; docs/performance.md). Modules whose
// evaluation order within a cycle cannot matter (they interact only through
// links, whose flits and credits take at least a cycle) register here
// instead of owning an sc_event each: a wake-up is then a push onto the list
// of its cycle, not an entry in SystemC's timed-event queue, and a busy
// cycle costs one process activation for all of them.
//
// A module's wake-ups keep the Wakeup rules (link.h): a request for a cycle
// at or after the one already due, or for one it ran in, costs nothing; a
// module runs at most once per cycle. Modules of one cycle run in ascending
// order of their handles (registration order), whoever woke them and in
// whatever order: what a module does in a cycle (the packet ids it hands
// out, say) then depends on the model only, not on which wake-ups happened
// to come first. A module woken for the cycle being evaluated (an
// Endpoint::inject from another module's callback) runs later in that
// cycle: in the pass under way if its handle is still ahead, else in a
// further pass over the cycle's set.
//
// Run-ahead (docs/performance.md, "Cycles without the kernel"): when the
// design's only processes are this scheduler's and tolerated observers
// (the watchdog), nothing but the clients can act between two of their
// cycles, so one activation evaluates every cycle that has work up to the
// kernel's next pending activity or the end of the current sc_start
// (SimContext::stream_horizon, set by the run loop), whichever is first,
// without a round trip through SystemC's timed-event queue per cycle. The
// clients see the cycle through Clock::now(); their results are identical.
// Off when the census at the start of simulation finds another process
// (host and NI software, SC_METHODs of modules without the scheduler,
// workload threads), when a module is VCD-traced (a trace samples at every
// kernel time step), or when switched off (sim.run_ahead). While running
// ahead, a client that creates kernel activity is caught: a relative delay
// (Clock::delay) or a delta notification is refused with an error, an
// absolute one (Clock::until) shortens the batch.
#pragma once

#include <cstdint>
#include <string>
#include <systemc>
#include <vector>

#include "rtl_models/core/clock.h"

namespace wormcast::rtl {

class CycleScheduler : public sc_core::sc_module {
 public:
  // What the scheduler calls in each cycle a client is due. It returns the
  // next cycle it asks to be evaluated in (UINT64_MAX: none), as an at()
  // at the end of the evaluation would: most evaluations end with such a
  // request, and the scheduler makes it with the client's entry at hand.
  class Client {
   public:
    virtual ~Client() = default;
    virtual Cycle evaluate_cycle(Cycle now) = 0;
    // A hint, called just before the evaluation of the client due ahead of
    // this one in the same cycle: start fetching the lines the evaluation
    // will read first (the scheduler has fetched the object's first line
    // one evaluation earlier). Must change nothing.
    virtual void prefetch() const {}
  };

  // `horizon`: the cycle at which the current sc_start ends (cycles before
  // it may be run ahead; 0 or null: never run ahead).
  CycleScheduler(sc_core::sc_module_name name, Clock& clock, const Cycle* horizon = nullptr);

  // Register a client (during elaboration); returns its handle for at().
  int add(Client* c);
  // Evaluate client `id` at cycle c (c >= the current cycle), unless it is
  // already due at or before c. A wake-up for a cycle the client has been
  // evaluated in already is ignored (a client runs once per cycle) and
  // leaves its pending later wake-up as it is (replacing it with the
  // ignored one would lose the later one).
  void at(int id, Cycle c) {
    Entry& e = clients_[static_cast<std::size_t>(id)];
    if (c >= e.due || c == e.last) return;
    e.due = c;
    if (c < inline_end_) {   // from a client's evaluation (the common case): inline
      if (c < base_) past_wakeup(static_cast<std::size_t>(id), c, base_);
      mark(id, c);
      if (c == base_) rescan_ = true;      // woken for the cycle being evaluated
      return;
    }
    push(id, c);
  }
  // Has client `id` been evaluated at cycle `now` already?
  bool evaluated(int id, Cycle now) const { return clients_[static_cast<std::size_t>(id)].last == now; }
  // Client evaluations so far (for the profile figures).
  std::uint64_t evaluations() const { return evaluations_; }
  // Kernel activations of the scheduler so far (each runs one or more cycles).
  std::uint64_t activations() const { return activations_; }

  // Run-ahead (see the top of this file). `p` is a process that may run
  // beside the scheduler without stopping the run-ahead: one that acts only
  // at its own timed events and notifies at absolute cycles (the watchdog).
  void tolerate(const sc_core::sc_process_handle& p) { tolerated_.push_back(p); }
  // Evaluate every cycle in a kernel activation of its own (a VCD trace, an
  // option); `why` is kept for run_ahead_off_reason().
  void every_cycle(const std::string& why);
  // The run has been stopped (the watchdog's sc_stop): no cycle is run
  // ahead of the kernel any more, so nothing happens after the stop that
  // one activation per cycle would not do.
  void stop_running_ahead() { stopped_ = true; }
  // After the start of simulation: does it run ahead, and if not, why not?
  bool run_ahead() const { return run_ahead_; }
  const std::string& run_ahead_off_reason() const { return off_reason_; }

 private:
  static constexpr Cycle kRing = 64;   // cycles ahead held in the ring; later ones in `far_`
  // Client `id` is due in ring slot c % kRing (a set bit; a stale one, left
  // by a wake-up that an earlier one replaced, is skipped when its cycle runs).
  void mark(int id, Cycle c) {
    ring_[slot_word(static_cast<std::size_t>(id) >> 6, c)] |= std::uint64_t{1} << (static_cast<unsigned>(id) & 63u);
    occupied_ |= std::uint64_t{1} << (c % kRing);
  }
  // The handle of the lowest set bit of word w (bits != 0) of a cycle's set.
  static std::size_t lowest_handle(std::size_t w, std::uint64_t bits) {
    return w * 64 + static_cast<std::size_t>(__builtin_ctzll(bits));
  }
  // Word w (handles 64w .. 64w+63) of cycle c's set in ring_.
  static std::size_t slot_word(std::size_t w, Cycle c) { return w * kRing + static_cast<std::size_t>(c % kRing); }
  struct Entry {
    Client* client;
    Cycle due = UINT64_MAX;    // earliest cycle it is woken for
    Cycle last = UINT64_MAX;   // last cycle it was evaluated
  };
  struct Far {
    Cycle at;
    int id;
    bool operator>(const Far& o) const { return at > o.at; }
  };
  void push(int id, Cycle c);
  void run();
  void enter(Cycle now);
  void run_cycle(Cycle now);
  Cycle ahead_limit() const;
  void after_ahead_cycle(Cycle now);
  void start_of_simulation() override;
  std::string foreign_process() const;
  Cycle next_cycle() const;
  void request(Cycle c);
  [[noreturn]] void past_wakeup(std::size_t id, Cycle want, Cycle now) const;

  Clock& clock_;
  const Cycle* horizon_;
  std::vector<Entry> clients_;
  // The clients woken for cycle c, a bit per handle: word w of its set is
  // ring_[slot_word(w, c)]. One block, word-major: a wake-up's mark is one
  // address computation from the handle and the cycle, without a slot's
  // own vector to load first.
  std::vector<std::uint64_t> ring_;
  std::size_t words_ = 0;                // words per cycle's set
  // base_ + kRing while the process runs (a wake-up before it is marked
  // inline), 0 otherwise: one comparison in at() instead of two.
  Cycle inline_end_ = 0;
  std::uint64_t occupied_ = 0;           // bit c % kRing: ring_ slot holds cycle c's list
  Cycle base_ = 0;                       // ring slots hold cycles [base_, base_ + kRing)
  std::vector<Far> far_;                 // min-heap of wake-ups at or after base_ + kRing
  Cycle pending_ = UINT64_MAX;           // cycle the process is notified for
  bool running_ = false;
  bool stopped_ = false;   // stop_running_ahead
  bool rescan_ = false;                  // a client was woken for the cycle being evaluated
  // Prefetch ahead of each evaluation (Client::prefetch) in designs of at
  // least kPrefetchClients clients: on the 32x32 mesh (2,048 clients) the
  // clients' state does not stay in the L2 between two of their
  // evaluations, and prefetching saves more than its instructions cost; on
  // the 8x8 mesh (128) everything stays in the caches and it costs ~4 %
  // (docs/performance.md). Set at the start of simulation.
  static constexpr std::size_t kPrefetchClients = 1024;
  bool prefetch_ = false;
  std::uint64_t evaluations_ = 0;
  std::uint64_t activations_ = 0;
  bool run_ahead_ = false;
  std::string off_reason_;
  std::vector<sc_core::sc_process_handle> tolerated_;
  sc_core::sc_process_handle self_;
  sc_core::sc_event ev_;
};

// Puts module `m` on its clock: on the activity list `sched` when the
// network made one, as `client` (m itself; passed separately because
// modules inherit Client privately; returns the handle for at()), else on a
// method of its own running m->tick on `wake` (returns -1). Call at the end
// of elaboration.
template <class M>
int start_on_clock(CycleScheduler* sched, CycleScheduler::Client* client, M* m, const sc_core::sc_event& wake,
                   void (M::*tick)()) {
  if (sched != nullptr) return sched->add(client);
  sc_core::sc_spawn_options opts;
  opts.spawn_method();
  opts.dont_initialize();
  opts.set_sensitivity(&wake);
  sc_core::sc_spawn(sc_core::sc_bind(tick, m), sc_core::sc_gen_unique_name("tick"), &opts);
  return -1;
}

}  // namespace wormcast::rtl
