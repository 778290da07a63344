#include "rtl_models/endpoint.h"

#include <algorithm>

namespace wormcast::rtl {

Endpoint::Endpoint(sc_core::sc_module_name name, NodeId id, SimContext& ctx, bool vct)
    : sc_core::sc_module(name), out("out"), in("in"), id_(id), ctx_(ctx), vct_(vct), wake_(ctx.clock) {}

void Endpoint::end_of_elaboration() {
  sc_core::sc_spawn_options opts;
  opts.spawn_method();
  opts.set_sensitivity(&wake_.event());
  if (out.size() > 0) out->attach_sender(this);
  if (in.size() > 0) in->attach_receiver(this);
  // Runs once at time 0 to schedule the first packet creation.
  sc_core::sc_spawn(sc_core::sc_bind(&Endpoint::tick, this), sc_core::sc_gen_unique_name("tick"), &opts);
}

void Endpoint::admit(PacketPtr p, Cycle now) {
  if (p->length < 1 || p->header_flits < 1 || p->header_flits > p->length)
    throw std::invalid_argument(std::string(name()) + ": packet needs 1 <= header_flits <= length");
  p->id = ctx_.new_packet_id();
  p->origin = p->id;
  p->src = id_;
  p->created = now;
  p->measured = ctx_.window.contains(now);
  ctx_.on_created(*p);
  queue_.push_back(std::move(p));
}

void Endpoint::inject(PacketPtr p) {
  const Cycle now = ctx_.clock.now();
  admit(std::move(p), now);
  // If this cycle has been evaluated already, the packet starts next cycle.
  wake_.at(last_tick_ == now ? now + 1 : now);
}

void Endpoint::tick() {
  const Cycle now = ctx_.clock.now();
  if (now == last_tick_) return;
  last_tick_ = now;
  wake_.fired(now);
  bool active = false;
  Cycle next = UINT64_MAX;
  tx_valid_ = rx_valid_ = false;

  // Packet creation by the synthetic source.
  if (source_) {
    while (source_->next_time() <= now && now < stop_at_) {
      auto p = std::make_shared<Packet>();
      source_->generate(*p);
      admit(std::move(p), now);
    }
    if (source_->next_time() < stop_at_) next = std::min(next, source_->next_time());
  }

  // Injection: one flit per cycle while the switch's input buffer has room.
  if (!current_ && !queue_.empty()) {
    current_ = std::move(queue_.front());
    queue_.pop_front();
    next_flit_ = 0;
  }
  if (current_ && out.size() > 0) {
    const int credits = out->credits(now);
    if (credits > 0 && !(vct_ && next_flit_ == 0 && credits < current_->length)) {
      if (next_flit_ == 0) current_->injected = now;
      const bool tail = next_flit_ == current_->length - 1;
      out->send(Flit{current_, next_flit_++}, now, 0);
      ++ctx_.flits.injected;
      ++ctx_.flits.moves;
      if (ctx_.window.contains(now)) ++ctx_.stats.window_flits_injected;
      tx_valid_ = true;
      if (tail) current_.reset();
      active = true;
    } else {
      next = std::min(next, out->next_credit_arrival());
    }
  }

  // Sink: every arrived flit is consumed and its slot credited back.
  if (in.size() > 0) {
    while (in->has_flit(now)) {
      Flit f = in->pop();
      in->return_credits(1, now);
      ++ctx_.flits.ejected;
      if (ctx_.window.contains(now)) ++ctx_.stats.window_flits_ejected;
      if (f.head()) {
        if (rx_pkt_)
          throw InvariantViolation(std::string(name()) + ": head of packet " + std::to_string(f.pkt->id) +
                                   " arrived inside packet " + std::to_string(rx_pkt_->id));
        rx_pkt_ = f.pkt;
        rx_next_ = 0;
      }
      if (!rx_pkt_ || f.pkt != rx_pkt_ || f.index != rx_next_)
        throw InvariantViolation(std::string(name()) + ": flit " + std::to_string(f.index) + " of packet " +
                                 std::to_string(f.pkt->id) + " arrived out of order");
      ++rx_next_;
      rx_valid_ = true;
      active = true;
      if (f.tail()) {
        ++received_;
        ctx_.on_delivered(*rx_pkt_, id_, now);
        if (on_receive) on_receive(*rx_pkt_, now);
        rx_pkt_.reset();
      }
    }
    next = std::min(next, in->next_flit_arrival());
  }
  traced_queue_ = static_cast<int>(queued_packets());

  if (active) next = now + 1;
  if (next != UINT64_MAX) wake_.at(next);
}

std::string Endpoint::describe(Cycle) const {
  std::string s = std::string(name()) + ": " + std::to_string(queued_packets()) + " packets queued";
  if (current_)
    s += ", injecting packet " + std::to_string(current_->id) + " (" + std::to_string(next_flit_) + "/" +
         std::to_string(current_->length) + " flits sent)";
  if (rx_pkt_)
    s += ", receiving packet " + std::to_string(rx_pkt_->id) + " (" + std::to_string(rx_next_) + " flits in)";
  return s;
}

void Endpoint::trace(sc_core::sc_trace_file* tf) {
  const std::string base = name();
  sc_core::sc_trace(tf, tx_valid_, base + ".tx_valid");
  sc_core::sc_trace(tf, rx_valid_, base + ".rx_valid");
  sc_core::sc_trace(tf, traced_queue_, base + ".queued_packets");
}

}  // namespace wormcast::rtl
