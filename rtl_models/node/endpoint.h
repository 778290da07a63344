// A processing node's attachment to the network as a plain traffic endpoint
// (node.model endpoint): it injects packets from a source queue (one flit per cycle,
// credit flow control toward the switch's input buffer, cut-through
// admission) and sinks packets (consumes a flit per cycle, returns its credit
// at once), checking every packet arrives whole, in order, exactly once.
// Its two link ports (out to the switch, in from the switch) are the seam
// where the NI coprocessor model plugs in.
#pragma once

#include <algorithm>
#include <deque>
#include <functional>
#include <memory>
#include <utility>
#include <vector>
#include <systemc>

#include "rtl_models/core/cycle_scheduler.h"
#include "rtl_models/core/link.h"
#include "rtl_models/core/link_interface.h"
#include "rtl_models/core/sim_context.h"
#include "rtl_models/node/traffic.h"

namespace wormcast::rtl {

struct EndpointParams {
  int rx_buffer_flits = 640;   // receive buffer (credits the switch sees)
  void visit(ParamVisitor& v) {
    v.flits("rx_buffer", rx_buffer_flits, "endpoint receive buffer (credits toward the switch)", 1);
  }
};

class Endpoint : public sc_core::sc_module, private LinkClient, private CycleScheduler::Client {
 public:
  SC_HAS_PROCESS(Endpoint);
  Endpoint(sc_core::sc_module_name name, NodeId id, SimContext& ctx, bool vct = false);

  FlitOutPort out;   // to the switch
  FlitInPort in;     // from the switch

  NodeId id() const { return id_; }
  // Synthetic traffic (optional). Packets are created until `stop_at`, or
  // until `queue_limit` packets wait in the source queue: then creation
  // stops for good and source_overflowed() says so (a saturated source
  // would otherwise grow its queue without bound).
  void set_source(std::unique_ptr<PacketSource> src, std::size_t queue_limit = SIZE_MAX) {
    source_ = std::move(src);
    queue_limit_ = queue_limit;
    next_create_ = source_ ? source_->next_time() : UINT64_MAX;
    unicast_source_ = source_ && source_->unicast_only();
  }
  bool source_overflowed() const { return overflowed_; }
  // Never later than a stop already set (an overflow's is for good).
  void stop_creating_at(Cycle c) { stop_at_ = std::min(stop_at_, c); }
  // Queue a packet for injection now (tests, later the NI firmware). Fills in
  // id, origin, src and created; registers it with the ledger.
  void inject(PacketPtr p);
  // Queue a packet at a later cycle `at` (> now): it is created and queued
  // then, before that cycle's injection, whatever order modules run in
  // (inject() called during a cycle starts the packet in that cycle or the
  // next, by whether this endpoint was evaluated already). Packets given the
  // same cycle are queued in call order. Throws std::logic_error for at <= now.
  void inject_at(PacketPtr p, Cycle at);
  // As inject_at(p, at), but the packet is created at `at` now: it has its
  // id and is outstanding in the run's ledger from now on, so a run that
  // ends before cycle `at` has not lost it. For at == now (before the
  // simulation starts), inject(p).
  void inject_created_at(PacketPtr p, Cycle at);
  // Called for each packet fully received (background packets excepted).
  std::function<void(const Packet&, Cycle)> on_receive;
  // Called instead for each background packet (Packet::background) received.
  std::function<void(const Packet&, Cycle)> on_background;
  // Called when a packet's tail flit has left (the channel is free for the
  // next), background packets excepted.
  std::function<void(const Packet&, Cycle)> on_sent;

  std::size_t queued_packets() const { return injector_.queued(); }
  // Part of a packet received, its tail not yet (deadlock reports).
  bool receiving() const { return assembler_.receiving(); }
  std::uint64_t packets_received() const { return received_; }
  std::string describe(Cycle now) const;
  void trace(sc_core::sc_trace_file* tf);

 private:
  void end_of_elaboration() override;
  void tick();                                // the SC_METHOD without a scheduler
  Cycle evaluate_cycle(Cycle now) override;   // one cycle of work; the next one it asks for
  void link_activity(Cycle at) override { wake_at(at); }
  // Deferred receiving (Link::allow_deferred_receive; docs/performance.md):
  // on a link that allows it, with streams on and untraced, the
  // endpoint is not woken for a body flit arriving by `settle` (3 cycles
  // before the run loop's next stop, where results are read: the receive
  // rule of sim_context.h) but takes it with the packet's tail, or at settle;
  // each credit is returned when its flit is sent, for its arrival. Only for
  // endpoints fed by a synthetic source: inject() asks whether this cycle
  // was evaluated, which the skipped evaluations would change.
  struct InClient final : LinkClient {
    Endpoint* ep = nullptr;
    void link_activity(Cycle at) override { ep->flit_sent(at); }
    void link_run(Cycle first, int n) override { ep->run_sent(first, n); }
  };
  void flit_sent(Cycle at);
  void run_sent(Cycle first, int n);
  Cycle settle_cycle() const { return ctx_.stream_horizon >= 3 ? ctx_.stream_horizon - 3 : 0; }
  // Take the body flits that arrived before cycle now off a deferring link
  // (a deadlock report reads what a per-flit sink would have taken).
  void settle_before(Cycle now) const;
  void wake_at(Cycle c) {
    if (sched_) sched_->at(sched_id_, c);
    else wake_.at(c);
  }
  void check_shape(const Packet& p) const;   // throws std::invalid_argument for an impossible length
  void admit(PacketPtr p, Cycle now);
  // Admit the inject_at() packets due by now; lower `next` to the next one.
  void admit_scheduled(Cycle now, Cycle& next);
  // admit() for a unicast_only() source's packet, queued as a record.
  void admit(const UnicastShape& s, Cycle now);

  NodeId id_;
  SimContext& ctx_;
  std::unique_ptr<PacketSource> source_;
  // source_->next_time(), read again only after generate() (which alone
  // advances it): a virtual call fewer per evaluation; UINT64_MAX without a source.
  Cycle next_create_ = UINT64_MAX;
  Cycle stop_at_ = UINT64_MAX;
  std::size_t queue_limit_ = SIZE_MAX;
  bool overflowed_ = false;
  bool unicast_source_ = false;   // source_->unicast_only(): its packets are queued as records
  PacketInjector injector_;
  struct Scheduled {
    Cycle at;
    PacketPtr packet;
    bool created;   // inject_created_at: admitted already, only to be queued
  };
  std::vector<Scheduled> scheduled_;   // inject_at(), inject_created_at(): by cycle, then call order
  void schedule(PacketPtr p, Cycle at, bool created);
  mutable PacketAssembler assembler_;   // mutable: settle_before()
  std::uint64_t received_ = 0;
  bool tx_valid_ = false, rx_valid_ = false;
  int traced_queue_ = 0;
  bool traced_ = false;               // trace() was called: keep traced_queue_ up to date
  Wakeup wake_;
  CycleScheduler* sched_ = nullptr;   // SimContext::scheduler, when the run has one
  int sched_id_ = -1;
  Link* out_link_ = nullptr;          // the bound links, when they are rtl::Link (scheduler runs)
  Link* in_link_ = nullptr;
  InClient in_client_;
  bool defer_ = false;                // deferred receiving on in_link_ (and PacketInjector::quiet_streams)
};

}  // namespace wormcast::rtl
