// The analytical unit-step model of NI-based multicast (seed000 §4.1-4.5,
// seed002 §2.5, §3, §4): time advances in steps, one step being one packet
// going from one NI to another (t_step = t_ns + propagation + t_nr). It is
// the "step" clock of docs/design.md principle 5 and reproduces the papers' step
// counts (Figs. 5, 8, 9 of seed002 = Figs. 7-9 of seed000) exactly.
//
// Send-order rule (the papers' Fig. 6/7 pseudo-code, made exact):
//  * every node sends at most one packet copy per step (the coprocessor
//    injects one copy at a time);
//  * a node works through a FIXED sequence of (packet, child) sends:
//      FPFS (default, seed002 Fig. 7): packet 1 to children 1..c, then
//        packet 2 to children 1..c, ...;
//      FCFS (seed002 Fig. 6): packets 1..m to child 1, then to child 2, ...;
//  * a send happens in the earliest step that is (a) after the node's
//    previous send and (b) after the step in which the node received that
//    packet (a packet received in step t can be forwarded from step t+1);
//    the source holds all packets at step 0;
//  * a copy sent in step t is received in step t.
// No contention between sends is modelled here; that is the cycle-accurate
// model's job.
#pragma once

#include <cstddef>
#include <vector>

namespace wormcast::algo {

enum class NiDiscipline {
  fpfs,  // First-Packet-First-Served (the one both papers use)
  fcfs,  // First-Child-First-Served (described to be rejected; kept for comparison)
};

struct StepSchedule {
  std::size_t packets = 0;
  unsigned total_steps = 0;  // step in which the last copy is received (T_m)
  // receive_step[node][p]: step in which node gets packet p+1 (0 for the root).
  std::vector<std::vector<unsigned>> receive_step;
  // completion_step[p]: T_{p+1}, when every node holds packet p+1.
  std::vector<unsigned> completion_step;
  // Indexed by step 0..total_steps (entry 0 is always 0). In this model
  // every copy is received in the step it is sent, so the two agree; both
  // are kept so that callers comparing with the cycle model name what they count.
  std::vector<unsigned> sends_per_step;
  std::vector<unsigned> receptions_per_step;
};

// Runs the model on a tree given as child lists in send order (node ids
// 0..children.size()-1, any numbering) rooted at `root`, for `packets`
// packets. Throws std::invalid_argument if packets < 1, root is out of
// range, or the lists are not a tree spanning all nodes from root (a node
// listed twice, a cycle, an out-of-range child, an unreachable node).
StepSchedule simulate_steps(const std::vector<std::vector<std::size_t>>& children, std::size_t root,
                            std::size_t packets, NiDiscipline discipline = NiDiscipline::fpfs);

}  // namespace wormcast::algo
