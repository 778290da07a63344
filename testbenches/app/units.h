// Parsing of physical quantities written in experiment files and on the
// command line: times ("5ns", "2.5us", "5000ps"), cycle counts ("12",
// "12cycles", or a time converted with the clock period), flit counts ("128",
// "128flits"), bandwidths ("266MB/s", "1.2GB/s") and percentages ("80%").
// Errors throw std::invalid_argument with a message naming the text and the
// expected form; callers prefix the file and key.
#pragma once

#include <cstdint>
#include <string>

namespace wormcast::tb {

// Picoseconds (> 0 fractions of a ps rejected).
std::uint64_t parse_time_ps(const std::string& text);
// Cycles: plain integer, "Ncycles"/"Ncycle", or a time that must be a whole
// number of clock periods.
std::uint64_t parse_cycles(const std::string& text, std::uint64_t period_ps);
// Flits: plain integer or "Nflits"/"Nflit".
std::int64_t parse_flits(const std::string& text);
// Bytes per second: "266MB/s", "1GB/s", "200kB/s", "1000B/s" (decimal SI).
double parse_bandwidth(const std::string& text);
// A real number, or with percent_ok "80%" -> 0.8.
double parse_real(const std::string& text, bool percent_ok);
std::int64_t parse_integer(const std::string& text);
std::string format_time_ps(std::uint64_t ps);
std::string format_bandwidth(double bytes_per_s);   // "266MB/s"

}  // namespace wormcast::tb
