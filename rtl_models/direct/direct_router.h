// What a direct network (topologies/networks/direct_network_kind.h) needs of
// a router, whichever implementation router.impl selects: the fast VcRouter
// (vc_router.h) or the plainly written ReferenceRouter (reference_router.h),
// which model the same microarchitecture and must give identical results.
//
// The elaborator binds the links (external ports to rtl::VcLink, internal
// ports to rtl::Link pairs) and the "3-way" arbiters; the run reads the
// buffered flits (flit conservation), the peak occupancy (statistics), the
// blocked VCs (watchdog) and the per-channel send counts, and traces the VCD.
// The routers themselves are not derived from this interface (the fast one's
// object layout is fixed for speed); DirectRouterOf<R> adapts either one.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <systemc>
#include <vector>

#include "rtl_models/core/clock.h"
#include "rtl_models/core/link.h"
#include "rtl_models/direct/shared_link.h"
#include "rtl_models/direct/router_probe.h"
#include "rtl_models/direct/vc_link.h"

namespace wormcast::rtl {

class DirectRouter {
 public:
  virtual ~DirectRouter() = default;
  virtual const char* name() const = 0;
  virtual void connect_in(int port, VcLink& link) = 0;
  virtual void connect_out(int port, VcLink& link) = 0;
  virtual void share_port(int port, SharedLink* link, int side) = 0;
  virtual FlitInPort& local_in(int l) = 0;
  virtual FlitOutPort& local_out(int l) = 0;
  virtual int num_channels() const = 0;
  virtual int external_channels() const = 0;
  virtual std::uint64_t buffered_flits() const = 0;
  virtual int peak_occupancy(Cycle now) const = 0;
  virtual std::uint64_t flits_sent(int out_channel) const = 0;
  virtual std::vector<std::string> describe_blocked(Cycle now) const = 0;
  virtual void trace(sc_core::sc_trace_file* tf) = 0;
  // Every flit that leaves the router goes to `probe` (router_probe.h);
  // call during elaboration. Results are the same with and
  // without one.
  virtual void attach_probe(RouterProbe* probe) = 0;
};

// A router R (VcRouter or ReferenceRouter) behind the interface; owns it.
template <class R>
class DirectRouterOf final : public DirectRouter {
 public:
  explicit DirectRouterOf(std::unique_ptr<R> r) : r_(std::move(r)) {}
  R& router() { return *r_; }
  const char* name() const override { return r_->name(); }
  void connect_in(int port, VcLink& link) override { r_->connect_in(port, link); }
  void connect_out(int port, VcLink& link) override { r_->connect_out(port, link); }
  void share_port(int port, SharedLink* link, int side) override { r_->share_port(port, link, side); }
  FlitInPort& local_in(int l) override { return *r_->local_in.at(static_cast<std::size_t>(l)); }
  FlitOutPort& local_out(int l) override { return *r_->local_out.at(static_cast<std::size_t>(l)); }
  int num_channels() const override { return r_->num_channels(); }
  int external_channels() const override { return r_->external_channels(); }
  std::uint64_t buffered_flits() const override { return r_->buffered_flits(); }
  int peak_occupancy(Cycle now) const override { return r_->peak_occupancy(now); }
  std::uint64_t flits_sent(int out_channel) const override { return r_->flits_sent(out_channel); }
  std::vector<std::string> describe_blocked(Cycle now) const override { return r_->describe_blocked(now); }
  void trace(sc_core::sc_trace_file* tf) override { r_->trace(tf); }
  void attach_probe(RouterProbe* probe) override { r_->attach_probe(probe); }

 private:
  std::unique_ptr<R> r_;
};

}  // namespace wormcast::rtl
