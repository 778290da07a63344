#include "rtl_models/core/sim_context.h"

#include <algorithm>
#include <tuple>

namespace wormcast::rtl {

void DeliveryLedger::expect(const Packet& p) {
  if (p.header.kind == HeaderKind::unicast) {
    expect_unicast(p.origin, p.header.dest);
    return;
  }
  // A multicast packet's sorted list is built first (an empty set is refused
  // before the window grows).
  std::vector<NodeId> many = p.header.dests;
  std::sort(many.begin(), many.end());
  if (many.empty()) throw InvariantViolation("packet " + std::to_string(p.id) + " has no destination");
  open_list(p.origin, std::move(many));
}

void DeliveryLedger::expect_unicast(PacketId origin, NodeId dest) {
  // A negative node id (a packet nobody addressed) fits no unicast slot: it
  // is kept as a list, and refused where it is delivered.
  if (dest < 0) return open_list(origin, {dest});
  open(origin) = dest + 1;
  ++outstanding_;
  ++created_;
}

void DeliveryLedger::open_list(PacketId origin, std::vector<NodeId> dests) {
  Slot& s = open(origin);
  std::int32_t k;
  if (free_lists_.empty()) {
    k = static_cast<std::int32_t>(lists_.size());
    lists_.push_back(std::move(dests));
  } else {
    k = free_lists_.back();
    free_lists_.pop_back();
    lists_[static_cast<std::size_t>(k)] = std::move(dests);
  }
  s = -(k + 1);
  ++outstanding_;
  ++created_;
}

DeliveryLedger::Slot& DeliveryLedger::open(PacketId origin) {
  if (slots_.empty()) base_ = origin;
  for (; origin < base_; --base_) slots_.emplace_front(0);   // an older id than any outstanding one
  const std::size_t i = static_cast<std::size_t>(origin - base_);
  for (std::size_t n = slots_.size(); n <= i; ++n) slots_.emplace_back(0);
  Slot& s = slots_[i];
  if (s != 0) throw InvariantViolation("packet " + std::to_string(origin) + " entered the network twice");
  return s;
}

DeliveryLedger::Slot* DeliveryLedger::find(PacketId origin) {
  if (origin < base_ || origin - base_ >= slots_.size()) return nullptr;
  Slot& s = slots_[static_cast<std::size_t>(origin - base_)];
  return s != 0 ? &s : nullptr;
}

bool DeliveryLedger::deliver(const Packet& p, NodeId at, Cycle now) {
  Slot* s = find(p.origin);
  if (s == nullptr)
    throw InvariantViolation("cycle " + std::to_string(now) + ": packet " + std::to_string(p.origin) +
                             " delivered to node " + std::to_string(at) +
                             " but it is not outstanding (duplicate delivery or never sent)");
  bool hit = false, done = true;
  if (*s < 0) {
    const std::int32_t k = -*s - 1;
    auto& many = lists_[static_cast<std::size_t>(k)];
    auto pos = std::lower_bound(many.begin(), many.end(), at);
    if ((hit = pos != many.end() && *pos == at)) many.erase(pos);
    done = many.empty();
    if (done) free_lists_.push_back(k);
  } else {
    hit = *s == at + 1;
  }
  if (!hit)
    throw InvariantViolation("cycle " + std::to_string(now) + ": packet " + std::to_string(p.origin) +
                             " delivered to node " + std::to_string(at) +
                             ", which is not one of its outstanding destinations");
  if (!done) return false;
  *s = 0;
  --outstanding_;
  ++completed_;
  while (!slots_.empty() && slots_.front() == 0) {   // the window starts at the oldest outstanding id
    slots_.pop_front();
    ++base_;
  }
  return true;
}

std::vector<std::string> DeliveryLedger::describe_outstanding(std::size_t limit) const {
  std::vector<std::string> out;
  for (std::size_t i = 0; i < slots_.size() && out.size() < limit; ++i) {
    const Slot slot = slots_[i];
    if (slot == 0) continue;
    std::string s = "packet " + std::to_string(base_ + i) + " -> nodes";
    if (slot < 0)
      for (NodeId d : lists_[static_cast<std::size_t>(-slot - 1)]) s += " " + std::to_string(d);
    else
      s += " " + std::to_string(slot - 1);
    out.push_back(s);
  }
  return out;
}

// Inlined into both on_created: a call of its own costs about 10
// instructions per packet created.
__attribute__((always_inline)) inline void SimContext::count_created(bool measured, Cycle created, int length,
                                                                     bool was_empty) {
  if (measured) ++stats.measured_created;
  stats.window_flits_created.add(window, created, static_cast<std::uint64_t>(length));
  if (was_empty && on_first_outstanding) on_first_outstanding();
}

void SimContext::on_created(const Packet& p) {
  const bool was_empty = idle();
  ledger.expect(p);
  count_created(p.measured, p.created, p.length, was_empty);
}

void SimContext::admit(Packet& p, NodeId src, Cycle now) {
  p.id = new_packet_id();
  p.origin = p.id;
  p.src = src;
  p.created = now;
  p.measured = window.contains(now);
  on_created(p);
}

void SimContext::on_created(const QueuedUnicast& q) {
  const bool was_empty = idle();
  ledger.expect_unicast(q.id, q.shape.dest);
  count_created(q.measured, q.created, q.shape.length, was_empty);
}

void SimContext::on_delivered(const Packet& p, NodeId at, Cycle now) {
  const bool complete = ledger.deliver(p, at, now);
  if (p.measured && complete) {
    ++stats.measured_delivered;
    stats.latency.add(static_cast<std::uint32_t>(now - p.created));
    stats.network_latency.add(static_cast<std::uint32_t>(now - p.injected));
  }
}

void MessageLedger::expect(std::uint64_t id, NodeId src, std::vector<NodeId> dests, int bytes, Cycle send_call,
                           bool measured) {
  std::sort(dests.begin(), dests.end());
  if (dests.empty()) throw InvariantViolation("message " + std::to_string(id) + " has no destination");
  if (std::adjacent_find(dests.begin(), dests.end()) != dests.end())
    throw InvariantViolation("message " + std::to_string(id) + " names a destination twice");
  if (!pending_.emplace(id, Record{src, std::move(dests), bytes, send_call, measured}).second)
    throw InvariantViolation("message " + std::to_string(id) + " sent twice");
}

bool MessageLedger::deliver(std::uint64_t id, NodeId at, Cycle now) {
  auto it = pending_.find(id);
  if (it == pending_.end())
    throw InvariantViolation("cycle " + std::to_string(now) + ": message " + std::to_string(id) +
                             " received at node " + std::to_string(at) +
                             " but it is not outstanding (duplicate delivery or never sent)");
  auto& rest = it->second.remaining;
  auto pos = std::lower_bound(rest.begin(), rest.end(), at);
  if (pos == rest.end() || *pos != at)
    throw InvariantViolation("cycle " + std::to_string(now) + ": message " + std::to_string(id) +
                             " received at node " + std::to_string(at) + ", which is not an outstanding destination");
  rest.erase(pos);
  if (!rest.empty()) return false;
  pending_.erase(it);
  return true;
}

void MessageLedger::set_posted(std::uint64_t id, Cycle c) {
  auto it = pending_.find(id);
  if (it != pending_.end()) it->second.posted = c;
}

std::pair<Cycle, Cycle> MessageLedger::sender_times(std::uint64_t id) const {
  auto it = pending_.find(id);
  if (it == pending_.end()) return {0, 0};
  return {it->second.send_call, it->second.posted};
}

bool MessageLedger::measured(std::uint64_t id) const {
  auto it = pending_.find(id);
  return it != pending_.end() && it->second.measured;
}

std::vector<std::string> MessageLedger::describe_outstanding(std::size_t limit) const {
  std::vector<std::string> out;
  for (const auto& [id, r] : pending_) {
    if (out.size() >= limit) break;
    std::string s = "message " + std::to_string(id) + " from node " + std::to_string(r.src) + " (" +
                    std::to_string(r.bytes) + " bytes, sent at cycle " + std::to_string(r.send_call) + ") -> nodes";
    for (NodeId d : r.remaining) s += " " + std::to_string(d);
    out.push_back(s);
  }
  return out;
}

void SimContext::on_message_sent(std::uint64_t id, NodeId src, const std::vector<NodeId>& dests, int bytes,
                                 Cycle now) {
  const bool measured = window.contains(now);
  const bool was_empty = idle();
  messages.expect(id, src, dests, bytes, now, measured);
  msg_stats.created += dests.size();
  if (measured) {
    ++msg_stats.measured_created;
    msg_stats.measured_expected += dests.size();
  }
  if (was_empty && on_first_outstanding) on_first_outstanding();
}

void SimContext::on_message_received(std::uint64_t id, NodeId at, MessageTimes t) {
  const bool measured = messages.measured(id);
  std::tie(t.send_call, t.posted) = messages.sender_times(id);
  messages.deliver(id, at, t.received);
  ++msg_stats.delivered;
  if (!measured) return;
  ++msg_stats.measured_delivered;
  msg_stats.latency.add(static_cast<std::uint32_t>(t.received - t.send_call));
  auto d = [](Cycle a, Cycle b) { return static_cast<double>(b - a); };
  msg_stats.host_send += d(t.send_call, t.posted);
  msg_stats.io_bus_send += d(t.posted, t.dma_in_done);
  msg_stats.ni_send += d(t.dma_in_done, t.ns_done);
  msg_stats.network += d(t.ns_done, t.arrived);
  msg_stats.ni_receive += d(t.arrived, t.nr_done);
  msg_stats.io_bus_receive += d(t.nr_done, t.dma_out_done);
  msg_stats.host_receive += d(t.dma_out_done, t.received);
}

}  // namespace wormcast::rtl
