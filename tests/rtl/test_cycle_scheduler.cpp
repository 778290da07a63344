// The clock's activity list (cycle_scheduler.h): a client runs once in each
// cycle it is due, never in a cycle it was only woken for before an earlier
// wake-up replaced it, and in ascending order of handles within a cycle,
// whatever the order of the wake-ups (so what the clients do in a cycle,
// e.g. the packet ids they hand out, does not depend on who woke whom first).
#include <catch2/catch.hpp>

#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "rtl_models/core/cycle_scheduler.h"
#include "rtl_models/core/kernel.h"
#include "rtl_models/core/link.h"

using namespace wormcast;
using namespace wormcast::rtl;

namespace {
struct Recorder : CycleScheduler::Client {
  std::string name;
  const Clock* clock = nullptr;
  std::vector<std::pair<Cycle, std::string>>* log = nullptr;
  std::function<void(Cycle)> on_run;   // what the client does when evaluated
  Cycle ask = UINT64_MAX;               // the next cycle it returns (asks for) once
  Cycle evaluate_cycle(Cycle now) override {
    CHECK(clock->now() == now);
    log->push_back({now, name});
    if (on_run) on_run(now);
    return std::exchange(ask, UINT64_MAX);
  }
};
// Names recorder i "i", points it at the clock and the log, and adds it:
// the handles, in order.
std::vector<int> add_recorders(CycleScheduler& sched, std::vector<Recorder>& r, const Clock& clk,
                               std::vector<std::pair<Cycle, std::string>>& log) {
  std::vector<int> h;
  for (std::size_t i = 0; i < r.size(); ++i) {
    r[i].name = std::to_string(i);
    r[i].clock = &clk;
    r[i].log = &log;
    h.push_back(sched.add(&r[i]));
  }
  return h;
}
// A test's bench (TEST_CASE_METHOD(Bench<N>, ...)): a fresh kernel, a
// clock, a scheduler and N recorders added in order (handles h).
struct FreshKernel {
  FreshKernel() { fresh_kernel(); }
};
template <std::size_t N>
struct Bench : FreshKernel {
  Bench() : r(N) { h = add_recorders(sched, r, clk, log); }
  Clock clk{1000};
  CycleScheduler sched{"sched", clk};
  std::vector<std::pair<Cycle, std::string>> log;
  std::vector<Recorder> r;
  std::vector<int> h;
};
}  // namespace

TEST_CASE("cycle scheduler: one evaluation per due cycle, earlier wake-ups replace later ones") {
  fresh_kernel();
  Clock clk(1000);
  CycleScheduler sched("sched", clk);
  std::vector<std::pair<Cycle, std::string>> log;
  Recorder a, b, c, d, e;
  for (auto* r : {&a, &b, &c, &d, &e}) {
    r->clock = &clk;
    r->log = &log;
  }
  a.name = "a"; b.name = "b"; c.name = "c"; d.name = "d"; e.name = "e";
  const int ia = sched.add(&a), ib = sched.add(&b), ic = sched.add(&c), id = sched.add(&d), ie = sched.add(&e);
  // a: due at 3; a later request (5) changes nothing; at 3 it asks for 4.
  a.on_run = [&](Cycle now) { if (now == 3) sched.at(ia, 4); };
  sched.at(ia, 3);
  sched.at(ia, 5);
  // b: woken far ahead (beyond the 64-cycle ring), then earlier: runs at 70 only.
  sched.at(ib, 100);
  sched.at(ib, 70);
  // c: due at cycle 0, before the simulation starts.
  sched.at(ic, 0);
  // e at 10 wakes d for the same cycle (d runs after it, in that cycle) and
  // itself again (already evaluated: ignored); d then asks for 200 (far).
  e.on_run = [&](Cycle now) {
    sched.at(id, now);
    sched.at(ie, now);
  };
  d.on_run = [&](Cycle now) { if (now == 10) sched.at(id, 200); };
  sched.at(ie, 10);
  sc_core::sc_start(clk.delay(150));
  const std::vector<std::pair<Cycle, std::string>> expected{{0, "c"}, {3, "a"}, {4, "a"}, {10, "e"}, {10, "d"},
                                                            {70, "b"}};
  CHECK(log == expected);
  CHECK(sched.evaluated(ib, 70));
  CHECK_FALSE(sched.evaluated(ib, 100));
  // d's wake-up for 200 is still pending; after it, nothing else runs.
  sc_core::sc_start(clk.delay(100));
  REQUIRE(log.size() == 7);
  CHECK(log.back() == std::make_pair(Cycle{200}, std::string("d")));
  CHECK(sched.evaluations() == 7);
}

TEST_CASE_METHOD(Bench<2>, "cycle scheduler: a wake-up for a cycle a client ran in keeps its later wake-up") {
  // At 10, client 0 runs first and asks for 15; client 1, after it in the
  // same cycle, wakes it for 10 (as a callback might). That request cannot
  // run (once per cycle) and must not cost client 0 its cycle 15. Client 1
  // also wakes itself for 10 from its own evaluation and returns 12: the
  // same rule keeps the 12.
  r[0].on_run = [&](Cycle now) {
    if (now == 10) r[0].ask = 15;
  };
  r[1].on_run = [&](Cycle now) {
    if (now != 10) return;
    sched.at(h[0], now);
    sched.at(h[1], now);
    r[1].ask = 12;
  };
  sched.at(h[0], 10);
  sched.at(h[1], 10);
  sc_core::sc_start(clk.delay(30));
  const std::vector<std::pair<Cycle, std::string>> expected{{10, "0"}, {10, "1"}, {12, "1"}, {15, "0"}};
  CHECK(log == expected);
}

TEST_CASE_METHOD(Bench<2>, "cycle scheduler: a wake-up for a cycle that has passed is an error, not a client lost") {
  // Marked in the ring slot that a later cycle reuses, a past cycle would
  // be skipped there as stale and the client never run again (an endpoint
  // whose source asks for its old creation cycle).
  SECTION("returned by its evaluation") {
    r[0].on_run = [&](Cycle now) {
      if (now == 10) r[0].ask = 7;
    };
  }
  SECTION("asked for by another client") {
    r[1].on_run = [&](Cycle now) {
      if (now == 10) sched.at(h[0], 9);
    };
    sched.at(h[1], 10);
  }
  sched.at(h[0], 10);
  CHECK_THROWS_WITH(sc_core::sc_start(clk.delay(30)), Catch::Contains("asked to be evaluated at cycle") &&
                                                          Catch::Contains("which has passed"));
}

TEST_CASE("Wakeup: a wake-up for a cycle the module ran in keeps its later wake-up") {
  fresh_kernel();
  Clock clk(1000);
  Wakeup wake(clk);
  std::vector<Cycle> runs;
  // The module's method: at 10 it asks for 15, then is woken for 10 again
  // (a callback from another module in the same cycle).
  sc_core::sc_spawn_options opts;
  opts.spawn_method();
  opts.dont_initialize();
  opts.set_sensitivity(&wake.event());
  sc_core::sc_spawn(
      [&] {
        const Cycle now = clk.now();
        if (!wake.begin_cycle(now)) return;
        runs.push_back(now);
        if (now == 10) {
          wake.at(15);
          wake.at(10);
        }
      },
      "module", &opts);
  wake.at(10);
  sc_core::sc_start(clk.delay(30));
  const std::vector<Cycle> expected{10, 15};
  CHECK(runs == expected);
}

TEST_CASE("cycle scheduler: a wake-up from outside between runs is honoured at its cycle") {
  fresh_kernel();
  Clock clk(1000);
  CycleScheduler sched("sched", clk);
  std::vector<std::pair<Cycle, std::string>> log;
  Recorder a;
  a.name = "a";
  a.clock = &clk;
  a.log = &log;
  const int ia = sched.add(&a);
  sc_core::sc_start(clk.delay(20));   // nothing due: nothing runs
  CHECK(log.empty());
  sched.at(ia, 20);                   // the current cycle, not yet evaluated for a
  sched.at(ia, 25);                   // later: changes nothing
  sc_core::sc_start(clk.delay(30));
  const std::vector<std::pair<Cycle, std::string>> expected{{20, "a"}};
  CHECK(log == expected);
}

TEST_CASE_METHOD(Bench<130>, "cycle scheduler: clients of one cycle run in handle order, not wake-up order") {
  // 130 clients: handles in three words of the set.
  // Woken for cycle 5 in descending order, some twice, one first for 7 then 5.
  sched.at(h[129], 7);
  for (int i : {129, 128, 70, 64, 63, 2, 70, 0}) sched.at(h[static_cast<std::size_t>(i)], 5);
  // At cycle 5, client 64 wakes 100 (ahead in this pass) and 1 (behind it:
  // a second pass) for cycle 5, and 3 for cycle 6; client 3 at 6 wakes 2 for 6.
  r[64].on_run = [&](Cycle now) {
    sched.at(h[100], now);
    sched.at(h[1], now);
    sched.at(h[3], now + 1);
  };
  r[3].on_run = [&](Cycle now) { sched.at(h[2], now); };
  sc_core::sc_start(clk.delay(20));
  const std::vector<std::pair<Cycle, std::string>> expected{
      {5, "0"},   {5, "2"}, {5, "63"}, {5, "64"}, {5, "70"}, {5, "100"}, {5, "128"},
      {5, "129"}, {5, "1"}, {6, "3"},  {6, "2"}};
  CHECK(log == expected);
  CHECK(sched.evaluations() == expected.size());
}

TEST_CASE_METHOD(Bench<130>, "cycle scheduler: handles in later words keep their own cycles") {
  // 130 clients: the ring holds each cycle's set word-major (word w of
  // cycle c at w * 64 + c % 64), so a wake-up in word 1 or 2 must land in
  // its cycle's slot and not in a neighbouring cycle's or word's.
  sched.at(h[129], 3);
  sched.at(h[65], 4);
  sched.at(h[1], 4);
  // At 4, client 65 wakes 129 for 68 (beyond the ring: the far heap) and
  // 128 for 5; at 5, 128 wakes 66 and 129 for 6, which replaces 129's 68.
  r[65].on_run = [&](Cycle now) {
    sched.at(h[129], now + 64);
    sched.at(h[128], now + 1);
  };
  r[128].on_run = [&](Cycle now) {
    sched.at(h[66], now + 1);
    sched.at(h[129], now + 1);
  };
  // A returned cycle is a wake-up too: 66 asks for 76 (beyond the ring),
  // 1 for its own cycle 4 (evaluated already: not again).
  r[66].ask = 76;
  r[1].ask = 4;
  sc_core::sc_start(clk.delay(100));
  const std::vector<std::pair<Cycle, std::string>> expected{
      {3, "129"}, {4, "1"}, {4, "65"}, {5, "128"}, {6, "66"}, {6, "129"}, {76, "66"}};
  CHECK(log == expected);
  CHECK(sched.evaluations() == expected.size());
}

// ---------------------------------------------------------------- run-ahead
// (cycle_scheduler.h): with a horizon and no other process, one kernel
// activation evaluates every cycle with work before the horizon, each with
// Clock::now() at that cycle (Recorder checks it), in the order one
// activation per cycle gives.

namespace {
struct Pattern {
  std::vector<std::pair<Cycle, std::string>> log;
  std::uint64_t activations = 0;
  bool ran_ahead = false;
};

// Two clients: "0" every 3 cycles up to 60, then at 200 (beyond the ring);
// "1" at 7, and woken by "0" for cycle 30. Run to the horizon 150 and on to
// 250.
Pattern run_pattern(bool ahead) {
  fresh_kernel();
  Clock clk(1000);
  Cycle horizon = 0;
  CycleScheduler sched("sched", clk, &horizon);
  if (!ahead) sched.every_cycle("test: one activation per cycle");
  Pattern p;
  std::vector<Recorder> r(2);
  const std::vector<int> h = add_recorders(sched, r, clk, p.log);
  r[0].on_run = [&](Cycle now) {
    r[0].ask = now < 60 ? now + 3 : (now < 200 ? 200 : UINT64_MAX);
    if (now == 12) sched.at(h[1], 30);
  };
  sched.at(h[0], 0);
  sched.at(h[1], 7);
  horizon = 150;
  sc_core::sc_start(clk.delay(150));
  CHECK(clk.now() == 150);
  for (const auto& e : p.log) CHECK(e.first < 150);
  horizon = 250;
  sc_core::sc_start(clk.delay(100));
  p.activations = sched.activations();
  p.ran_ahead = sched.run_ahead();
  return p;
}
}  // namespace

TEST_CASE("cycle scheduler: run-ahead evaluates the same cycles in the same order in fewer activations") {
  const Pattern per_cycle = run_pattern(false);
  const Pattern ahead = run_pattern(true);
  CHECK_FALSE(per_cycle.ran_ahead);
  CHECK(ahead.ran_ahead);
  // "0" at 0, 3, ..., 60 (21 cycles) and 200; "1" at 7 and 30.
  REQUIRE(per_cycle.log.size() == 24);
  CHECK(ahead.log == per_cycle.log);
  CHECK(per_cycle.activations == 23);   // one per cycle with work (30 has both)
  // The activation at time 0 (the scheduler's initialisation) runs cycle 0
  // and, ahead, the rest of the first sc_start; one more runs 200.
  CHECK(ahead.activations == 2);
}

namespace {
// A process beside the scheduler: at its own time (set by `notify_at`, in
// picoseconds) it records how many client evaluations it sees.
struct Observer : sc_core::sc_module {
  sc_core::sc_event ev;
  const std::vector<std::pair<Cycle, std::string>>* log = nullptr;
  std::size_t seen = 0;
  SC_HAS_PROCESS(Observer);
  explicit Observer(sc_core::sc_module_name n) : sc_core::sc_module(n) {
    SC_METHOD(look);
    sensitive << ev;
    dont_initialize();
  }
  void look() { seen = log->size(); }
};

// An event and no process (the census of the run-ahead counts processes).
struct EventHolder : sc_core::sc_module {
  sc_core::sc_event ev;
  explicit EventHolder(sc_core::sc_module_name n) : sc_core::sc_module(n) {}
};
}  // namespace

TEST_CASE("cycle scheduler: run-ahead stops before a tolerated process's activity, and is off beside others") {
  for (const bool tolerated : {true, false}) {
    INFO("tolerated " << tolerated);
    fresh_kernel();
    Clock clk(1000);
    Cycle horizon = 0;
    CycleScheduler sched("sched", clk, &horizon);
    Observer obs("obs");
    if (tolerated) sched.tolerate(sc_core::sc_process_handle(sc_core::sc_find_object("obs.look")));
    std::vector<std::pair<Cycle, std::string>> log;
    obs.log = &log;
    std::vector<Recorder> r(1);
    const std::vector<int> h = add_recorders(sched, r, clk, log);
    r[0].on_run = [&](Cycle now) { r[0].ask = now < 99 ? now + 1 : UINT64_MAX; };   // every cycle 0..99
    sched.at(h[0], 0);
    obs.ev.notify(sc_core::sc_time(40500, sc_core::SC_PS));   // half-way through cycle 40
    horizon = 100;
    sc_core::sc_start(clk.delay(100));
    CHECK(sched.run_ahead() == tolerated);
    if (!tolerated) CHECK_THAT(sched.run_ahead_off_reason(), Catch::Contains("obs.look"));
    CHECK(log.size() == 100);
    CHECK(obs.seen == 41);   // cycles 0..40, none after: the kernel was at 40.5 when it looked
    if (tolerated) CHECK(sched.activations() == 2);   // 0..40 (from time 0); 41..99
  }
}

TEST_CASE("cycle scheduler: a client that makes kernel activity while run ahead is refused, not misplaced") {
  for (const bool delta : {false, true}) {
    INFO((delta ? "a delta notification" : "a relative delay"));
    fresh_kernel();
    Clock clk(1000);
    Cycle horizon = 0;
    CycleScheduler sched("sched", clk, &horizon);
    EventHolder holder("holder");   // the event in a module: a top-level one outlives its kernel after an error
    sc_core::sc_event& ev = holder.ev;
    std::vector<std::pair<Cycle, std::string>> log;
    std::vector<Recorder> r(1);
    const std::vector<int> h = add_recorders(sched, r, clk, log);
    r[0].on_run = [&](Cycle now) {
      if (now == 0) r[0].ask = 10;
      if (now == 10) {   // run ahead: the kernel is still at cycle 0
        if (delta) ev.notify(sc_core::SC_ZERO_TIME);
        else ev.notify(clk.delay(5));
      }
    };
    sched.at(h[0], 0);
    horizon = 50;
    CHECK_THROWS_WITH(sc_core::sc_start(clk.delay(50)),
                      Catch::Contains(delta ? "ahead of it (run-ahead" : "runs ahead of the kernel"));
  }
  // At an absolute cycle (Clock::until, from_now) it is where it belongs:
  // the batch ends before it.
  fresh_kernel();
  Clock clk(1000);
  Cycle horizon = 0;
  CycleScheduler sched("sched", clk, &horizon);
  Observer obs("obs");
  sched.tolerate(sc_core::sc_process_handle(sc_core::sc_find_object("obs.look")));
  std::vector<std::pair<Cycle, std::string>> log;
  obs.log = &log;
  std::vector<Recorder> r(1);
  const std::vector<int> h = add_recorders(sched, r, clk, log);
  r[0].on_run = [&](Cycle now) {
    r[0].ask = now < 99 ? now + 1 : UINT64_MAX;
    if (now == 10) obs.ev.notify(clk.from_now(20));   // cycle 30, from a cycle run ahead
  };
  sched.at(h[0], 0);
  horizon = 100;
  sc_core::sc_start(clk.delay(100));
  CHECK(log.size() == 100);
  // At time 30 the observer and the scheduler's cycle 30 share a time step:
  // it saw cycles 0..29, and 30 too if the kernel ran the scheduler first.
  CHECK(obs.seen >= 30);
  CHECK(obs.seen <= 31);
}
