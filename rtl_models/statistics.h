// Statistics a run reports. A module or plug-in registers what it measures
// (a dotted name under "metrics", its unit and meaning, and a probe that
// reads the value when the run ends); the runner collects every registered
// statistic into the JSON/CSV results without knowing any of them, much as
// SST components declare their statistics. `wormcast stats` lists them.
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
};

class Statistics {
 public:
  using Probe = std::function<nlohmann::json()>;
  // Throws std::logic_error for a name registered twice or one that nests
  // inside another statistic.
  void add(std::string name, std::string unit, std::string description, Probe probe);
  // Every statistic's value, nested by its dotted name.
  nlohmann::json collect() const;
  std::vector<StatisticInfo> list() const;

 private:
  struct Entry {
    StatisticInfo info;
    Probe probe;
  };
  std::vector<Entry> entries_;
};

// Count, mean, min, nearest-rank p50/p95/p99, max and the mean in
// microseconds of a list of cycle counts (latencies).
nlohmann::json summarize_cycles(std::vector<std::uint32_t> v, double us_per_cycle);
// Count, mean, min, max of a list of values (and the mean in microseconds
// when us_per_unit > 0: the values are cycles).
nlohmann::json summarize_values(const std::vector<double>& v, double us_per_unit = 0);

// A fraction of time (busy cycles / elapsed cycles): asserted in [0, 1], so a
// miscounted busy time fails loudly instead of reporting 108 % utilisation.
double checked_fraction(double busy, double elapsed, const char* what);

}  // namespace wormcast
