#include "testbenches/app/units.h"

#include <cctype>
#include <cmath>
#include <cstdio>
#include <stdexcept>

namespace wormcast::tb {

namespace {

std::string trim(const std::string& s) {
  std::size_t b = 0, e = s.size();
  while (b < e && std::isspace(static_cast<unsigned char>(s[b]))) ++b;
  while (e > b && std::isspace(static_cast<unsigned char>(s[e - 1]))) --e;
  return s.substr(b, e - b);
}

// Split "12.5ns" into number 12.5 and unit "ns". Throws if no number.
void split(const std::string& text, double& value, std::string& unit) {
  const std::string t = trim(text);
  std::size_t pos = 0;
  try {
    value = std::stod(t, &pos);
  } catch (const std::exception&) {
    throw std::invalid_argument("'" + text + "' is not a number");
  }
  if (!std::isfinite(value)) throw std::invalid_argument("'" + text + "' is not a finite number");
  unit = trim(t.substr(pos));
}

bool is_whole(double v) { return std::fabs(v - std::round(v)) <= 1e-9 * std::max(1.0, std::fabs(v)); }

// Whole numbers are converted through double: beyond 2^53 they are no longer
// exact, and beyond 2^63 std::llround has no result (a cycle count of 2^64
// would become 2^63; tests/fuzz/fuzz_loaders.py tries such values).
constexpr double kLargestWhole = 9007199254740992.0;   // 2^53

std::int64_t whole(double v, const std::string& text, const char* what) {
  if (std::fabs(v) > kLargestWhole)
    throw std::invalid_argument("'" + text + "' is too large a number of " + what + " (at most 2^53)");
  return static_cast<std::int64_t>(std::llround(v));
}

}  // namespace

std::uint64_t parse_time_ps(const std::string& text) {
  double v;
  std::string u;
  split(text, v, u);
  double scale;
  if (u == "ps") scale = 1;
  else if (u == "ns") scale = 1e3;
  else if (u == "us") scale = 1e6;
  else if (u == "ms") scale = 1e9;
  else if (u == "s") scale = 1e12;
  else throw std::invalid_argument("'" + text + "' needs a time unit (ps, ns, us, ms, s), e.g. 5ns");
  const double ps = v * scale;
  if (ps <= 0) throw std::invalid_argument("'" + text + "' must be a positive time");
  if (!is_whole(ps)) throw std::invalid_argument("'" + text + "' is not a whole number of picoseconds");
  return static_cast<std::uint64_t>(whole(ps, text, "picoseconds"));
}

std::uint64_t parse_cycles(const std::string& text, std::uint64_t period_ps) {
  double v;
  std::string u;
  split(text, v, u);
  if (u.empty() || u == "cycles" || u == "cycle") {
    if (v < 0 || !is_whole(v))
      throw std::invalid_argument("'" + text + "' must be a non-negative whole number of cycles");
    return static_cast<std::uint64_t>(whole(v, text, "cycles"));
  }
  if (v < 0) throw std::invalid_argument("'" + text + "' must not be negative");
  if (v == 0) return 0;
  const double ps = static_cast<double>(parse_time_ps(text));
  const double c = ps / static_cast<double>(period_ps);
  if (!is_whole(c))
    throw std::invalid_argument("'" + text + "' is not a whole number of clock periods (" +
                                format_time_ps(period_ps) + ")");
  return static_cast<std::uint64_t>(whole(c, text, "cycles"));
}

std::int64_t parse_flits(const std::string& text) {
  double v;
  std::string u;
  split(text, v, u);
  if (!(u.empty() || u == "flits" || u == "flit"))
    throw std::invalid_argument("'" + text + "' must be a number of flits, e.g. 128 or 128flits");
  if (!is_whole(v)) throw std::invalid_argument("'" + text + "' is not a whole number of flits");
  return whole(v, text, "flits");
}

double parse_bandwidth(const std::string& text) {
  double v;
  std::string u;
  split(text, v, u);
  double scale;
  if (u == "B/s") scale = 1;
  else if (u == "kB/s" || u == "KB/s") scale = 1e3;
  else if (u == "MB/s") scale = 1e6;
  else if (u == "GB/s") scale = 1e9;
  else throw std::invalid_argument("'" + text + "' needs a bandwidth unit (B/s, kB/s, MB/s, GB/s), e.g. 266MB/s");
  if (v <= 0) throw std::invalid_argument("'" + text + "' must be a positive bandwidth");
  return v * scale;
}

double parse_real(const std::string& text, bool percent_ok) {
  double v;
  std::string u;
  split(text, v, u);
  if (u.empty()) return v;
  if (u == "%" && percent_ok) return v / 100.0;
  throw std::invalid_argument("'" + text + "' must be a plain number" + (percent_ok ? std::string(" or a percentage like 80%") : ""));
}

std::int64_t parse_integer(const std::string& text) {
  const std::string t = trim(text);
  std::size_t pos = 0;
  long long v;
  try {
    v = std::stoll(t, &pos, 10);
  } catch (const std::exception&) {
    throw std::invalid_argument("'" + text + "' is not an integer");
  }
  if (pos != t.size()) throw std::invalid_argument("'" + text + "' is not an integer");
  return v;
}

std::string format_time_ps(std::uint64_t ps) {
  if (ps % 1000000 == 0) return std::to_string(ps / 1000000) + "us";
  if (ps % 1000 == 0) return std::to_string(ps / 1000) + "ns";
  return std::to_string(ps) + "ps";
}

std::string format_bandwidth(double b) {
  const char* unit = "B/s";
  double v = b;
  if (b >= 1e9 && std::fmod(b, 1e7) == 0) { v = b / 1e9; unit = "GB/s"; }
  else if (b >= 1e6) { v = b / 1e6; unit = "MB/s"; }
  else if (b >= 1e3) { v = b / 1e3; unit = "kB/s"; }
  char buf[64];
  std::snprintf(buf, sizeof buf, "%g%s", v, unit);
  return buf;
}

}  // namespace wormcast::tb
