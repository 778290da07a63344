// The packet side of a link attachment, shared by every module that puts
// whole packets on a link and takes whole packets off one (traffic endpoints,
// NI coprocessors). Not modules: the owner calls step() from its clocked
// process.
//   PacketInjector: a queue of packets sent one flit per cycle under credit
//     flow control (cut-through, or virtual cut-through for the head).
//   PacketAssembler: takes every arrived flit, checks packets arrive whole
//     and in order, and hands each complete packet to the owner; credits are
//     returned at once (a sink) or later by the owner (a buffer that frees
//     space when the packet leaves it).
#pragma once

#include <deque>
#include <functional>
#include <string>

#include "rtl_models/link.h"
#include "rtl_models/sim_context.h"

namespace wormcast::rtl {

class PacketInjector {
 public:
  PacketInjector(SimContext& ctx, bool vct) : ctx_(ctx), vct_(vct) {}
  void push(PacketPtr p) { queue_.push_back(std::move(p)); }
  // Send at most one flit at cycle now. Returns true if a flit left; when
  // blocked on credits, lowers `next` to the next credit arrival.
  bool step(LinkTxIf& tx, Cycle now, Cycle& next);
  std::size_t queued() const { return queue_.size() + (current_ ? 1 : 0); }
  bool busy() const { return current_ != nullptr || !queue_.empty(); }
  std::string describe() const;
  // Called when a packet's tail flit has left.
  std::function<void(const PacketPtr&, Cycle)> on_sent;

 private:
  SimContext& ctx_;
  bool vct_;
  std::deque<PacketPtr> queue_;
  PacketPtr current_;
  int next_flit_ = 0;
};

class PacketAssembler {
 public:
  PacketAssembler(SimContext& ctx, std::string owner, bool return_credits_at_once)
      : ctx_(ctx), owner_(std::move(owner)), credit_at_once_(return_credits_at_once) {}
  // Take every flit that has arrived by cycle now; on_packet(pkt, now) for
  // each completed packet. Returns true if any flit arrived; lowers `next`
  // to the next flit arrival.
  bool step(LinkRxIf& rx, Cycle now, Cycle& next, const std::function<void(const PacketPtr&, Cycle)>& on_packet);
  bool receiving() const { return pkt_ != nullptr; }
  std::string describe() const;

 private:
  SimContext& ctx_;
  std::string owner_;
  bool credit_at_once_;
  PacketPtr pkt_;
  int next_ = 0;
};

}  // namespace wormcast::rtl
