// This process's own memory figures. getrusage's ru_maxrss is not used: a
// process started from a large parent (a Python driver) reports the parent's
// peak. /proc/self/status VmHWM starts afresh at exec, and it can be reset
// (clear_refs) so a benchmark reports each case's own peak.
#pragma once

#include <fstream>
#include <string>

namespace wormcast {

// Peak resident set size (VmHWM) in MB; 0 if /proc is unavailable.
inline double peak_rss_mb() {
  std::ifstream f("/proc/self/status");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("VmHWM:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;   // "VmHWM:  1234 kB"
  return 0.0;
}

// Resets the peak to the current RSS (Linux >= 4.0). Returns false if not possible.
inline bool reset_peak_rss() {
  std::ofstream f("/proc/self/clear_refs");
  f << "5";
  return static_cast<bool>(f.flush());
}

}  // namespace wormcast
