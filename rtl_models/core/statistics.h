// Statistics a run reports. A module or plug-in registers what it measures
// (a dotted name under "metrics", its unit and meaning, and a probe that
// reads the value when the run ends); the runner collects every registered
// statistic into the JSON/CSV results without knowing any of them, much as
// SST components declare their statistics. The runner names the owner of
// each group of registrations (the run itself, the network kind, the node
// model, the workload); the results' "statistics" list and `wormcast stats`
// print name, unit, meaning and owner.
#pragma once

#include <functional>
#include <nlohmann/json.hpp>
#include <cstdint>
#include <string>
#include <vector>

namespace wormcast {

struct StatisticInfo {
  std::string name;          // dotted path under "metrics", e.g. "link_utilization"
  std::string unit;          // "cycles", "flits/cycle/node", "fraction", ...
  std::string description;
  std::string owner;         // who registered it, e.g. "network kind 'torus'"
};

class Statistics {
 public:
  using Probe = std::function<nlohmann::json()>;
  // Throws std::logic_error for a name registered twice or one that nests
  // inside another statistic.
  void add(std::string name, std::string unit, std::string description, Probe probe);
  // The owner of the statistics added from now on.
  void set_owner(std::string owner) { owner_ = std::move(owner); }
  // Every statistic's value, nested by its dotted name.
  nlohmann::json collect() const;
  std::vector<StatisticInfo> list() const;

 private:
  struct Entry {
    StatisticInfo info;
    Probe probe;
  };
  std::vector<Entry> entries_;
  std::string owner_;
};

// The owner name of a plug-in's statistics: "what 'name' (selector)", e.g.
// "network kind 'torus' (topology.kind)".
std::string plugin_owner(const std::string& what, const std::string& name, const std::string& selector);

// The statistics' metadata as JSON: one object per statistic (name as its
// path under "metrics", unit, description, owner), in registration order.
nlohmann::json describe_statistics(const std::vector<StatisticInfo>& list);

// A run's cycle counts (latencies), kept as a histogram: count, sum, min,
// max and nearest-rank percentiles are exact, and memory grows with the
// largest value (a count per cycle value below kDense, typically a few
// hundred), not with the number of samples. A list of every latency grew
// by reallocation during the run, and each fresh block of memory cost page
// faults inside the measured simulation (docs/performance.md). Values of
// kDense cycles or more (a saturated run) are kept one by one.
class CycleSamples {
 public:
  static constexpr std::uint32_t kDense = 1u << 16;
  void add(std::uint32_t x) {
    if (x < dense_.size()) {
      ++dense_[x];
    } else {
      add_outside(x);
    }
    ++count_;
    sum_ += x;
  }
  std::uint64_t size() const { return count_; }
  bool empty() const { return count_ == 0; }
  std::uint64_t sum() const { return sum_; }
  // The value of nearest rank r (1 <= r <= size()) in ascending order.
  std::uint32_t at_rank(std::uint64_t r) const;
  std::uint32_t min() const { return at_rank(1); }
  std::uint32_t max() const { return at_rank(count_); }

 private:
  void add_outside(std::uint32_t x);
  std::vector<std::uint64_t> dense_;            // dense_[v] = how many samples equal v
  mutable std::vector<std::uint32_t> sparse_;   // samples >= kDense, sorted on demand
  mutable bool sparse_sorted_ = true;
  std::uint64_t count_ = 0, sum_ = 0;
};

// Count, mean, min, nearest-rank p50/p95/p99, max and the mean in
// microseconds of a run's cycle counts (latencies).
nlohmann::json summarize_cycles(const CycleSamples& v, double us_per_cycle);
nlohmann::json summarize_cycles(const std::vector<std::uint32_t>& v, double us_per_cycle);
// Count, mean, min, max of a list of values (and the mean in microseconds
// when us_per_unit > 0: the values are cycles).
nlohmann::json summarize_values(const std::vector<double>& v, double us_per_unit = 0);

// A fraction of time (busy cycles / elapsed cycles): asserted in [0, 1], so a
// miscounted busy time fails loudly instead of reporting 108 % utilisation.
double checked_fraction(double busy, double elapsed, const char* what);

}  // namespace wormcast
