// The unit-step model of NI multicast (seed000 §4.2-4.5, seed002 §2.5-4) on
// hand-built trees: the papers' worked examples, step by step.
#include <catch2/catch.hpp>

#include <stdexcept>
#include <vector>

#include "algorithms/kbinomial_tree.h"
#include "algorithms/step_model.h"

using namespace wormcast::algo;
using Catch::Matchers::Contains;
using Children = std::vector<std::vector<std::size_t>>;
using Steps = std::vector<unsigned>;

namespace {
// Fig. 5(a): binomial tree over 3 destinations; 0 sends to 1 then 2, 1 to 3.
const Children kBinomial4 = {{1, 2}, {3}, {}, {}};
// Fig. 5(b): linear tree 0 -> 1 -> 2 -> 3.
const Children kLinear4 = {{1}, {2}, {3}, {}};
// Fig. 8: binomial tree over 7 destinations, laid out as Fig. 11 places it.
const Children kBinomial8 = {{4, 2, 1}, {}, {3}, {}, {6, 5}, {}, {7}, {}};
}  // namespace

TEST_CASE("Fig. 5 / seed000 Fig. 7: 3 packets to 3 destinations, binomial 6 steps", "[step_model][golden]") {
  const StepSchedule s = simulate_steps(kBinomial4, 0, 3);
  CHECK(s.total_steps == 6);
  // Root alternates children: p1 to 1,2 in steps 1,2; p2 in 3,4; p3 in 5,6.
  CHECK(s.receive_step[1] == Steps{1, 3, 5});
  CHECK(s.receive_step[2] == Steps{2, 4, 6});
  CHECK(s.receive_step[3] == Steps{2, 4, 6});
  CHECK(s.sends_per_step == Steps{0, 1, 2, 1, 2, 1, 2});
  CHECK(s.receptions_per_step == s.sends_per_step);
  CHECK(s.completion_step == Steps{2, 4, 6});  // Theorem 1: lag = 2 children of the root
}

TEST_CASE("Fig. 5 / seed000 Fig. 7: 3 packets to 3 destinations, linear 5 steps", "[step_model][golden]") {
  const StepSchedule s = simulate_steps(kLinear4, 0, 3);
  CHECK(s.total_steps == 5);
  CHECK(s.receive_step[1] == Steps{1, 2, 3});
  CHECK(s.receive_step[3] == Steps{3, 4, 5});
  CHECK(s.sends_per_step == Steps{0, 1, 2, 3, 2, 1});
}

TEST_CASE("Fig. 8: 3 packets to 7 destinations on a binomial tree, 9 steps, lag 3", "[step_model][golden]") {
  const StepSchedule s = simulate_steps(kBinomial8, 0, 3);
  CHECK(s.total_steps == 9);
  CHECK(s.completion_step == Steps{3, 6, 9});
  CHECK(s.receive_step[4] == Steps{1, 4, 7});
  CHECK(s.receive_step[7] == Steps{3, 6, 9});
  CHECK(s.receive_step[1] == Steps{3, 6, 9});
  // The same tree is what the construction builds for n = 8, k = 3.
  CHECK(build_kbinomial_tree(8, 3).children == kBinomial8);
}

TEST_CASE("FCFS sends the whole message to one child before the next", "[step_model]") {
  // Root: p1..p3 to child 1 in steps 1-3, then to child 2 in 4-6; child 1
  // forwards each packet the step after it arrives.
  const StepSchedule s = simulate_steps(kBinomial4, 0, 3, NiDiscipline::fcfs);
  CHECK(s.receive_step[1] == Steps{1, 2, 3});
  CHECK(s.receive_step[2] == Steps{4, 5, 6});
  CHECK(s.receive_step[3] == Steps{2, 3, 4});
  CHECK(s.total_steps == 6);
  // On a chain both disciplines coincide.
  CHECK(simulate_steps(kLinear4, 0, 3, NiDiscipline::fcfs).receive_step ==
        simulate_steps(kLinear4, 0, 3).receive_step);
}

TEST_CASE("a relay that is still busy delays the next packet (send after previous send)", "[step_model]") {
  // Root with one child that has 3 children: the child gets p2 in step 2 but
  // is sending p1 until step 4, so p2 leaves it in steps 5, 6, 7.
  const Children t = {{1}, {2, 3, 4}, {}, {}, {}};
  const StepSchedule s = simulate_steps(t, 0, 2);
  CHECK(s.receive_step[1] == Steps{1, 2});
  CHECK(s.receive_step[2] == Steps{2, 5});
  CHECK(s.receive_step[4] == Steps{4, 7});
  CHECK(s.total_steps == 7);
}

TEST_CASE("node numbering and root are free, a lone root takes 0 steps", "[step_model]") {
  const Children t = {{}, {}, {1, 0}};  // root 2
  const StepSchedule s = simulate_steps(t, 2, 2);
  CHECK(s.receive_step[1] == Steps{1, 3});
  CHECK(s.receive_step[0] == Steps{2, 4});
  CHECK(s.receive_step[2] == Steps{0, 0});
  CHECK(simulate_steps({{}}, 0, 3).total_steps == 0);
}

TEST_CASE("step model bad input", "[step_model][errors]") {
  CHECK_THROWS_WITH(simulate_steps(kLinear4, 0, 0), Contains("m = 0"));
  CHECK_THROWS_WITH(simulate_steps(kLinear4, 4, 1), Contains("root 4"));
  CHECK_THROWS_WITH(simulate_steps({{1, 2}, {2}, {}}, 0, 1), Contains("node 2 is reached twice"));
  CHECK_THROWS_WITH(simulate_steps({{1}, {0}}, 0, 1), Contains("reached twice"));
  CHECK_THROWS_WITH(simulate_steps({{1}, {}, {}}, 0, 1), Contains("node 2 is not reachable"));
  CHECK_THROWS_WITH(simulate_steps({{5}, {}}, 0, 1), Contains("child 5"));
}
