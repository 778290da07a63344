#include "rtl_models/node/endpoint.h"

#include <algorithm>

namespace wormcast::rtl {

Endpoint::Endpoint(sc_core::sc_module_name name, NodeId id, SimContext& ctx, bool vct)
    : sc_core::sc_module(name), out("out"), in("in"), id_(id), ctx_(ctx), injector_(ctx, vct, id),
      assembler_(ctx, this->name(), /*return_credits_at_once=*/true), wake_(ctx.clock),
      sched_(ctx.scheduler) {
  injector_.on_sent = [this](const PacketPtr& p, Cycle at) {
    if (on_sent && !p->background) on_sent(*p, at);
  };
}

void Endpoint::end_of_elaboration() {
  // Runs once at time 0 to schedule the first packet creation.
  if (sched_ == nullptr) {
    spawn_link_method(this, &Endpoint::tick, wake_, out, in, this, /*run_at_start=*/true, "tick");
    return;
  }
  sched_id_ = sched_->add(this);
  if (out.size() > 0) out->attach_sender(this);
  if (in.size() > 0) in->attach_receiver(this);
  // Links are called directly when they are rtl::Link (always, in the
  // shipped networks), through the port's interface otherwise.
  out_link_ = out.size() > 0 ? dynamic_cast<Link*>(out.operator->()) : nullptr;
  in_link_ = in.size() > 0 ? dynamic_cast<Link*>(in.operator->()) : nullptr;
  if (out_link_ && injector_.blocks_only_without_credit()) out_link_->wake_blocked_sender_only();
  defer_ = in_link_ && in_link_->deferred_receive_ok() && ctx_.streams && !traced_ && source_;
  // Under the same conditions its evaluations do only what they are woken
  // for (creation, credits, arrivals, a stream's end): a stream needs no
  // evaluation before its last cycle. Not for an endpoint that may get
  // packets from inject(), which asks whether the current cycle was
  // evaluated (the skipped evaluations would change the answer): inject()
  // refuses on a deferring endpoint.
  if (defer_) injector_.quiet_streams();
  if (defer_) {
    in_client_.ep = this;
    in_link_->attach_receiver(&in_client_);
  }
  sched_->at(sched_id_, 0);
}

void Endpoint::check_shape(const Packet& p) const {
  if (p.length < 1 || p.header_flits < 1 || p.header_flits > p.length)
    throw std::invalid_argument(std::string(name()) + ": packet needs 1 <= header_flits <= length");
}

void Endpoint::admit(PacketPtr p, Cycle now) {
  check_shape(*p);
  ctx_.admit(*p, id_, now);
  injector_.push(std::move(p));
}

void Endpoint::admit(const UnicastShape& s, Cycle now) {
  if (s.length < 1 || s.header_flits < 1 || s.header_flits > s.length)
    throw std::invalid_argument(std::string(name()) + ": packet needs 1 <= header_flits <= length");
  const QueuedUnicast q{ctx_.new_packet_id(), now, s, ctx_.window.contains(now)};
  ctx_.on_created(q);
  injector_.push(q);
}

void Endpoint::inject(PacketPtr p) {
  const Cycle now = ctx_.clock.now();
  if (defer_) throw std::logic_error(std::string(name()) + ": inject() on an endpoint that defers receiving");
  admit(std::move(p), now);
  // Before the end of elaboration a scheduler client is not registered yet:
  // registration wakes it for cycle 0, which sends what was queued.
  if (sched_ != nullptr && sched_id_ < 0) return;
  // If this cycle has been evaluated already, the packet starts next cycle.
  const bool evaluated = sched_ ? sched_->evaluated(sched_id_, now) : wake_.evaluated(now);
  wake_at(evaluated ? now + 1 : now);
}

void Endpoint::inject_at(PacketPtr p, Cycle at) { schedule(std::move(p), at, false); }

void Endpoint::inject_created_at(PacketPtr p, Cycle at) {
  if (at == ctx_.clock.now()) {
    inject(std::move(p));
    return;
  }
  check_shape(*p);
  ctx_.admit(*p, id_, at);
  schedule(std::move(p), at, true);
}

void Endpoint::schedule(PacketPtr p, Cycle at, bool created) {
  const Cycle now = ctx_.clock.now();
  if (at <= now)
    throw std::logic_error(std::string(name()) + ": inject_at(" + std::to_string(at) + ") at cycle " +
                           std::to_string(now) + ": the cycle must be later");
  if (defer_) throw std::logic_error(std::string(name()) + ": inject_at() on an endpoint that defers receiving");
  auto pos = std::upper_bound(scheduled_.begin(), scheduled_.end(), at,
                              [](Cycle c, const Scheduled& e) { return c < e.at; });
  scheduled_.insert(pos, {at, std::move(p), created});
  // Before the end of elaboration: registration wakes it for cycle 0.
  if (sched_ != nullptr && sched_id_ < 0) return;
  wake_at(at);
}

void Endpoint::admit_scheduled(Cycle now, Cycle& next) {
  std::size_t due = 0;
  while (due < scheduled_.size() && scheduled_[due].at <= now) {
    Scheduled& e = scheduled_[due];
    if (e.created) injector_.push(std::move(e.packet));
    else admit(std::move(e.packet), now);
    ++due;
  }
  scheduled_.erase(scheduled_.begin(), scheduled_.begin() + static_cast<std::ptrdiff_t>(due));
  if (!scheduled_.empty()) next = std::min(next, scheduled_.front().at);
}

void Endpoint::tick() {
  const Cycle now = ctx_.clock.now();
  if (!wake_.begin_cycle(now)) return;
  const Cycle next = evaluate_cycle(now);
  if (next != UINT64_MAX) wake_at(next);
}

Cycle Endpoint::evaluate_cycle(Cycle now) {
  bool active = false;
  Cycle next = UINT64_MAX;
  tx_valid_ = rx_valid_ = false;
  if (defer_) {   // quiet streams (end_of_elaboration)
    injector_.set_watched(static_cast<bool>(on_sent));
    injector_.settle(now);
  }

  // Packet creation by the synthetic source (none: next_create_ is UINT64_MAX).
  while (next_create_ <= now && now < stop_at_) {
    if (injector_.queued() >= queue_limit_) {
      overflowed_ = true;
      stop_at_ = now;
      break;
    }
    if (unicast_source_) {
      const UnicastShape shape = source_->generate_unicast();
      next_create_ = source_->next_time();
      admit(shape, now);
      continue;
    }
    auto p = std::make_shared<Packet>();
    source_->generate(*p);
    next_create_ = source_->next_time();
    admit(std::move(p), now);
  }
  if (next_create_ < stop_at_) next = std::min(next, next_create_);
  if (!scheduled_.empty()) admit_scheduled(now, next);

  // Injection: one flit per cycle while the switch's input buffer has room.
  // An idle injector (nothing queued, none sending or streaming) sends
  // nothing and asks for no wake-up: its step is not called.
  if (injector_.busy() && (out_link_ ? injector_.step(*out_link_, now, next)
                                     : out.size() > 0 && injector_.step(*out.operator->(), now, next))) {
    tx_valid_ = true;
    active = true;
  }

  // Sink: every arrived flit is consumed and its slot credited back.
  const auto delivered = [&](const PacketPtr& p, Cycle at) {
    ++received_;
    ctx_.on_delivered(*p, id_, at);
    if (p->background) {
      if (!on_background)
        throw InvariantViolation(std::string(name()) + ": background packet " + std::to_string(p->id) +
                                 " arrived but nothing receives background traffic here");
      on_background(*p, at);
    } else if (on_receive) {
      on_receive(*p, at);
    }
  };
  if (defer_) {
    // Untraced (rx_valid_ is not mirrored): no wake-up for the next cycle.
    rx_valid_ = assembler_.step_deferred(*in_link_, now, settle_cycle(), next, delivered);
  } else if (in_link_ ? assembler_.step(*in_link_, now, next, delivered)
                      : in.size() > 0 && assembler_.step(*in.operator->(), now, next, delivered)) {
    rx_valid_ = true;
    active = true;
  }
  if (traced_) traced_queue_ = static_cast<int>(queued_packets());

  if (active) next = now + 1;
  return next;   // the scheduler's (or tick's) wake-up
}

// A flit put on a deferring in-link, arriving at `at`: its credit goes back
// now as the sink's pop at `at` would return it; the endpoint is woken at
// `at` for a tail or a flit after the settle cycle, else at the settle cycle
// (a request for a cycle it is already due by costs nothing: CycleScheduler::at).
void Endpoint::flit_sent(Cycle at) {
  in_link_->return_credits(1, at);
  const Cycle settle = settle_cycle();
  wake_at(at > settle || !in_link_->last_sent_is_body() ? at : settle);
}

// n flits put on a deferring in-link at once (Link::send_run), arriving at
// first, first + 1, ...: their credits as a ramp (the same returns as n
// flit_sent calls), and the earliest of the wake-ups those calls would ask
// for (each body flit's, then the tail's).
void Endpoint::run_sent(Cycle first, int n) {
  if (n == 1) return flit_sent(first);
  in_link_->return_credit_ramp(n, first);
  const Cycle settle = settle_cycle();
  const Cycle last = first + static_cast<Cycle>(n) - 1;
  const Cycle body = first > settle ? first : settle;   // flits first .. last - 1 are not tails
  wake_at(std::min(body, last > settle || !in_link_->last_sent_is_body() ? last : settle));
}

void Endpoint::settle_before(Cycle now) const {
  if (!defer_ || now == 0) return;
  Cycle next = UINT64_MAX;
  // Tails are taken at their arrival (always woken), so none is left here.
  assembler_.step_deferred(*in_link_, now - 1, settle_cycle(), next, [this](const PacketPtr&, Cycle) {
    throw std::logic_error(std::string(name()) + ": a deferred tail was missed");
  });
}

std::string Endpoint::describe(Cycle now) const {
  settle_before(now);
  std::string s = std::string(name()) + ": " + injector_.describe();
  if (assembler_.receiving()) s += ", " + assembler_.describe();
  return s;
}

void Endpoint::trace(sc_core::sc_trace_file* tf) {
  traced_ = true;
  // A trace samples at every kernel time step: every cycle in one of its own.
  if (sched_ != nullptr) sched_->every_cycle(std::string("VCD trace of ") + name());
  injector_.disable_streams();   // tx_valid_ mirrors each flit sent
  assembler_.disable_streams();  // rx_valid_ each flit received
  const std::string base = name();
  sc_core::sc_trace(tf, tx_valid_, base + ".tx_valid");
  sc_core::sc_trace(tf, rx_valid_, base + ".rx_valid");
  sc_core::sc_trace(tf, traced_queue_, base + ".queued_packets");
}

}  // namespace wormcast::rtl
