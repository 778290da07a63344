// What the multicast load workloads (direct_multicast_load,
// ib_multicast_load) share: sources that create multicasts by their arrival
// processes, from one SystemC thread, and the accounting of what was
// created, delivered and completed, with the statistics of the multicasts
// created in the measurement window. The workload says how a source's
// multicast is sent and when its queue is full; the service it sends
// through reports deliveries and completions here.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "rtl_models/core/measure_window.h"
#include "rtl_models/core/sim_context.h"
#include "rtl_models/core/statistics.h"
#include "testbenches/app/saturation.h"
#include "testbenches/app/workloads/arrivals.h"
#include "testbenches/app/workloads/multicast_service.h"
#include "testbenches/app/workloads/workload.h"

namespace wormcast::tb {

struct StreamSource {
  rtl::NodeId node = 0;
  ArrivalProcess arrivals;
  Rng rng;                  // the source's own draws (destination sets)
  bool overflowed = false;  // its queue was full at an arrival: it stopped for good
};

// Made with std::make_shared: its statistics keep it alive.
class MulticastStream : public std::enable_shared_from_this<MulticastStream> {
 public:
  const rtl::SimContext* ctx = nullptr;
  std::vector<StreamSource> sources;
  Cycle stop = UINT64_MAX;
  // Sends one multicast of the source, created now.
  std::function<void(StreamSource&)> send;
  // The queue's length at a source, in its own unit; an arrival that finds
  // queue_limit there is refused and the source stops for good.
  std::function<std::size_t(const StreamSource&)> waiting;
  std::size_t queue_limit = 1;

  // One source per node of `nodes`, each with its own arrival process and
  // draws (forked from `rng` by node number).
  void add_sources(const std::vector<rtl::NodeId>& nodes, ArrivalKind kind, double rate, const Rng& rng);
  // Takes the service's deliveries and completions (a MulticastService or an
  // IbMulticastService).
  template <class Service>
  void listen(Service& service) {
    service.on_delivery([this](const Multicast&, rtl::NodeId, Cycle at) { delivered(at); });
    service.on_complete([this](const Multicast& m) { completed(m); });
  }

  // The arrival thread: creates every source's multicasts at their cycles
  // until `stop` (spawn it once the network is built).
  void generate();
  void spawn(const char* name);
  // Reports from the service.
  void delivered(Cycle at) { window_deliveries_.add(ctx->window, at); }
  void completed(const Multicast& m);

  bool overflowed() const;
  bool measured_open() const { return measured_open_ > 0; }
  std::string pending_work(const std::string& queue_unit) const;
  WorkCount work_count() const { return {created_, completed_}; }
  // The multicast.* statistics; `latency_end` says where a latency ends
  // ("the end of t_R at the last destination"), `sent` what a multicast
  // sends ("unicasts or worms", "packets").
  void register_statistics(rtl::StatsScope s, const std::string& latency_end, const std::string& sent) const;

 private:
  void create(StreamSource& s, Cycle at);
  Cycle next_arrival() const;
  std::uint64_t created_ = 0, completed_ = 0, measured_created_ = 0, measured_open_ = 0;
  std::uint64_t messages_ = 0;           // sent by the completed multicasts
  rtl::WindowedCounter window_created_, window_deliveries_;
  std::vector<std::uint32_t> latency_;   // measured multicasts: creation to the last destination
  std::vector<double> mean_latency_;     // measured multicasts: mean over their destinations
};

// A load workload whose work is one MulticastStream (stream_, set by its
// attach): the run loop's questions are answered from the stream.
class StreamWorkload : public Workload {
 public:
  bool measured_pending(const rtl::SimContext& ctx) const override;
  bool measured_outstanding(const rtl::SimContext& ctx) const override;
  void stop_creating_at(Cycle c) override;
  std::string pending_work(const rtl::SimContext& ctx) const override;
  WorkCount work_count(const rtl::SimContext& ctx) const override;
  std::string work_unit() const override { return "multicasts"; }

 protected:
  // What waits at a source ("multicasts", "packets"), for pending_work.
  virtual const char* queue_unit() const = 0;
  std::shared_ptr<MulticastStream> stream_;
};

}  // namespace wormcast::tb
