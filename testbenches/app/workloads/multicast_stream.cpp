#include "testbenches/app/workloads/multicast_stream.h"

#include <algorithm>

namespace wormcast::tb {

Cycle MulticastStream::next_arrival() const {
  Cycle next = UINT64_MAX;
  for (const StreamSource& s : sources)
    if (!s.overflowed) next = std::min(next, s.arrivals.peek());
  return next;
}

void MulticastStream::generate() {
  for (;;) {
    const Cycle next = next_arrival();
    if (next >= stop) return;
    if (next > ctx->clock.now()) sc_core::wait(ctx->clock.until(next));
    const Cycle now = ctx->clock.now();
    if (now >= stop) return;
    for (StreamSource& s : sources)
      while (!s.overflowed && s.arrivals.peek() <= now) create(s, s.arrivals.pop());
  }
}

void MulticastStream::spawn(const char* name) {
  // `this` is owned by the workload's run, which outlives the simulation
  // (the thread may still be suspended when the run ends).
  sc_core::sc_spawn([this] { generate(); }, name);
}

void MulticastStream::add_sources(const std::vector<rtl::NodeId>& nodes, ArrivalKind kind, double rate,
                                  const Rng& rng) {
  for (rtl::NodeId x : nodes)
    sources.push_back({x, ArrivalProcess(kind, rate, rng.fork(0x6d6c000000ULL + static_cast<std::uint64_t>(x))),
                       rng.fork(0x6d73000000ULL + static_cast<std::uint64_t>(x))});
}

void MulticastStream::create(StreamSource& s, Cycle at) {
  if (waiting(s) >= queue_limit) {
    s.overflowed = true;
    return;
  }
  send(s);
  ++created_;
  window_created_.add(ctx->window, at);
  if (ctx->window.contains(at)) {
    ++measured_created_;
    ++measured_open_;
  }
}

void MulticastStream::completed(const Multicast& m) {
  ++completed_;
  messages_ += static_cast<std::uint64_t>(m.messages_sent());
  if (!ctx->window.contains(m.requested())) return;
  --measured_open_;
  latency_.push_back(static_cast<std::uint32_t>(m.latency()));
  double sum = 0;
  for (const Multicast::Delivery& d : m.deliveries()) sum += static_cast<double>(d.at - m.requested());
  mean_latency_.push_back(sum / static_cast<double>(m.deliveries().size()));
}

bool MulticastStream::overflowed() const {
  return std::any_of(sources.begin(), sources.end(), [](const StreamSource& s) { return s.overflowed; });
}

std::string MulticastStream::pending_work(const std::string& queue_unit) const {
  std::size_t queued = 0, overflows = 0;
  for (const StreamSource& s : sources) {
    queued += waiting(s);
    overflows += s.overflowed ? 1 : 0;
  }
  return std::to_string(measured_open_) + " of " + std::to_string(measured_created_) +
         " measured multicasts incomplete, " + std::to_string(queued) + " " + queue_unit + " waiting at their sources" +
         (overflows ? "; " + std::to_string(overflows) + " sources reached traffic.source_queue (saturated)" : "");
}

void MulticastStream::register_statistics(rtl::StatsScope s, const std::string& latency_end,
                                          const std::string& sent) const {
  const rtl::SimContext& c = s.ctx;
  const double us = c.clock.cycles_to_us(1.0);
  const std::shared_ptr<const MulticastStream> self = shared_from_this();
  const auto per = [self, &c] {   // window cycles x sources
    const Cycle w = c.window.end == UINT64_MAX ? 0 : c.window.end - c.window.begin;
    return static_cast<double>(w) * static_cast<double>(self->sources.size());
  };
  s.stats.add("multicast.latency_cycles", "cycles", "multicasts created in the window: creation at the source to " +
              latency_end, [self, us] { return summarize_cycles(self->latency_, us); });
  s.stats.add("multicast.mean_latency_cycles", "cycles",
              "multicasts created in the window: creation to the same end at each destination, the mean over its "
              "destinations: count, mean over multicasts, min, max",
              [self, us] { return summarize_values(self->mean_latency_, us); });
  s.stats.add("multicast.created", "multicasts", "multicasts created (all of the run)", [self] { return self->created_; });
  s.stats.add("multicast.completed", "multicasts", "multicasts delivered to every destination (all of the run)",
              [self] { return self->completed_; });
  s.stats.add("multicast.measured_created", "multicasts", "multicasts created in the window",
              [self] { return self->measured_created_; });
  s.stats.add("multicast.measured_completed", "multicasts", "of those, delivered to every destination",
              [self] { return self->measured_created_ - self->measured_open_; });
  s.stats.add("multicast.offered_rate", "multicasts/cycle/source", "multicasts created in the window per cycle per "
              "source (expected: load / message.size)",
              [self, per] { return per() > 0 ? static_cast<double>(self->window_created_.value()) / per() : 0.0; });
  s.stats.add("multicast.delivered_rate", "deliveries/cycle/source", "destinations that received a multicast in the "
              "window, per cycle per source (below saturation: destinations per multicast * offered_rate)",
              [self, per] { return per() > 0 ? static_cast<double>(self->window_deliveries_.value()) / per() : 0.0; });
  s.stats.add("multicast.messages", "messages", sent + " the completed multicasts sent",
              [self] { return self->messages_; });
  s.stats.add("multicast.sources", "nodes", "nodes creating multicasts", [self] { return self->sources.size(); });
}

bool StreamWorkload::measured_pending(const rtl::SimContext& ctx) const {
  return stream_ && (stream_->overflowed() || measured_outstanding(ctx));
}

bool StreamWorkload::measured_outstanding(const rtl::SimContext&) const { return stream_ && stream_->measured_open(); }

void StreamWorkload::stop_creating_at(Cycle c) {
  if (stream_) stream_->stop = c;
}

std::string StreamWorkload::pending_work(const rtl::SimContext& ctx) const {
  if (!stream_) return "";
  return stream_->pending_work(queue_unit()) + ", " + std::to_string(ctx.ledger.outstanding()) + " packets and " +
         std::to_string(ctx.messages.outstanding()) + " messages outstanding";
}

WorkCount StreamWorkload::work_count(const rtl::SimContext&) const {
  return stream_ ? stream_->work_count() : WorkCount{};
}

}  // namespace wormcast::tb
