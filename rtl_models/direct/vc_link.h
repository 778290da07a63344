// One physical channel of a direct network carrying all its virtual
// channels (seed001 §1.5; docs/direct_networks.md "The router"): one wire
// from a router's external output port to the neighbour's input port of the
// same (dimension, direction), one flit per cycle whatever its VC, a
// propagation delay per flit (LinkParams::latency), and per VC a credit
// counter (initialised to the receiving VC buffer's size) with its reverse
// credit path (LinkParams::credit_delay).
//
// It replaces one rtl::Link per VC: the same flits, credits and timing, but
// one SystemC module per physical channel instead of one per VC, one
// in-flight queue for the wire (the sending router puts at most one flit per
// cycle on a port, which send() checks) and one credit-return queue tagged
// with the VC. The routers call it directly (the class is final and its
// per-flit methods are inline); the ports bind to it as a hierarchical
// channel like an rtl::Link. A VC the routing function never uses on this
// channel is absent (uses_vc() false): sending on it is an error.
//
// Flit ownership as rtl::Link (packet.h, "Who owns a packet"): the link
// holds an owning reference to each packet whose tail flit is on it, and to
// the packet whose tail was popped last until the next tail is popped.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <systemc>
#include <vector>

#include "rtl_models/core/clock.h"
#include "rtl_models/core/link.h"
#include "rtl_models/core/packet.h"
#include "rtl_models/core/ring.h"

namespace wormcast::rtl {

// Sender side (a router's external output port).
class VcLinkTxIf : public virtual sc_core::sc_interface {
 public:
  // Credits of VC `vc` available at cycle `now`.
  virtual int credits(int vc, Cycle now) = 0;
  // Put a flit of VC `vc` on the wire at cycle `now`; it arrives at
  // now + extra + latency. Needs a credit of that VC and a free wire.
  virtual void send(int vc, Flit f, Cycle now, Cycle extra_delay) = 0;
  // Earliest cycle at which a pending credit of VC `vc` arrives (UINT64_MAX if none).
  virtual Cycle next_credit_arrival(int vc) const = 0;
  virtual void attach_sender(LinkClient* c) = 0;
};

// Receiver side (the neighbour's external input port).
class VcLinkRxIf : public virtual sc_core::sc_interface {
 public:
  // Is there a flit that has arrived by cycle `now`?
  virtual bool has_flit(Cycle now) const = 0;
  // Pops the front flit; `vc` receives its virtual channel.
  virtual Flit pop(int& vc) = 0;
  // Give back `n` buffer slots of VC `vc` at cycle `now`.
  virtual void return_credits(int vc, int n, Cycle now) = 0;
  virtual Cycle next_flit_arrival() const = 0;
  // `c` is told (link_activity) the arrival of a flit put on an empty wire
  // only: while flits are in flight the receiver keeps track of the front
  // one's arrival itself (next_flit_arrival after its pops).
  virtual void attach_receiver(LinkClient* c) = 0;
};

// The receive step folded into the send (docs/performance.md): a receiver
// that can take a flit into its buffer when it is sent, with its arrival
// cycle, instead of popping it off the wire at the arrival:
// deposit(receiver, key, vc, flit, arrival) returns false to refuse one flit
// (it then travels on the wire). Functions and their arguments, not an
// object with a virtual deposit: the link holds the receiver, its key and a
// pointer to the functions in the line its send reads, so a deposit reads no
// receiver object of its own (which would be a D1 miss per flit hop on large
// meshes). The functions are a table the receiver keeps for the link's
// lifetime (a static), shared by all its links: one pointer in that line for
// both the flit's and the run's function, so a worm-level hop reads no other
// line for them.
struct VcFoldFns {
  bool (*deposit)(void* receiver, int key, int vc, Flit f, Cycle arrival) = nullptr;
  // A run (VcLink::send_run): flits first .. first + n - 1 of pkt arriving
  // at arrival, arrival + 1, ...; all or none (false: none, pkt untouched;
  // true: pkt may have been moved from). Null: no runs.
  bool (*deposit_run)(void* receiver, int key, int vc, PacketPtr& pkt, int first, int n, Cycle arrival) = nullptr;
  // Where a deposit of VC vc writes first (a cache line the sender may
  // prefetch: VcLink::rx_hint). Null: no hint.
  const void* (*locate)(void* receiver, int key, int vc) = nullptr;
};
struct VcFold {
  const VcFoldFns* fns = nullptr;   // outlives the link (a static); its deposit is not null
  void* receiver = nullptr;
  int key = 0;   // the receiver's own tag (a router's input port)
};

class VcLink final : public sc_core::sc_module, public VcLinkTxIf, public VcLinkRxIf {
 public:
  // `vc_mask`: bit v set when VC v exists on this channel (1..31 VCs).
  VcLink(sc_core::sc_module_name name, const LinkParams& p, int vcs, std::uint32_t vc_mask, int initial_credits);

  // A VC found without credits is "starved": its next credit return wakes
  // the sender (see return_credits).
  int credits(int vc, Cycle now) override {
    absorb_credits(now);
    Lane& l = vcs_[static_cast<std::size_t>(vc)];
    if (l.ramp_n != 0 && l.ramp_at <= now) take_ramp(l, now);
    if (l.credits <= 0) l.starved = true;
    return l.credits;
  }
  // Inlined into the router's send (always_inline): the deposit is the
  // common case, and the call with its register saves costs more than the
  // checks (the router's put and credits are forced inline too); a flit
  // that travels on the wire takes the out-of-line send_on_wire.
  __attribute__((always_inline)) void send(int vc, Flit f, Cycle now, Cycle extra_delay) override {
    // last_send_ may be ahead of now after a run (send_run); UINT64_MAX + 1 is 0.
    if (last_send_ + 1 > now) fail("two flits sent in one cycle on one physical link", vc);
    if (!uses_vc(vc)) fail("flit sent on a virtual channel this link does not have", vc);
    Lane& l = vcs_[static_cast<std::size_t>(vc)];
    // The counter only grows when returns are absorbed: a positive one needs
    // no look at them (the sender has just asked credits(vc, now)).
    if (l.credits <= 0 && credits(vc, now) <= 0) fail("flit sent without a credit", vc);
    --l.credits;
    ++l.sent;
    last_send_ = now;
    const Cycle arrival = now + extra_delay + latency_;
    // Deposited only on an empty wire: a flit already in flight arrives
    // first and must enter the buffer first (arrivals are in order).
    if (fold_ && flits_.empty() && fold_->deposit(fold_receiver_, fold_key_, vc, f, arrival)) return;
    send_on_wire(vc, f, arrival);
  }
  // The worm-level hop (docs/performance.md, "The worm-level hop"): flits
  // f.index .. f.index + n - 1 of one packet of VC `vc` leave at cycles now,
  // now + 1, ..., as n sends would, in one call: the credits of all of them
  // are taken now, and the receiver's fold takes them as a run with their
  // arrival cycles (VcFoldFns::deposit_run). Only on an empty wire, with a
  // credit for each flit held now, and when the receiver takes the whole
  // run; otherwise nothing happens and it returns false (the sender goes on
  // flit by flit). The wire is busy until the last flit's cycle.
  // `pkt` (an owning reference) may be moved into the receiver.
  bool send_run(int vc, PacketPtr& pkt, int first, int n, Cycle now, Cycle extra_delay) {
    if (fold_ == nullptr || fold_->deposit_run == nullptr || !flits_.empty()) return false;
    if (last_send_ + 1 > now) fail("two flits sent in one cycle on one physical link", vc);
    if (!uses_vc(vc)) fail("flit sent on a virtual channel this link does not have", vc);
    Lane& l = vcs_[static_cast<std::size_t>(vc)];
    if (credits(vc, now) < n) return false;
    if (!fold_->deposit_run(fold_receiver_, fold_key_, vc, pkt, first, n, now + extra_delay + latency_)) return false;
    l.credits -= n;
    l.sent += static_cast<std::uint64_t>(n);
    last_send_ = now + static_cast<Cycle>(n) - 1;
    return true;
  }
  Cycle next_credit_arrival(int vc) const override {
    Cycle first = UINT64_MAX;
    const Lane& l = vcs_[static_cast<std::size_t>(vc)];
    if (l.ramp_n != 0) first = l.ramp_at;
    for_each_return([&](const CreditReturn& r) {
      if (r.vc == vc && r.arrival < first) first = r.arrival;
    });
    return first;
  }
  void attach_sender(LinkClient* c) override { tx_client_ = c; }

  bool has_flit(Cycle now) const override { return !flits_.empty() && flits_.front().arrival <= now; }
  Flit pop(int& vc) override {
    const InFlight& e = flits_.front();
    const Flit f = e.flit;
    vc = e.vc;
    flits_.pop_front();
    if (f.tail()) {
      popped_owner_ = std::move(tail_owners_.front());
      tail_owners_.pop_front();
    }
    return f;
  }
  __attribute__((always_inline)) void return_credits(int vc, int n, Cycle now) override {
    if (n <= 0) return;
    const Cycle arrival = now + credit_delay_;
    // Returns due by now join their counters here, as the sender's next
    // credits() would: the queue then holds only returns still on their way
    // (at most credit delay x VCs), which fit its inline slots.
    absorb_credits(now);
    CreditReturn* b = ret_size_ == 0 ? nullptr : &back_return();
    if (b != nullptr && b->arrival == arrival && b->vc == vc)
      b->n += n;
    else
      push_return({arrival, vc, n});
    // Only a sender that found this VC without credits waits for them: a
    // sender with credits sends when it next has a flit (and is woken for
    // that flit); one that found none but knew of a pending return asked
    // for its arrival itself (next_credit_arrival).
    Lane& l = vcs_[static_cast<std::size_t>(vc)];
    if (l.starved && tx_client_) {
      l.starved = false;
      tx_client_->link_activity(arrival);
    }
  }
  // One credit of VC `vc` returned at each cycle first .. first + n - 1 (the
  // receiver of a run: its flits leave its buffer one per cycle from
  // `first`), as n calls of return_credits would, kept as one ramp on the
  // lane. A lane holds one ramp at a time: can_return_ramp says whether
  // this one can join it.
  bool can_return_ramp(int vc, Cycle first, Cycle now) {
    Lane& l = vcs_[static_cast<std::size_t>(vc)];
    if (l.ramp_n != 0 && l.ramp_at <= now) take_ramp(l, now);
    return l.ramp_n == 0 || l.ramp_at + static_cast<Cycle>(l.ramp_n) == first + credit_delay_;
  }
  void return_credit_ramp(int vc, int n, Cycle first) {
    Lane& l = vcs_[static_cast<std::size_t>(vc)];
    const Cycle arrival = first + credit_delay_;
    if (l.ramp_n == 0) l.ramp_at = arrival;
    else if (l.ramp_at + static_cast<Cycle>(l.ramp_n) != arrival) fail("credit ramp not after the lane's earlier one", vc);
    l.ramp_n += n;
    // As return_credits: a starved sender is woken for the first credit; if
    // it finds none again while the ramp goes on, it asks for the next one
    // itself (next_credit_arrival).
    if (l.starved && tx_client_) {
      l.starved = false;
      tx_client_->link_activity(arrival);
    }
  }
  Cycle next_flit_arrival() const override { return flits_.empty() ? UINT64_MAX : flits_.front().arrival; }
  void attach_receiver(LinkClient* c) override { rx_client_ = c; }
  // Flits the receiver accepts are deposited at send (VcFold) and never on
  // the wire: flits_in_flight() and for_each_flit() see only the others;
  // the receiver counts the deposited ones as buffered.
  void attach_fold(const VcFold& f) {
    if (f.fns != nullptr && f.fns->deposit == nullptr)
      throw std::invalid_argument(std::string(name()) + ": attach_fold: the fold's table has no deposit function");
    fold_ = f.fns;
    fold_receiver_ = f.receiver;
    fold_key_ = f.key;
  }

  // Prefetch hints (no effect on results). The lines a send of VC vc reads:
  // the first (the wire, the fold) and its lane's.
  void prefetch_send(int vc) const {
    __builtin_prefetch(&last_send_);
    __builtin_prefetch(vcs_.data() + (static_cast<unsigned>(vc) < 31u ? vc : 0));
  }
  // The first of the two lines a send reads (the wire and fold, then the
  // credit delay and lanes 0 and 1): a prefetch hint for the sender.
  const void* send_lines() const { return &last_send_; }
  // The receiver of the fold (its first line: a router's head), or null.
  const void* fold_receiver() const { return fold_ != nullptr ? fold_receiver_ : nullptr; }
  const VcFoldFns* fold_fns() const { return fold_; }   // the fold's table, or null
  // Where the receiver's fold writes a flit of VC vc first (VcFoldFns::
  // locate), or null: fixed once the receiver has attached its fold.
  const void* rx_hint(int vc) const {
    return fold_ != nullptr && fold_->locate != nullptr ? fold_->locate(fold_receiver_, fold_key_, vc) : nullptr;
  }

  // Introspection for invariants, statistics and deadlock reports.
  int vcs() const { return nvcs_; }
  // The constructor refuses mask bits at or beyond the VC count, so the mask alone decides.
  bool uses_vc(int vc) const { return static_cast<unsigned>(vc) < 32u && (vc_mask_ >> vc & 1u) != 0; }
  int vcs_used() const { return __builtin_popcount(vc_mask_); }
  std::size_t flits_in_flight() const { return flits_.size(); }
  std::uint64_t flits_sent() const {   // all VCs: the wire
    std::uint64_t n = 0;
    for (const Lane& l : vcs_) n += l.sent;
    return n;
  }
  std::uint64_t flits_sent(int vc) const { return lane_at(vc).sent; }
  int credits_held(int vc) const { return lane_at(vc).credits; }
  template <class F> void for_each_flit(F f) const {
    flits_.for_each([&](const InFlight& e) { f(e.vc, e.flit); });
  }
  LinkParams params() const { return LinkParams{latency_, credit_delay_}; }
  Cycle latency() const { return latency_; }

 private:
  // Flit f of VC vc, not deposited, on the wire until `arrival`.
  __attribute__((noinline)) void send_on_wire(int vc, Flit f, Cycle arrival);
  [[noreturn]] void fail(const char* what, int vc) const;   // throws std::logic_error naming the link and VC
  struct Lane;
  const Lane& lane_at(int vc) const;   // bounds-checked (std::out_of_range), for introspection
  // Credits returned by `now` join their VC's counter. Returns arrive in
  // order (one credit delay), so only the front can be due.
  void absorb_credits(Cycle now) {
    while (ret_size_ != 0 && ret_[ret_head_].arrival <= now) {
      const CreditReturn& r = ret_[ret_head_];
      vcs_[static_cast<std::size_t>(r.vc)].credits += r.n;
      pop_return();
    }
  }
  struct Lane {   // 24 bytes: lanes 0 and 1 fill the second line after the credit delay and the ring indices
    int credits = 0;
    std::int16_t ramp_n = 0;   // return_credit_ramp: credits still to come, one per cycle from ramp_at
    bool starved = false;   // credits() found none since the last wake-up of the sender
    Cycle ramp_at = 0;
    std::uint64_t sent = 0;
  };
  static_assert(sizeof(Lane) == 24 && alignof(Lane) == 8,
                "Lane: with the 16 bytes before them, lanes 0 and 1 fill the second line (the layout below)");
  // The ramp's credits of cycles ramp_at .. now have arrived.
  static void take_ramp(Lane& l, Cycle now) {
    const Cycle in = std::min<Cycle>(static_cast<Cycle>(l.ramp_n), now - l.ramp_at + 1);
    l.credits += static_cast<int>(in);
    l.ramp_n = static_cast<std::int16_t>(l.ramp_n - static_cast<int>(in));
    l.ramp_at += in;
  }
  struct InFlight {
    Cycle arrival;
    Flit flit;
    int vc;
  };
  struct CreditReturn {
    Cycle arrival;
    int vc, n;
  };
  // The credit returns in arrival order: the oldest kInlineReturns in ret_
  // (a ring in the link's second line), the younger ones, if any, in
  // ret_more_ (a heap block, cold: only with a credit delay or VC count
  // that keeps more returns on their way).
  static constexpr std::uint8_t kInlineReturns = 2;
  // ret_spilled_ (in the second line) says whether ret_more_ holds any: its
  // own header is in the cold part.
  CreditReturn& back_return() {
    return ret_spilled_ ? ret_more_.back() : ret_[(ret_head_ + ret_size_ - 1) % kInlineReturns];
  }
  // Inlined with return_credits, the spill out of line: left to itself, the
  // compiler makes this a call of its own in the router's send path, whose
  // register saves cost far more than its store and count, once per flit hop.
  __attribute__((always_inline)) void push_return(const CreditReturn& r) {
    if (ret_size_ < kInlineReturns) ret_[(ret_head_ + ret_size_++) % kInlineReturns] = r;
    else spill_return(r);
  }
  __attribute__((noinline)) void spill_return(const CreditReturn& r) {
    ret_more_.push_back(r);
    ret_spilled_ = true;
  }
  void pop_return() {   // the front, in ret_[ret_head_]; the oldest of ret_more_ takes its slot
    if (!ret_spilled_) {
      ret_head_ = static_cast<std::uint8_t>((ret_head_ + 1) % kInlineReturns);
      --ret_size_;
      return;
    }
    ret_[ret_head_] = ret_more_.front();
    ret_more_.pop_front();
    ret_spilled_ = !ret_more_.empty();
    ret_head_ = static_cast<std::uint8_t>((ret_head_ + 1) % kInlineReturns);
  }
  template <class F> void for_each_return(F f) const {
    for (std::uint8_t i = 0; i < ret_size_; ++i) f(ret_[(ret_head_ + i) % kInlineReturns]);
    if (ret_spilled_) ret_more_.for_each(f);
  }
  // Layout (docs/performance.md): the lanes are inline (at most 31), not a
  // heap block of their own. A
  // flit's send reads the first line (the latency, the wire, the fold) and
  // its lane; a credit check, ramp or return the second: the credit delay,
  // the returns' indices and lanes 0 and 1, and the returns in flight only
  // when there are any: a credit return (once per flit, by the receiving
  // router) reads the second line and the returns' slots, not the first
  // line for the delay nor a heap block for the returns. The sender, which a return wakes only when starved, and
  // the VC count are cold. The wire's total is the lanes' sum
  // (flits_sent()), not a counter of its own.
  alignas(64) Cycle last_send_ = UINT64_MAX;
  Cycle latency_;
  const VcFoldFns* fold_ = nullptr;   // VcFold: null, no folding
  void* fold_receiver_ = nullptr;
  Ring<InFlight> flits_;
  std::uint32_t vc_mask_;
  int fold_key_ = 0;
  // Second line: the credit delay, the returns' ring indices, lanes 0 and 1
  // (whole: a credit check, a send, a ramp and a return of VC 0 or 1 read
  // this line only, so a worm-level hop on VC 0 or 1 misses no other). Then
  // the returns in flight inline, not in a heap block whose line the return
  // and the sender's absorb would each miss: read only while ret_size_ says
  // some are on their way, which a worm-level hop's credit ramp never does.
  alignas(64) Cycle credit_delay_;
  std::uint8_t ret_head_ = 0, ret_size_ = 0;
  bool ret_spilled_ = false;
  std::array<Lane, 31> vcs_{};
  std::array<CreditReturn, kInlineReturns> ret_{};
  // Cold: used only by flits that travel on the wire (not deposited), by
  // starved senders and for introspection.
  LinkClient* tx_client_ = nullptr;
  int nvcs_ = 0;
  LinkClient* rx_client_ = nullptr;
  Ring<PacketPtr> tail_owners_;
  PacketPtr popped_owner_;
  Ring<CreditReturn> ret_more_;
};

// Ports of a router on a physical channel; unbound where the channel does
// not exist (mesh borders, unidirectional tori).
using VcLinkOutPort = sc_core::sc_port<VcLinkTxIf, 1, sc_core::SC_ZERO_OR_MORE_BOUND>;
using VcLinkInPort = sc_core::sc_port<VcLinkRxIf, 1, sc_core::SC_ZERO_OR_MORE_BOUND>;

}  // namespace wormcast::rtl
