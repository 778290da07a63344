#include "testbenches/app/workloads/composed_workload.h"

#include <algorithm>
#include <stdexcept>

#include "testbenches/app/workloads/background_workload.h"

namespace wormcast::tb {

ComposedWorkload::ComposedWorkload(std::vector<std::unique_ptr<Workload>> parts) : parts_(std::move(parts)) {
  if (parts_.empty()) throw std::invalid_argument("a composed workload needs at least one workload");
}

std::unique_ptr<Workload> ComposedWorkload::clone() const {
  std::vector<std::unique_ptr<Workload>> copies;
  for (const auto& w : parts_) copies.push_back(w->clone());
  return std::make_unique<ComposedWorkload>(std::move(copies));
}

std::string ComposedWorkload::node_count_problem(int nodes) const {
  for (const auto& w : parts_)
    if (std::string p = w->node_count_problem(nodes); !p.empty()) return p;
  return {};
}

void ComposedWorkload::attach(topo::NetworkModel& net, rtl::SimContext& ctx, const Rng& rng) {
  for (const auto& w : parts_) w->attach(net, ctx, rng);
}

bool ComposedWorkload::measured_pending(const rtl::SimContext& ctx) const {
  return std::any_of(parts_.begin(), parts_.end(), [&ctx](const auto& w) { return w->measured_pending(ctx); });
}

bool ComposedWorkload::measured_outstanding(const rtl::SimContext& ctx) const {
  return std::any_of(parts_.begin(), parts_.end(), [&ctx](const auto& w) { return w->measured_outstanding(ctx); });
}

void ComposedWorkload::stop_creating_at(Cycle c) {
  for (const auto& w : parts_) w->stop_creating_at(c);
}

void ComposedWorkload::register_statistics(rtl::StatsScope s) const {
  for (const auto& w : parts_) w->register_statistics(s);
}

std::string ComposedWorkload::pending_work(const rtl::SimContext& ctx) const {
  std::string s;
  for (const auto& w : parts_) {
    if (!w->measured_pending(ctx)) continue;
    if (!s.empty()) s += "; ";
    s += w->pending_work(ctx);
  }
  return s;
}

std::unique_ptr<Workload> with_background(std::unique_ptr<Workload> w, const BackgroundParams& background) {
  if (!background.on()) return w;
  const bool trials = w->of_trials();
  std::vector<std::unique_ptr<Workload>> parts;
  parts.push_back(std::move(w));
  parts.push_back(std::make_unique<BackgroundWorkload>(background, trials));
  return std::make_unique<ComposedWorkload>(std::move(parts));
}

}  // namespace wormcast::tb
