// Workloads run side by side on one network (a multicast workload with its
// background traffic): each installs its own sources, keeps its own
// statistics and its own account of measured work, and the run waits for
// all of them. The first is the primary: it decides whether the run is one
// of trials and gives the work count the saturation test samples; the
// others are judged by their measured work (beside a workload of trials,
// by what the trials need of them: BackgroundWorkload).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "testbenches/app/workloads/workload.h"

namespace wormcast::tb {

struct BackgroundParams;   // background_workload.h

class ComposedWorkload : public Workload {
 public:
  explicit ComposedWorkload(std::vector<std::unique_ptr<Workload>> parts);
  std::unique_ptr<Workload> clone() const override;
  // The parts' keys are visited by whoever configured them.
  void visit(ParamVisitor&, const rtl::NodeModel&) override {}
  std::string node_count_problem(int nodes) const override;
  void attach(topo::NetworkModel& net, rtl::SimContext& ctx, const Rng& rng) override;
  bool measured_pending(const rtl::SimContext& ctx) const override;
  bool measured_outstanding(const rtl::SimContext& ctx) const override;
  void stop_creating_at(Cycle c) override;
  void register_statistics(rtl::StatsScope s) const override;
  std::string pending_work(const rtl::SimContext& ctx) const override;
  WorkCount work_count(const rtl::SimContext& ctx) const override { return primary().work_count(ctx); }
  std::string work_unit() const override { return primary().work_unit(); }
  bool of_trials() const override { return primary().of_trials(); }

  Workload& primary() const { return *parts_.front(); }
  const std::vector<std::unique_ptr<Workload>>& parts() const { return parts_; }

 private:
  std::vector<std::unique_ptr<Workload>> parts_;
};

// The workload a run attaches: `w` alone, or `w` with background traffic.
std::unique_ptr<Workload> with_background(std::unique_ptr<Workload> w, const BackgroundParams& background);

}  // namespace wormcast::tb
