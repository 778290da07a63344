// Parameter declaration interface. Every configurable module describes its
// parameters once, in a `visit(ParamVisitor&)` member of its params struct:
// key, current value (the struct's default), unit and a one-line description.
// The same declaration drives YAML loading with validation, `wormcast params`
// listings and the configuration echoed into results files.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace wormcast {

using Cycle = std::uint64_t;

class ParamVisitor {
 public:
  virtual ~ParamVisitor() = default;
  // A count of clock cycles; files may write "12", "12cycles", or a time
  // ("5ns", "2us") that is converted with the clock period (rounded to the
  // nearest cycle, must be exact to 1e-9 relative).
  virtual void cycles(const char* key, Cycle& v, const char* desc, Cycle min = 0,
                      Cycle max = UINT64_MAX) = 0;
  // A number of flits; files may write "128" or "128flits".
  virtual void flits(const char* key, int& v, const char* desc, int min = 1,
                     int max = 1 << 30) = 0;
  // A time in picoseconds; files write "5ns", "5000ps", "2.5us".
  virtual void time_ps(const char* key, std::uint64_t& v, const char* desc,
                       std::uint64_t min = 1) = 0;
  // Bytes per second; files write "266MB/s", "1.2GB/s".
  virtual void bandwidth(const char* key, double& v, const char* desc) = 0;
  virtual void integer(const char* key, std::int64_t& v, const char* unit, const char* desc,
                       std::int64_t min, std::int64_t max) = 0;
  virtual void count(const char* key, int& v, const char* desc, int min, int max) = 0;
  // A real number; `percent_ok` lets files write "80%" for 0.8.
  virtual void real(const char* key, double& v, const char* unit, const char* desc,
                    double min, double max, bool percent_ok = false) = 0;
  virtual void choice(const char* key, std::string& v, const std::vector<std::string>& options,
                      const char* desc) = 0;
  virtual void boolean(const char* key, bool& v, const char* desc) = 0;
  virtual void text(const char* key, std::string& v, const char* desc) = 0;
  virtual void seed(const char* key, std::uint64_t& v, const char* desc) = 0;
  // A list of integers, each in [min, max]; files write `[8, 8]` (or, on
  // the command line, `8x8` / `8,8`). Not pure: a visitor with no use for
  // lists need not override it (it then ignores list keys).
  virtual void int_list(const char* /*key*/, std::vector<int>& /*v*/, const char* /*desc*/, int /*min*/,
                        int /*max*/) {}
  // Enter/leave a nested section ("switch", "link", ...).
  virtual void begin_section(const char* name, const char* desc) = 0;
  virtual void end_section() = 0;
  // The clock period once known, so later cycle parameters may be written
  // as times ("5us").
  virtual void set_clock_period_ps(std::uint64_t) {}
};

}  // namespace wormcast
