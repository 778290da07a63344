// Per-run shared state handed explicitly to every module (no globals): the
// clock, flit counters used by the conservation invariant, the delivery
// ledger (exactly-once checking) and the measurement statistics.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <stdexcept>
#include <string>
#include <vector>

#include "rtl_models/clock.h"
#include "rtl_models/packet.h"

namespace wormcast::rtl {

// A broken invariant (duplicate or misdirected delivery, corrupted packet,
// flits not conserved). Always a simulator bug or an impossible configuration.
class InvariantViolation : public std::logic_error {
 public:
  using std::logic_error::logic_error;
};

struct FlitCounters {
  std::uint64_t injected = 0;      // flits put on links by sources
  std::uint64_t ejected = 0;       // flits taken off links by sinks
  std::uint64_t extra_copies = 0;  // flit copies created by replication
  std::uint64_t moves = 0;         // flits moved across any link (progress)
  std::uint64_t hops = 0;          // flit-hops through switches (crossbar traversals)
};

// Every packet that enters the network is recorded with its destination set;
// each delivery must hit an outstanding destination exactly once.
class DeliveryLedger {
 public:
  void expect(const Packet& p);
  // Returns true when the packet has now reached all its destinations.
  bool deliver(const Packet& p, NodeId at, Cycle now);
  std::size_t outstanding() const { return pending_.size(); }
  std::uint64_t created() const { return created_; }
  std::uint64_t completed() const { return completed_; }
  // Up to `limit` outstanding packet ids with their remaining destinations.
  std::vector<std::string> describe_outstanding(std::size_t limit) const;

 private:
  std::map<PacketId, std::vector<NodeId>> pending_;   // origin -> remaining dests
  std::uint64_t created_ = 0, completed_ = 0;
};

struct MeasureWindow {
  Cycle begin = 0, end = UINT64_MAX;
  bool contains(Cycle c) const { return c >= begin && c < end; }
};

struct RunStats {
  std::vector<std::uint32_t> latency;          // created -> tail delivered, measured packets
  std::vector<std::uint32_t> network_latency;  // head injected -> tail delivered
  std::uint64_t measured_created = 0, measured_delivered = 0;
  std::uint64_t window_flits_created = 0;      // offered load
  std::uint64_t window_flits_ejected = 0;      // accepted load
  std::uint64_t window_flits_injected = 0;
};

class SimContext {
 public:
  explicit SimContext(std::uint64_t period_ps) : clock(period_ps) {}
  Clock clock;
  FlitCounters flits;
  DeliveryLedger ledger;
  MeasureWindow window;
  RunStats stats;
  std::uint64_t next_packet_id = 1;

  PacketId new_packet_id() { return next_packet_id++; }
  // A source created a packet (before injection).
  void on_created(const Packet& p);
  // A sink received the tail of p.
  void on_delivered(const Packet& p, NodeId at, Cycle now);
  // Called when the ledger goes from empty to non-empty (the watchdog arms).
  std::function<void()> on_first_outstanding;
};

}  // namespace wormcast::rtl
