// Per-run shared state handed explicitly to every module (no globals): the
// clock, flit counters used by the conservation invariant, the delivery
// ledger (exactly-once checking) and the measurement statistics.
#pragma once

#include <algorithm>
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "rtl_models/core/clock.h"
#include "rtl_models/core/measure_window.h"
#include "rtl_models/core/statistics.h"
#include "rtl_models/core/packet.h"

namespace wormcast::rtl {

class CycleScheduler;

// A broken invariant (duplicate or misdirected delivery, corrupted packet,
// flits not conserved). Always a simulator bug or an impossible configuration.
class InvariantViolation : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

struct FlitCounters {
  std::uint64_t injected = 0;      // flits put on links by sources
  std::uint64_t ejected = 0;       // flits taken off links by sinks
  std::int64_t extra_copies = 0;   // flit copies created by replication, less those dropped by header rewriting
  std::uint64_t moves = 0;         // flits moved across any link (progress)
  std::uint64_t hops = 0;          // flit-hops through switches (crossbar traversals)
};

// Every packet that enters the network is recorded with its destination set;
// each delivery must hit an outstanding destination exactly once.
//
// Outstanding packets are kept by origin id in a window of slots
// [base_, base_ + slots_.size()): ids are handed out in increasing order and
// packets mostly complete in roughly that order, so the window spans the ids
// from the oldest outstanding packet to the newest (ids of packets never
// recorded, such as IR copies, leave empty slots), and a lookup is an index,
// not a search. A slot is 4 bytes: a unicast packet's destination is kept in
// it; only multi-destination packets use a list. In saturation the window
// spans every packet waiting in the sources' queues (the 256-node case at
// 0.04: ~190,000 ids by the end), and deliveries land anywhere in it.
class DeliveryLedger {
 public:
  void expect(const Packet& p);
  // expect() for a plain unicast packet queued as a record (QueuedUnicast).
  void expect_unicast(PacketId origin, NodeId dest);
  // Returns true when the packet has now reached all its destinations.
  bool deliver(const Packet& p, NodeId at, Cycle now);
  std::size_t outstanding() const { return outstanding_; }
  std::uint64_t created() const { return created_; }
  std::uint64_t completed() const { return completed_; }
  // Up to `limit` outstanding packet ids with their remaining destinations.
  std::vector<std::string> describe_outstanding(std::size_t limit) const;

 private:
  // 0: not outstanding; d + 1 > 0: a unicast packet still to reach node d;
  // -(k + 1) < 0: a multicast packet whose remaining destinations are
  // lists_[k] (sorted, not empty).
  using Slot = std::int32_t;
  Slot* find(PacketId origin);
  // The slot of a packet entering the network (the window grown to it).
  Slot& open(PacketId origin);
  // Record a packet whose destinations `dests` (sorted, not empty) go in a list.
  void open_list(PacketId origin, std::vector<NodeId> dests);
  std::deque<Slot> slots_;   // slots_[i]: origin base_ + i
  PacketId base_ = 0;
  std::vector<std::vector<NodeId>> lists_;
  std::vector<std::int32_t> free_lists_;   // indices of lists_ not in use
  std::size_t outstanding_ = 0;
  std::uint64_t created_ = 0, completed_ = 0;
};

struct RunStats {
  CycleSamples latency;          // created -> tail delivered, measured packets
  CycleSamples network_latency;  // head injected -> tail delivered
  std::uint64_t measured_created = 0, measured_delivered = 0;
  WindowedCounter window_flits_created;      // offered load
  WindowedCounter window_flits_ejected;      // accepted load
  WindowedCounter window_flits_injected;
};

// Cycle stamps along a message's path to one destination (node model). The
// stamps after `posted` are those of the packet that completed the message,
// so the components below add up exactly to the end-to-end latency.
struct MessageTimes {
  Cycle send_call = 0;     // host software called send
  Cycle posted = 0;        // end of t_hs: descriptor posted to the NI
  Cycle dma_in_done = 0;   // packet in the NI send queue (I/O bus)
  Cycle ns_done = 0;       // NI firmware done (t_ns): packet handed to the link
  Cycle arrived = 0;       // tail in the receiving NI
  Cycle nr_done = 0;       // receiving NI firmware done (t_nr)
  Cycle dma_out_done = 0;  // message complete in host memory (I/O bus)
  Cycle received = 0;      // end of t_hr at the receiving host
};

// Messages sent by host software: each must reach each destination host once.
class MessageLedger {
 public:
  void expect(std::uint64_t id, NodeId src, std::vector<NodeId> dests, int bytes, Cycle send_call, bool measured);
  // Returns true when the message has now reached all its destinations.
  bool deliver(std::uint64_t id, NodeId at, Cycle now);
  std::size_t outstanding() const { return pending_.size(); }
  bool measured(std::uint64_t id) const;
  void set_posted(std::uint64_t id, Cycle c);
  // Send-call and posted cycles of an outstanding message.
  std::pair<Cycle, Cycle> sender_times(std::uint64_t id) const;
  std::vector<std::string> describe_outstanding(std::size_t limit) const;

 private:
  struct Record {
    NodeId src;
    std::vector<NodeId> remaining;
    int bytes;
    Cycle send_call;
    bool measured;
    Cycle posted = 0;
  };
  std::map<std::uint64_t, Record> pending_;
};

struct MessageStats {
  std::uint64_t created = 0, delivered = 0;                  // message deliveries (per destination)
  std::uint64_t measured_created = 0, measured_delivered = 0;
  CycleSamples latency;                                      // measured: send call -> end of t_hr
  // Sums over measured deliveries of each component of the latency.
  double host_send = 0, io_bus_send = 0, ni_send = 0, network = 0, ni_receive = 0, io_bus_receive = 0,
         host_receive = 0;
  std::uint64_t measured_expected = 0;                       // destinations of measured messages
};

class SimContext {
 public:
  explicit SimContext(std::uint64_t period_ps) : clock(period_ps) {}
  Clock clock;
  FlitCounters flits;
  DeliveryLedger ledger;
  MeasureWindow window;
  RunStats stats;
  MessageLedger messages;
  MessageStats msg_stats;
  std::uint64_t next_packet_id = 1;
  std::uint64_t next_message_id = 1;
  std::uint64_t node_progress = 0;   // completed node activities (overheads, DMA transfers)
  // The clock's activity list (cycle_scheduler.h), when the network made one:
  // modules that may use it register there instead of owning an sc_event.
  CycleScheduler* scheduler = nullptr;
  // The stream step (docs/performance.md): a switch output or injector may
  // move flits of a packet as one record when `streams` is on and the
  // stream ends at least 3 cycles before `stream_horizon` (the run loop's
  // next stop, where results may be read) and is shorter than
  // `stream_max_flits` (the watchdog interval: a stream counts its first
  // flit's move when it starts and the others when it ends): stream_room.
  // stream_horizon also bounds the cycle scheduler's run-ahead
  // (cycle_scheduler.h): whoever calls sc_start on a network with a
  // scheduler sets it to the cycle that call ends at, or leaves it 0 (no
  // streams, no run-ahead), as the run loop and the tests do.
  bool streams = false;
  Cycle stream_horizon = 0;
  Cycle stream_max_flits = 0;
  std::uint64_t streamed_flits = 0;   // flit moves made by streams (a speed figure, not a result)
  std::uint64_t worm_hops = 0;        // packet hops a VC router made in one step (VcRouter::try_run; ditto)
  std::uint64_t received_stream_flits = 0;   // flits written or ejected in closed form (ditto)
  // The most flits a stream starting at `start` may move under those two
  // bounds (0: none).
  int stream_room(Cycle start) const {
    if (!streams || stream_max_flits == 0 || start + 3 >= stream_horizon) return 0;
    const Cycle n = std::min(stream_max_flits - 1, stream_horizon - start - 3);
    return static_cast<int>(std::min<Cycle>(n, 1u << 30));
  }
  // May a receiver take the rest of a packet whose tail arrives at `tail`
  // (UINT64_MAX: not on the link) in one step? Its closed-form counts must be
  // settled by the run loop's next stop.
  bool receive_fits(Cycle tail) const { return tail != UINT64_MAX && tail + 2 < stream_horizon; }

  // Anything that counts as progress for the deadlock watchdog.
  std::uint64_t progress() const { return flits.moves + node_progress; }
  bool idle() const { return ledger.outstanding() == 0 && messages.outstanding() == 0; }

  PacketId new_packet_id() { return next_packet_id++; }
  std::uint64_t new_message_id() { return next_message_id++; }
  // Host software sent a message / a destination host finished receiving it.
  void on_message_sent(std::uint64_t id, NodeId src, const std::vector<NodeId>& dests, int bytes, Cycle now);
  void on_message_posted(std::uint64_t id, Cycle now) { messages.set_posted(id, now); }
  // `t` holds the receive-side stamps; the sender's are filled in here.
  void on_message_received(std::uint64_t id, NodeId at, MessageTimes t);
  // A source created a packet (before injection).
  void on_created(const Packet& p);
  // A node's packet created now at `src` (its header and length set): gives
  // it its id, origin, source, creation cycle and measured flag, then
  // on_created.
  void admit(Packet& p, NodeId src, Cycle now);
  void on_created(const QueuedUnicast& q);
  // A sink received the tail of p.
  void on_delivered(const Packet& p, NodeId at, Cycle now);
  // Called when the ledger goes from empty to non-empty (the watchdog arms).
  std::function<void()> on_first_outstanding;

 private:
  // on_created's counts, after the ledger has the packet.
  void count_created(bool measured, Cycle created, int length, bool was_empty);
};

}  // namespace wormcast::rtl
