// This process's own memory figures. getrusage's ru_maxrss is not used: a
// process started from a large parent (a Python driver) reports the parent's
// peak. /proc/self/status VmHWM starts afresh at exec, and it can be reset
// (clear_refs) so a benchmark reports each case's own peak.
#pragma once

#include <dlfcn.h>
#include <malloc.h>

#include <cstddef>
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

namespace detail {
// jemalloc's control interface when the process runs on it (the wormcast tool
// is linked with it, testbenches/jemalloc_config.cpp), else null: looked up
// at run time so the libraries work under either allocator.
using Mallctl = int (*)(const char*, void*, std::size_t*, void*, std::size_t);
inline Mallctl mallctl_fn() { return reinterpret_cast<Mallctl>(dlsym(RTLD_DEFAULT, "mallctl")); }
}  // namespace detail

// The allocator this process runs on, for the speed figures (`performance`
// in results, `wormcast bench`): it decides how fast fresh memory comes.
inline const char* allocator_name() { return detail::mallctl_fn() ? "jemalloc" : "glibc"; }

// Hands the allocator's free pages back to the system. jemalloc keeps freed
// pages for a while (its decay), glibc keeps the top of its heap: without
// this, memory a previous benchmark case freed would still count in the
// next case's peak.
inline void release_free_memory() {
  if (const detail::Mallctl f = detail::mallctl_fn())
    f("arena.4096.purge", nullptr, nullptr, nullptr, 0);   // 4096: MALLCTL_ARENAS_ALL, every arena
  else
    malloc_trim(0);
}

// Releases free memory (above), then resets the peak to the current RSS
// (Linux >= 4.0). Returns false if not possible.
inline bool reset_peak_rss() {
  release_free_memory();
  std::ofstream f("/proc/self/clear_refs");
  f << "5";
  return static_cast<bool>(f.flush());
}

}  // namespace wormcast
