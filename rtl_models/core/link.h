// A unidirectional physical channel between two ports (seed000 §2.2, §7.2):
// one flit per cycle, a propagation delay per flit (default 1 cycle) and a
// reverse credit path for credit-based flow control. The sender owns the
// credit counter (initialised to the receiver's buffer size); the receiver
// returns credits as buffer space frees. A full-duplex link is two Links.
//
// The link is a hierarchical channel: the sender binds a FlitOutPort to it,
// the receiver a FlitInPort; each side can make its process statically
// sensitive to the link's events through the port (data arrival for the
// receiver, credit arrival for the sender). The link has no process of its
// own: it costs nothing while idle.
#pragma once

#include <algorithm>
#include <string>
#include <systemc>

#include "rtl_models/core/clock.h"
#include "rtl_models/core/packet.h"
#include "rtl_models/core/params.h"
#include "rtl_models/core/ring.h"

namespace wormcast::rtl {

struct LinkParams {
  Cycle latency = 1;        // cycles from send to arrival, per flit
  Cycle credit_delay = 1;   // cycles from credit return to credit use
  void visit(ParamVisitor& v) {
    v.cycles("latency", latency, "propagation delay of a flit over a link (cycles)", 1);
    v.cycles("credit_delay", credit_delay, "delay of a returned credit (cycles)", 1);
  }
};

// A module attached to a link end: told the cycle at which something (a flit
// for the receiver, a credit for the sender) becomes visible to it.
class LinkClient {
 public:
  virtual ~LinkClient() = default;
  virtual void link_activity(Cycle at) = 0;
  // n flits put on the link at once (Link::send_run), arriving at first,
  // first + 1, ...: as n calls of link_activity, unless the receiver knows
  // better.
  virtual void link_run(Cycle first, int n) {
    for (int j = 0; j < n; ++j) link_activity(first + static_cast<Cycle>(j));
  }
};

// Sender side.
class LinkTxIf : public virtual sc_core::sc_interface {
 public:
  // Credits available at cycle `now` (credits that have arrived by now).
  virtual int credits(Cycle now) = 0;
  // Put a flit on the link at cycle `now`; it arrives at now + extra + latency.
  // Needs a credit and at most one flit per cycle.
  virtual void send(Flit f, Cycle now, Cycle extra_delay) = 0;
  // Earliest cycle at which a pending credit arrives (UINT64_MAX if none).
  virtual Cycle next_credit_arrival() const = 0;
  virtual void attach_sender(LinkClient* c) = 0;
};

// Receiver side.
class LinkRxIf : public virtual sc_core::sc_interface {
 public:
  // Is there a flit that has arrived by cycle `now`?
  virtual bool has_flit(Cycle now) const = 0;
  virtual Flit pop() = 0;
  // Give back `n` buffer slots at cycle `now`.
  virtual void return_credits(int n, Cycle now) = 0;
  virtual Cycle next_flit_arrival() const = 0;
  virtual void attach_receiver(LinkClient* c) = 0;
};

// `final`, and its per-flit methods defined here: a module that holds a
// Link* (the switch) calls them directly, without virtual dispatch.
class Link final : public sc_core::sc_module, public LinkTxIf, public LinkRxIf {
 public:
  Link(sc_core::sc_module_name name, const Clock& clock, const LinkParams& p, int initial_credits);

  int credits(Cycle now) override {
    while (!credit_returns_.empty() && credit_returns_.front().arrival <= now) {
      CreditReturn& r = credit_returns_.front();
      if (r.ramp && now - r.arrival + 1 < static_cast<Cycle>(r.n)) {   // part of a ramp has arrived
        take_ramp_part(r, now);
        break;
      }
      credits_ += r.n;
      credit_returns_.pop_front();
    }
    // During a stream its credits are taken already; answer as the per-flit
    // sends would: the flits of cycles now .. stream end are not sent yet.
    // (A stream never leaves the count at zero, and the lazy credit wake-up
    // below is only switched on for links a VC router sends on, which never
    // stream.)
    if (now < stream_end_) return credits_ + static_cast<int>(stream_end_ - now);
    if (credits_ <= 0) starved_ = true;
    return credits_;
  }
  // Wake the sender on a credit return only when it found no credits
  // (credits() <= 0) since it was last woken so. For a sender that needs a
  // credit only when it has a flit, asks credits() then, and otherwise waits
  // for the pending return it sees in next_credit_arrival() (the VC
  // router's ejection channel); not for one that waits for several credits
  // (virtual cut-through) or reads the count for other decisions (adaptive
  // port selection). Call during elaboration.
  void wake_sender_only_when_starved() { lazy_credit_wake_ = true; }
  // The same rule, for a sender whose evaluations in cycles where it is not
  // woken for anything do nothing (Switch, Endpoint) and that, when blocked
  // on credits, found none (credits() <= 0) and lowers its next wake-up to
  // next_credit_arrival(): a credit ramp (return_credit_ramp) may then wake
  // it for its first credit only, as on an eager link. Saves an evaluation
  // of the sender per credit return it does not wait for.
  void wake_blocked_sender_only() {
    lazy_credit_wake_ = true;
    ramp_ok_ = true;
  }
  // Deferred receiving (docs/performance.md): a link whose sender
  // can never find it without a credit while the receiver returns each
  // credit at its flit's arrival (a lazy link with more credits than a
  // flit's round trip: DirectNetwork::bind_pair), and whose sender puts
  // single flits on it (never streams). A sink receiver may then return each
  // credit when the flit is sent, for its arrival (the same returns, so the
  // sender's counts are those of pops at arrival), and take body flits off
  // later, counting each at its arrival (PacketAssembler::step_deferred).
  // Call during elaboration, after wake_sender_only_when_starved().
  void allow_deferred_receive() { deferred_ok_ = lazy_credit_wake_ && !ramp_ok_; }
  bool deferred_receive_ok() const { return deferred_ok_; }
  // Is the flit last put on the link a single body (not tail) flit?
  bool last_sent_is_body() const { return rec_count_ == 0 && !flits_.empty() && !flits_.back().flit.tail(); }
  // The first cycle a deferring receiver must take flits off: a tail's
  // arrival, the arrival of a flit after `settle`, or `settle` for body
  // flits arriving by then (UINT64_MAX: the link is empty).
  Cycle deferred_due(Cycle settle) const {
    Cycle due = UINT64_MAX;
    for (std::size_t i = 0; i < flits_.size(); ++i) {
      const InFlight& e = flits_.at(i);
      if (e.arrival > settle) return std::min(due, e.arrival);
      if (e.flit.tail()) return e.arrival;
      due = settle;
    }
    return rec_count_ > 0 ? std::min(due, rec_arrival_) : due;
  }
  void send(Flit f, Cycle now, Cycle extra_delay) override {
    if (last_send_ == now || now < stream_end_) fail("two flits sent in one cycle");
    // credits_ only grows when returns are collected, so a positive count
    // needs no look at the returns (the caller has just asked credits(now)).
    if (credits_ <= 0 && credits(now) <= 0) fail("flit sent without a credit");
    --credits_;
    last_send_ = now;
    ++flits_sent_;
    const Cycle arrival = now + extra_delay + p_.latency;
    if (fold_fn_ && flits_.empty() && rec_count_ == 0 && fold(f, 1, arrival)) return;
    if (f.tail()) tail_owners_.push_back(f.pkt);   // an owning reference (packet.h)
    if (rec_count_ > 0) materialise();
    flits_.push_back({arrival, f});
    if (rx_client_) rx_client_->link_activity(arrival);
  }
  // The receive step folded into the send (as VcLink's VcFold, for a VC
  // router's internal input: VcRouter::deposit_run): flits first.index ..
  // + n - 1 arriving at arrival, arrival + 1, ... go into the receiver's
  // buffer when they are sent, never on the link; fn returns false to take
  // none (they then travel on the link). Only while the link is empty (a
  // flit on it arrives first). Call during elaboration.
  using FoldFn = bool (*)(void* receiver, int key, PacketPtr& pkt, int first, int n, Cycle arrival);
  void attach_fold(FoldFn fn, void* receiver, int key) {
    fold_fn_ = fn;
    fold_receiver_ = receiver;
    fold_key_ = key;
  }
  // The stream step (docs/performance.md): put flits first.index ..
  // count-1 of first.pkt on the link as sends at cycles now, now+1, ...
  // would, in one call (the sender's output can then not be stopped: it has
  // credits for every flit and every flit is readable in time). Takes the
  // credits of all of them now; credits(t) answers as if they were sent one
  // per cycle. The receiver sees single flits, each arriving at its cycle;
  // the link holds them as one record (rec_*) until a receiver pops them or
  // takes them in one step (take_rest).
  void send_stream(Flit first, int count, Cycle now, Cycle extra_delay) {
    if (last_send_ == now || now < stream_end_) fail("stream started in a cycle with a flit sent");
    // credits_ only grows as returns are collected, so credits_ >= count
    // already proves what stream_credits would (the caller has just counted
    // them this cycle); the full count is only re-done when it could fail.
    if (credits_ < count && stream_credits(now, count) < count)
      fail("stream started without a credit for each flit");
    if (deferred_ok_) fail("stream on a link with deferred receiving");
    credits_ -= count;
    stream_end_ = now + static_cast<Cycle>(count);
    last_send_ = stream_end_ - 1;
    flits_sent_ += static_cast<std::uint64_t>(count);
    const Cycle arrival = now + extra_delay + p_.latency;
    if (fold_fn_ && flits_.empty() && rec_count_ == 0 && fold(first, count, arrival)) return;
    if (Flit{first.pkt, first.index + count - 1}.tail()) tail_owners_.push_back(first.pkt);
    if (rec_count_ > 0) materialise();
    rec_first_ = first;
    rec_count_ = count;
    rec_arrival_ = arrival;
    if (rx_client_) rx_client_->link_activity(arrival);
  }
  // The worm-level hop's ejection (VcRouter::try_run): flits first.index ..
  // + n - 1 of first.pkt leave at cycles now, now + 1, ..., as n sends would,
  // in one call: each is put on the link with its arrival, and the receiver
  // is told of them once (LinkClient::link_run: by default as n sends would
  // tell it); the credits of all of them are taken now (credits(t) answers
  // as the sends would, as for a stream). Needs a credit for each flit now;
  // otherwise it does nothing and returns false. Unlike send_stream, also on
  // a deferring link (Endpoint::run_sent).
  // `pkt` (an owning reference) is moved into the link when the run ends
  // with the packet's tail.
  bool send_run(PacketPtr& pkt, int first, int n, Cycle now, Cycle extra_delay) {
    if (last_send_ == now || now < stream_end_) fail("run started in a cycle with a flit sent");
    if (credits(now) < n) return false;
    if (rec_count_ > 0) materialise();
    credits_ -= n;
    stream_end_ = now + static_cast<Cycle>(n);
    last_send_ = stream_end_ - 1;
    flits_sent_ += static_cast<std::uint64_t>(n);
    const PacketRef ref(pkt);
    const Cycle arrival = now + extra_delay + p_.latency;
    for (int j = 0; j < n; ++j) {
      const Flit f{ref, first + j};
      if (f.tail()) tail_owners_.push_back(std::move(pkt));
      flits_.push_back({arrival + static_cast<Cycle>(j), f});
    }
    if (rx_client_) rx_client_->link_run(arrival, n);
    return true;
  }
  // How many flits (at most `max`) can leave one per cycle from cycle now
  // on with the credits held and the returns already given (a return's
  // arrival is fixed when it is given, and later returns only add): at
  // saturation a downstream stream or sink gives its returns in advance, so
  // a sender can stream into a buffer that has room for only part of the
  // rest now (docs/performance.md, streams under contention). Flit k (sent
  // at now + k) needs credits(now + k) > k: with `total` credits counted so
  // far the flits of cycles now .. now + total - 1 are covered, and the
  // next return (in arrival order) adds its credits if it arrives by cycle
  // now + total, else the sender stalls there. A ramp (one credit per cycle
  // from its arrival) counts as all its credits at its first cycle: from
  // there each of its cycles brings the credit its flit needs.
  int stream_credits(Cycle now, int max) {
    if (now < stream_end_) return 0;
    int total = credits(now);   // the returns left arrive after now
    if (total <= 0) return 0;
    for (std::size_t i = 0; i < credit_returns_.size() && total < max; ++i) {
      const CreditReturn& r = credit_returns_.at(i);
      if (now + static_cast<Cycle>(total) < r.arrival) break;
      total += r.n;
    }
    return std::min(max, total);
  }
  // Arrival cycle of the tail flit of `p` if it is the last flit put on the
  // link and has not been popped, else UINT64_MAX.
  Cycle tail_arrival(const Packet* p) const {
    if (rec_count_ > 0)
      return rec_first_.pkt.get() == p && Flit{rec_first_.pkt, rec_first_.index + rec_count_ - 1}.tail()
                 ? rec_arrival_ + static_cast<Cycle>(rec_count_ - 1)
                 : UINT64_MAX;
    if (flits_.empty()) return UINT64_MAX;
    const InFlight& last = flits_.back();
    return last.flit.pkt.get() == p && last.flit.tail() ? last.arrival : UINT64_MAX;
  }
  // The receiving side of the stream step: if the link holds exactly flits
  // `first` .. tail of packet p, arriving one per cycle (the rest of a
  // stream, or of per-flit sends that happen to be consecutive), take them
  // all off as pops would and return the arrival cycle of the first; else
  // take nothing and return UINT64_MAX.
  Cycle take_rest(const Packet* p, int first) {
    if (rec_count_ > 0) {
      if (!flits_.empty()) materialise();   // per-flit sends ahead of the record (rare)
      else return take_record(p, first);
    }
    if (flits_.empty()) return UINT64_MAX;
    const InFlight& f = flits_.front();
    const InFlight& l = flits_.back();
    const std::size_t n = flits_.size();
    if (f.flit.pkt.get() != p || f.flit.index != first || l.flit.pkt.get() != p || !l.flit.tail() ||
        n != static_cast<std::size_t>(p->length - first) || l.arrival - f.arrival != n - 1)
      return UINT64_MAX;
    const Cycle a = f.arrival;
    flits_.clear();   // Flit holds a plain packet reference (packet.h)
    release_tail_owner();
    return a;
  }
  Cycle next_credit_arrival() const override {
    return credit_returns_.empty() ? UINT64_MAX : credit_returns_.front().arrival;
  }
  void attach_sender(LinkClient* c) override { tx_client_ = c; }

  bool has_flit(Cycle now) const override {
    if (!flits_.empty()) return flits_.front().arrival <= now;
    return rec_count_ > 0 && rec_arrival_ <= now;
  }
  // The flit pop() would return (the link holds one).
  const Flit& front() const { return flits_.empty() ? rec_first_ : flits_.front().flit; }
  Flit pop() override {
    Flit f;
    if (!flits_.empty()) {
      f = flits_.front().flit;
      flits_.pop_front();
    } else {   // the record's first flit
      f = rec_first_;
      ++rec_first_.index;
      ++rec_arrival_;
      --rec_count_;
    }
    if (f.tail()) {
      release_tail_owner();
    }
    return f;
  }
  // `now` may be a later cycle than the current one (a stream's chunk
  // frees, given when it starts), provided returns are given in order.
  void return_credits(int n, Cycle now) override {
    if (n <= 0) return;
    const Cycle arrival = now + p_.credit_delay;
    push_credits(n, arrival);
    if (tx_client_ && (starved_ || !lazy_credit_wake_)) {
      starved_ = false;
      tx_client_->link_activity(arrival);
    }
  }
  // One credit at each cycle first .. first + n - 1, given in advance (a
  // sink that takes the rest of a packet in one step, PacketAssembler). The
  // sender is woken for the first only (on a lazy link only if it is
  // starved, as a per-flit return would): a sender blocked on credits asks
  // next_credit_arrival() (only for links that allow it: credit_ramp_ok()).
  // The ramp is one record (CreditReturn::ramp), not n returns: credits()
  // and next_credit_arrival() answer from it as from n single returns.
  void return_credit_ramp(int n, Cycle first) {
    if (n <= 0) return;
    const Cycle arrival = first + p_.credit_delay;
    if (n == 1) push_credits(1, arrival);
    else push_ramp(n, arrival);
    if (tx_client_ && (starved_ || !lazy_credit_wake_)) {
      starved_ = false;
      tx_client_->link_activity(first + p_.credit_delay);
    }
  }
  // Eager links, and lazy ones whose sender lowers its wake-up to
  // next_credit_arrival() when blocked (not the VC routers' ejection links,
  // whose evaluations depend on when credits are returned).
  bool credit_ramp_ok() const { return !lazy_credit_wake_ || ramp_ok_; }
  Cycle next_flit_arrival() const override {
    if (!flits_.empty()) return flits_.front().arrival;
    return rec_count_ > 0 ? rec_arrival_ : UINT64_MAX;
  }
  void attach_receiver(LinkClient* c) override { rx_client_ = c; }

  // Introspection for invariants, statistics and deadlock reports.
  std::size_t flits_in_flight() const { return flits_.size() + static_cast<std::size_t>(rec_count_); }
  std::uint64_t flits_sent() const { return flits_sent_; }
  int credits_held() const { return credits_; }
  template <class F> void for_each_flit(F f) const {
    flits_.for_each([&](const InFlight& e) { f(e.flit); });
    for (int k = 0; k < rec_count_; ++k) f(Flit{rec_first_.pkt, rec_first_.index + k});
  }
  const LinkParams& params() const { return p_; }
  // The first of the lines a send and a credit check read (the credits,
  // the last send, the credit returns' ring): a prefetch hint for the sender.
  const void* send_lines() const { return &credits_; }

 private:
  // n credits at `arrival`, or (ramp) one at each cycle arrival .. arrival + n - 1.
  struct CreditReturn { Cycle arrival; int n; bool ramp; };
  static Cycle ramp_last(const CreditReturn& r) { return r.arrival + static_cast<Cycle>(r.n) - 1; }
  [[noreturn]] void fail(const char* what) const;   // throws std::logic_error naming the link
  // The record's flits into the ring, behind the flits there (before a
  // send, or a take_rest that spans both).
  void materialise() {
    for (int k = 0; k < rec_count_; ++k)
      flits_.push_back({rec_arrival_ + static_cast<Cycle>(k), Flit{rec_first_.pkt, rec_first_.index + k}});
    rec_count_ = 0;
  }
  Cycle take_record(const Packet* p, int first) {
    if (rec_first_.pkt.get() != p || rec_first_.index != first || rec_count_ != p->length - first)
      return UINT64_MAX;
    rec_count_ = 0;
    release_tail_owner();
    return rec_arrival_;
  }
  // A tail left the link (popped or taken): hold its packet until the next one.
  void release_tail_owner() {
    popped_owner_ = std::move(tail_owners_.front());
    tail_owners_.pop_front();
  }
  // Returns are kept in arrival order; a ramp's credits must all arrive
  // before (or with) a later return's.
  void push_credits(int n, Cycle arrival) {
    if (!credit_returns_.empty()) {
      CreditReturn& b = credit_returns_.back();
      if (!b.ramp && b.arrival == arrival) {
        b.n += n;
        return;
      }
      if (b.ramp && arrival < ramp_last(b)) fail("credit returned before an earlier credit ramp's last credit");
    }
    credit_returns_.push_back({arrival, n, false});
  }
  void push_ramp(int n, Cycle arrival) {
    if (!credit_returns_.empty() && credit_returns_.back().ramp && arrival < ramp_last(credit_returns_.back()))
      fail("credit ramp returned before an earlier one's last credit");
    credit_returns_.push_back({arrival, n, true});
  }
  // Ramp r's credits of cycles r.arrival .. now (fewer than r.n) have arrived.
  void take_ramp_part(CreditReturn& r, Cycle now) {
    const int in = static_cast<int>(now - r.arrival + 1);
    credits_ += in;
    r.n -= in;
    r.arrival = now + 1;
  }
  struct InFlight { Cycle arrival; Flit flit; };
  // The fold's call, out of line (the switch networks' links have none).
  __attribute__((noinline)) bool fold(Flit first, int n, Cycle arrival) {
    PacketPtr pkt = first.pkt;   // an owning reference for the receiver's buffer
    return fold_fn_(fold_receiver_, fold_key_, pkt, first.index, n, arrival);
  }
  // Members in three 64-byte lines (a saturated switch network's
  // links do not stay in the caches between a link's events, and each line
  // an event reads is a miss): first what a credit check and a send test
  // and write, then the flits in flight and the receiver, then what only a
  // tail, a credit return or introspection reads.
  alignas(64) int credits_;
  bool starved_ = false;            // credits() found none since the sender was last woken by a return
  bool lazy_credit_wake_ = false;   // wake_sender_only_when_starved(), wake_blocked_sender_only()
  bool ramp_ok_ = false;            // wake_blocked_sender_only()
  bool deferred_ok_ = false;        // allow_deferred_receive()
  Cycle stream_end_ = 0;   // a stream's flits are sent at cycles before this one
  Cycle last_send_ = UINT64_MAX;
  Ring<CreditReturn> credit_returns_;
  LinkParams p_;
  Ring<InFlight> flits_;
  // A stream's flits not yet popped, after those of flits_: flit
  // rec_first_.index + k arrives at rec_arrival_ + k (rec_count_ = 0: none).
  Flit rec_first_;
  int rec_count_ = 0;
  Cycle rec_arrival_ = 0;
  LinkClient* rx_client_ = nullptr;
  std::uint64_t flits_sent_ = 0;
  LinkClient* tx_client_ = nullptr;
  FoldFn fold_fn_ = nullptr;   // attach_fold
  void* fold_receiver_ = nullptr;
  int fold_key_ = 0;
  // Owning references to the packets whose tail flit is on the link, in
  // send order, and to the packet whose tail was popped last (kept until the
  // next tail is popped, so the receiver holds its own reference by then;
  // packet.h, "Who owns a packet").
  Ring<PacketPtr> tail_owners_;
  PacketPtr popped_owner_;
  const Clock& clock_;
};

// A module's wake-up: one event plus the cycle it is already due, so a
// request for a later (or equal) cycle costs nothing and SystemC's timed
// queue sees one entry per module and wake-up cycle (docs/design.md principle 2).
class Wakeup {
 public:
  explicit Wakeup(const Clock& clock) : clock_(clock) {}
  const sc_core::sc_event& event() const { return ev_; }
  // Wake the module at cycle c, unless it is due at or before c already or
  // has run in cycle c (it runs once per cycle): such a request is ignored
  // and keeps the pending later wake-up (a notification for the current
  // time would cancel the later timed one).
  void at(Cycle c) {
    if (c >= due_ || c == last_) return;
    due_ = c;
    ev_.notify(clock_.until(c));
  }
  // Call at the start of the woken process. Returns false if cycle `now`
  // was already evaluated (several wake-ups in one cycle: one evaluation);
  // otherwise marks the pending wake-up as fired and returns true.
  bool begin_cycle(Cycle now) {
    if (now == last_) return false;
    last_ = now;
    if (due_ <= now) due_ = UINT64_MAX;
    return true;
  }
  // Has cycle `now` been evaluated already?
  bool evaluated(Cycle now) const { return now == last_; }

 private:
  const Clock& clock_;
  sc_core::sc_event ev_;
  Cycle due_ = UINT64_MAX;
  Cycle last_ = UINT64_MAX;   // last evaluated cycle
};

// Ports of a module on a link. Unbound ports are allowed (open switch ports).
using FlitOutPort = sc_core::sc_port<LinkTxIf, 1, sc_core::SC_ZERO_OR_MORE_BOUND>;
using FlitInPort = sc_core::sc_port<LinkRxIf, 1, sc_core::SC_ZERO_OR_MORE_BOUND>;

// Attach `client` to the links bound to `out` and `in` (either may be
// unbound) and spawn `method` as an SC_METHOD run when `wake` fires; with
// `run_at_start` it also runs once at time 0. For modules with one link pair.
template <class M>
void spawn_link_method(M* module, void (M::*method)(), const Wakeup& wake, FlitOutPort& out, FlitInPort& in,
                       LinkClient* client, bool run_at_start, const char* name) {
  sc_core::sc_spawn_options opts;
  opts.spawn_method();
  if (!run_at_start) opts.dont_initialize();
  opts.set_sensitivity(&wake.event());
  if (out.size() > 0) out->attach_sender(client);
  if (in.size() > 0) in->attach_receiver(client);
  sc_core::sc_spawn(sc_core::sc_bind(method, module), sc_core::sc_gen_unique_name(name), &opts);
}

}  // namespace wormcast::rtl
