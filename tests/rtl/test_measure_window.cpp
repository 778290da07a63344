// Warm-up exclusion written once: counters and samples of the measurement
// window [begin, end) take only what happens inside it.
#include <catch2/catch.hpp>

#include "rtl_models/core/measure_window.h"

using namespace wormcast::rtl;

TEST_CASE("WindowedCounter counts events and spans inside the window only") {
  const MeasureWindow w{10, 20};
  WindowedCounter c;
  c.add(w, 9);        // warm-up
  c.add(w, 10);       // first cycle of the window
  c.add(w, 19, 4);    // last cycle, 4 events
  c.add(w, 20);       // after the window
  CHECK(c.value() == 5);
  WindowedCounter s;
  s.add_span(w, 8, 5);     // cycles 8..12: 10, 11, 12 inside
  s.add_span(w, 18, 5);    // cycles 18..22: 18, 19 inside
  s.add_span(w, 0, 100);   // the whole window
  s.add_span(w, 25, 3);    // none
  CHECK(s.value() == 3 + 2 + 10);
}

TEST_CASE("WindowedSamples keeps the values of events that started inside the window") {
  const MeasureWindow w{100, 200};
  WindowedSamples s;
  s.add(w, 99, 7);
  s.add(w, 100, 30);
  s.add(w, 150, 10);
  s.add(w, 200, 1000);
  REQUIRE(s.samples().size() == 2);
  CHECK(s.samples().sum() == 40);
  CHECK(s.samples().max() == 30);
}
