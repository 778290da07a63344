#include "testbenches/app/saturation.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iterator>

namespace wormcast::tb {

namespace {

// A backlog that grew by fewer items than this is within the noise of any
// stable queue, whatever the arrivals (and trial workloads, one multicast
// at a time, never reach it).
constexpr std::uint64_t kMinGrowth = 10;
// With this many samples in the stretch the rise must be a trend: the
// least-squares line's rise over the stretch at least kTrendSigmas times
// the samples' scatter about it (a stable queue near its capacity wanders
// by about its own length, a saturated one climbs steadily), and more than
// 3 % of the arrivals (accepted below 97 % of offered). The share keeps a
// queue just below its capacity, whose slow approach to its level outlasts
// a short run (a processor at 96 % of its CPU limit relaxes over ~10^6
// cycles), from counting: the sum over many nodes' queues is smooth, so its
// rise alone would be "steady". With fewer samples (a short run) only a
// rise of a tenth of the arrivals counts.
constexpr std::size_t kTrendSamples = 6;
constexpr double kTrendSigmas = 4.0;
constexpr double kTrendShare = 0.03, kCoarseShare = 0.1;

std::string percent(std::uint64_t part, std::uint64_t whole) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.0f%%", whole == 0 ? 0.0 : 100.0 * static_cast<double>(part) / static_cast<double>(whole));
  return buf;
}

struct Trend {
  double rise = 0;      // of the least-squares line over the samples' span
  double scatter = 0;   // root-mean-square distance of the samples from it
};

Trend fit(std::vector<BacklogSample>::const_iterator first, std::vector<BacklogSample>::const_iterator last) {
  const auto n = static_cast<double>(last - first);
  double mx = 0, my = 0;
  for (auto it = first; it != last; ++it) {
    mx += static_cast<double>(it->at) / n;
    my += static_cast<double>(it->work.backlog()) / n;
  }
  double sxx = 0, sxy = 0;
  for (auto it = first; it != last; ++it) {
    const double dx = static_cast<double>(it->at) - mx, dy = static_cast<double>(it->work.backlog()) - my;
    sxx += dx * dx;
    sxy += dx * dy;
  }
  const double slope = sxx > 0 ? sxy / sxx : 0;
  double ss = 0;
  for (auto it = first; it != last; ++it) {
    const double e = static_cast<double>(it->work.backlog()) - my - slope * (static_cast<double>(it->at) - mx);
    ss += e * e;
  }
  return {slope * static_cast<double>(std::prev(last)->at - first->at), std::sqrt(ss / n)};
}

std::string trend_words(const BacklogGrowth& g) {
  if (g.samples < kTrendSamples) return "";
  char buf[96];
  std::snprintf(buf, sizeof buf, ", a steady rise of %.0f against a scatter of %.0f over %zu samples", g.rise,
                g.scatter, g.samples);
  return buf;
}

}  // namespace

BacklogGrowth backlog_growth(const std::vector<BacklogSample>& samples, Cycle window_begin, Cycle window_end,
                             Cycle load_end) {
  BacklogGrowth g;
  if (samples.size() < 2) return g;
  const Cycle window = window_end - std::min(window_begin, window_end);
  const Cycle after = load_end > window_end ? load_end - window_end : 0;
  const Cycle length = std::max(window, after) / 2;
  const Cycle start = load_end > length ? load_end - length : 0;
  // The last sample at or before each end of the stretch.
  auto at_or_before = [&samples](Cycle c) {
    auto it = std::upper_bound(samples.begin(), samples.end(), c,
                               [](Cycle x, const BacklogSample& s) { return x < s.at; });
    return it == samples.begin() ? samples.begin() : std::prev(it);
  };
  const auto a = at_or_before(start), b = at_or_before(load_end);
  if (b->at <= a->at) return g;
  g.from = a->at;
  g.to = b->at;
  g.backlog_from = a->work.backlog();
  g.backlog_to = b->work.backlog();
  g.arrived = b->work.arrived - a->work.arrived;
  g.completed = b->work.completed - a->work.completed;
  g.samples = static_cast<std::size_t>(b - a) + 1;
  const std::uint64_t growth = g.backlog_to > g.backlog_from ? g.backlog_to - g.backlog_from : 0;
  const auto arrived = static_cast<double>(g.arrived);
  if (growth < kMinGrowth) return g;
  if (g.samples < kTrendSamples) {
    g.grew = static_cast<double>(growth) > kCoarseShare * arrived;
    return g;
  }
  const Trend t = fit(a, std::next(b));
  g.rise = t.rise;
  g.scatter = t.scatter;
  g.grew = t.rise >= kTrendSigmas * t.scatter && t.rise > kTrendShare * arrived;
  return g;
}

std::vector<SaturationEvidence> judge_saturation(const SaturationInputs& in) {
  std::vector<SaturationEvidence> out;
  if (in.measured_incomplete)
    out.push_back({"measured_incomplete", in.measured_detail.empty() ? "measured work incomplete" : in.measured_detail});
  const BacklogGrowth g = backlog_growth(in.backlog, in.window_begin, in.window_end, in.load_end);
  if (g.grew)
    out.push_back({"backlog_grew", "the backlog of " + in.unit + " grew from " + std::to_string(g.backlog_from) +
                                       " to " + std::to_string(g.backlog_to) + " over cycles " +
                                       std::to_string(g.from) + "-" + std::to_string(g.to) + " with the load on: " +
                                       std::to_string(g.completed) + " completed against " +
                                       std::to_string(g.arrived) + " arrived (" + percent(g.completed, g.arrived) +
                                       ")" + trend_words(g)});
  if (in.ended_by_drain_limit)
    out.push_back({"not_drained", std::to_string(in.packets_left) + " packets and " +
                                      std::to_string(in.messages_left) +
                                      " messages still outstanding when sim.drain_limit ended the run"});
  return out;
}

}  // namespace wormcast::tb
