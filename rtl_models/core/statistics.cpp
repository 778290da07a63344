#include "rtl_models/core/statistics.h"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>

namespace wormcast {

namespace {
bool nests(const std::string& outer, const std::string& inner) {
  return inner.size() > outer.size() && inner.compare(0, outer.size(), outer) == 0 && inner[outer.size()] == '.';
}
}  // namespace

void Statistics::add(std::string name, std::string unit, std::string description, Probe probe) {
  for (const auto& e : entries_)
    if (e.info.name == name || nests(e.info.name, name) || nests(name, e.info.name))
      throw std::logic_error("statistic '" + name + "' clashes with '" + e.info.name + "'");
  entries_.push_back(
      Entry{StatisticInfo{std::move(name), std::move(unit), std::move(description), owner_}, std::move(probe)});
}

nlohmann::json Statistics::collect() const {
  nlohmann::json out = nlohmann::json::object();
  for (const auto& e : entries_) out[nlohmann::json::json_pointer("/" + [&] {
        std::string p = e.info.name;
        for (auto& c : p)
          if (c == '.') c = '/';
        return p;
      }())] = e.probe();
  return out;
}

std::vector<StatisticInfo> Statistics::list() const {
  std::vector<StatisticInfo> out;
  for (const auto& e : entries_) out.push_back(e.info);
  return out;
}

std::string plugin_owner(const std::string& what, const std::string& name, const std::string& selector) {
  return what + " '" + name + "' (" + selector + ")";
}

nlohmann::json describe_statistics(const std::vector<StatisticInfo>& list) {
  nlohmann::json out = nlohmann::json::array();
  for (const auto& i : list)
    out.push_back({{"name", i.name}, {"unit", i.unit}, {"description", i.description}, {"owner", i.owner}});
  return out;
}

nlohmann::json summarize_values(const std::vector<double>& v, double us_per_unit) {
  nlohmann::json j{{"count", v.size()}};
  if (v.empty()) return j;
  const double mean = std::accumulate(v.begin(), v.end(), 0.0) / static_cast<double>(v.size());
  j["mean"] = mean;
  j["min"] = *std::min_element(v.begin(), v.end());
  j["max"] = *std::max_element(v.begin(), v.end());
  if (us_per_unit > 0) j["mean_us"] = mean * us_per_unit;
  return j;
}

void CycleSamples::add_outside(std::uint32_t x) {
  if (x >= kDense) {
    sparse_.push_back(x);
    sparse_sorted_ = sparse_.size() == 1 || (sparse_sorted_ && sparse_[sparse_.size() - 2] <= x);
    return;
  }
  // Grow the histogram to cover x: at least double, so a run's slowly rising
  // maximum costs few reallocations.
  const std::size_t want = std::max<std::size_t>({std::size_t{x} + 1, dense_.size() * 2, 256});
  dense_.resize(std::min<std::size_t>(want, kDense), 0);
  ++dense_[x];
}

std::uint32_t CycleSamples::at_rank(std::uint64_t r) const {
  if (r < 1 || r > count_)
    throw std::out_of_range("CycleSamples::at_rank(" + std::to_string(r) + ") of " + std::to_string(count_) +
                            " samples");
  for (std::size_t v = 0; v < dense_.size(); ++v) {
    if (r <= dense_[v]) return static_cast<std::uint32_t>(v);
    r -= dense_[v];
  }
  if (!sparse_sorted_) {
    std::sort(sparse_.begin(), sparse_.end());
    sparse_sorted_ = true;
  }
  return sparse_.at(r - 1);
}

nlohmann::json summarize_cycles(const CycleSamples& v, double us_per_cycle) {
  nlohmann::json j;
  j["count"] = v.size();
  if (v.empty()) return j;
  auto pct = [&](double q) {   // nearest-rank percentile
    const auto rank = static_cast<std::uint64_t>(std::ceil(q * static_cast<double>(v.size())));
    return v.at_rank(std::max<std::uint64_t>(rank, 1));
  };
  const double mean = static_cast<double>(v.sum()) / static_cast<double>(v.size());
  j["mean"] = mean;
  j["min"] = v.min();
  j["p50"] = pct(0.50);
  j["p95"] = pct(0.95);
  j["p99"] = pct(0.99);
  j["max"] = v.max();
  j["mean_us"] = mean * us_per_cycle;
  return j;
}

nlohmann::json summarize_cycles(const std::vector<std::uint32_t>& v, double us_per_cycle) {
  CycleSamples s;
  for (auto x : v) s.add(x);
  return summarize_cycles(s, us_per_cycle);
}

double checked_fraction(double busy, double elapsed, const char* what) {
  if (elapsed <= 0) return 0.0;
  const double f = busy / elapsed;
  if (!(f >= 0.0 && f <= 1.0 + 1e-12))
    throw std::logic_error(std::string(what) + " = " + std::to_string(f) + " is outside [0, 1] (busy " +
                           std::to_string(busy) + " of " + std::to_string(elapsed) + " cycles)");
  return f;
}

}  // namespace wormcast
