// Multi-phase multicast with multidestination worms, seed000 §5.2.5 (§5.7):
// the worms are sorted by decreasing number of destinations (stable, so equal
// worms keep the order of their derivation), the source sends the first, and
// in every later phase a set of senders take the next worms in turn.
//  * Greedy: the source and every destination covered so far send.
//  * Less-Greedy (LG): the source and one destination per covered switch send.
// Sender order (§10 item 13, matches Figs. 15-16): the source first, then
// destinations (Greedy) or switches (LG) in the order they were covered:
// by phase, then by the order worms were handed out in that phase, then by the
// worm's visiting order. LG's sender for a switch is its first destination
// covered. The source speaks for its own switch under LG: destinations on the
// source's switch never send (so at most one worm starts per switch per phase).
//
// The local rule (docs/design.md principle 1): every worm carries a RelayWorm
// payload telling each of its destinations that must relay which worms to
// send, each with its own nested payload. A relay sends its list in order, one
// per phase starting the phase after it received; it never reads the global
// plan. relay_plan() builds the source's list from a Schedule.
#pragma once

#include <vector>

#include "algorithms/poc.h"
#include "topologies/topology.h"
#include "topologies/updown.h"

namespace wormcast::algo {

enum class Scheduler { greedy, less_greedy };   // less_greedy: the simulated scheme (default)

struct ScheduledWorm {
  topo::NodeId sender = -1;
  int phase = 0;                            // 1-based
  std::vector<topo::NodeId> destinations;   // visiting order
  PathWorm route;                           // filled by plan_*; empty path from schedule_worms
};

struct Schedule {
  topo::NodeId source = -1;
  int phases = 0;
  std::vector<ScheduledWorm> worms;         // by phase, then sender order
};

// Schedules the given worms (destination lists) from source. Throws
// std::invalid_argument if a worm is empty or names a node outside t.
Schedule schedule_worms(const topo::Topology& t, topo::NodeId source,
                        std::vector<std::vector<topo::NodeId>> worms, Scheduler s);

// Path-based (POC worms, poc.h) and SSR (ssr.h) multi-phase plans with routes.
Schedule plan_path_based(const topo::Topology& t, const topo::UpDownRouting& r, topo::NodeId source,
                         const std::vector<topo::NodeId>& dests, Scheduler s = Scheduler::less_greedy,
                         const PocOptions& opt = {});
Schedule plan_ssr(const topo::Topology& t, const topo::UpDownRouting& r, topo::NodeId source,
                  const std::vector<topo::NodeId>& dests, Scheduler s = Scheduler::less_greedy,
                  const PocOptions& opt = {});

// ---- local rule -------------------------------------------------------------
struct RelayTask;
// What travels with a worm: its destinations and, for those that relay, their tasks.
struct RelayWorm {
  std::vector<topo::NodeId> destinations;
  std::vector<RelayTask> tasks;   // at most one per destination, in visiting order
};
struct RelayTask {
  topo::NodeId relay = -1;
  std::vector<RelayWorm> worms;   // sent one per phase, in this order
};

// The source's task (relay == source). Throws std::logic_error if some sender's
// worms are not in consecutive phases right after it got the message (true of
// every Greedy/LG schedule; the local rule depends on it).
RelayTask relay_plan(const Schedule& s);
// Local rule at node `me` on receiving `got`: the worms it sends next, in
// order; the i-th (0-based) leaves i+1 phases after the phase it received in.
std::vector<RelayWorm> relay_sends(const RelayWorm& got, topo::NodeId me);
// Node ids a payload carries (its destinations and all nested ones): the size
// of "what relays need".
int payload_node_ids(const RelayWorm& w);

}  // namespace wormcast::algo
