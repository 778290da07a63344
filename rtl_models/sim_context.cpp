#include "rtl_models/sim_context.h"

#include <algorithm>

namespace wormcast::rtl {

void DeliveryLedger::expect(const Packet& p) {
  std::vector<NodeId> dests;
  if (p.header.kind == HeaderKind::unicast) dests.push_back(p.header.dest);
  else dests = p.header.dests;
  std::sort(dests.begin(), dests.end());
  if (dests.empty()) throw InvariantViolation("packet " + std::to_string(p.id) + " has no destination");
  if (!pending_.emplace(p.origin, std::move(dests)).second)
    throw InvariantViolation("packet " + std::to_string(p.origin) + " entered the network twice");
  ++created_;
}

bool DeliveryLedger::deliver(const Packet& p, NodeId at, Cycle now) {
  auto it = pending_.find(p.origin);
  if (it == pending_.end())
    throw InvariantViolation("cycle " + std::to_string(now) + ": packet " + std::to_string(p.origin) +
                             " delivered to node " + std::to_string(at) +
                             " but it is not outstanding (duplicate delivery or never sent)");
  auto& rest = it->second;
  auto pos = std::lower_bound(rest.begin(), rest.end(), at);
  if (pos == rest.end() || *pos != at)
    throw InvariantViolation("cycle " + std::to_string(now) + ": packet " + std::to_string(p.origin) +
                             " delivered to node " + std::to_string(at) +
                             ", which is not one of its outstanding destinations");
  rest.erase(pos);
  if (!rest.empty()) return false;
  pending_.erase(it);
  ++completed_;
  return true;
}

std::vector<std::string> DeliveryLedger::describe_outstanding(std::size_t limit) const {
  std::vector<std::string> out;
  for (const auto& [id, dests] : pending_) {
    if (out.size() >= limit) break;
    std::string s = "packet " + std::to_string(id) + " -> nodes";
    for (NodeId d : dests) s += " " + std::to_string(d);
    out.push_back(s);
  }
  return out;
}

void SimContext::on_created(const Packet& p) {
  const bool was_empty = ledger.outstanding() == 0;
  ledger.expect(p);
  if (p.measured) {
    ++stats.measured_created;
  }
  if (window.contains(p.created)) stats.window_flits_created += static_cast<std::uint64_t>(p.length);
  if (was_empty && on_first_outstanding) on_first_outstanding();
}

void SimContext::on_delivered(const Packet& p, NodeId at, Cycle now) {
  const bool complete = ledger.deliver(p, at, now);
  if (p.measured && complete) {
    ++stats.measured_delivered;
    stats.latency.push_back(static_cast<std::uint32_t>(now - p.created));
    stats.network_latency.push_back(static_cast<std::uint32_t>(now - p.injected));
  }
}

}  // namespace wormcast::rtl
