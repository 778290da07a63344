// The step model of seed001 §5.2 (Ch. 4, Figs. 4.12–4.17) for U-torus with
// physical link sharing: "whenever two unicast messages in the same step use
// virtual channels that are multiplexed onto the same physical link, these
// two unicasts each require time equivalent to two message-passing steps,
// rather than one." Which VCs share a wire:
//  * two_way: the VCs of one direction of a link (p and h of a unidirectional
//    torus; p, l and h of one direction of a bidirectional one);
//  * three_way: all VCs of a router pair, both directions (seed001 §5.2's
//    3-way multiplexing; the same as two_way on a unidirectional torus);
//  * none: the lower bound (the plan's own steps).
// Made exact (our reading, docs/seed001.md): a unicast of logical step s (the
// plan's step) takes k steps, k the largest number of step-s unicasts on any
// physical link of its route (1 alone, 2 when it shares with one other, 3
// with two). A node's sends follow one another (one-port): the i-th starts
// when the (i-1)-th ends, the first when the node has received. Plain C++.
#pragma once

#include <vector>

#include "algorithms/torus_multicast.h"

namespace wormcast::algo {

enum class LinkSharing { none, two_way, three_way };

struct SharedSteps {
  int max = 0;                  // the last destination's reception, in steps
  double mean = 0;              // mean over the destinations of their reception
  int shared_unicasts = 0;      // unicasts that share a physical link with another of their step
  int triple_unicasts = 0;      // ... with two others (Fig. 4.17's Type 2 under three_way)
  std::vector<int> received;    // per plan.unicasts entry: when its receiver has it
};

// Throws std::invalid_argument for a unicast the routing cannot route (a
// node outside the network, or to itself) and for a plan whose sender sends
// before it has received.
SharedSteps utorus_shared_steps(const topo::DirectRouting& r, const UTorusPlan& plan, LinkSharing mode);

}  // namespace wormcast::algo
