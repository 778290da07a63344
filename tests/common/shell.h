// Running commands from tests: the wormcast binary under test and a shell
// helper that captures output and exit code.
#pragma once

#include <catch2/catch.hpp>
#include <sys/wait.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <string>

namespace wormcast::test {

struct CommandOutput {
  int code;           // exit status (128 if the command did not exit normally)
  std::string text;   // what it printed
};

// The binary built with the tests; WORMCAST_BIN lets a user test another build.
inline std::string wormcast_bin() {
  const char* b = std::getenv("WORMCAST_BIN");
  return b ? b : WORMCAST_BIN_PATH;
}

// Runs `cmd` with /bin/sh; stderr joins stdout unless `merge_stderr` is false
// (then it is discarded).
inline CommandOutput shell(const std::string& cmd, bool merge_stderr = true) {
  FILE* p = popen((cmd + (merge_stderr ? " 2>&1" : " 2>/dev/null")).c_str(), "r");
  REQUIRE(p);
  std::string text;
  std::array<char, 8192> buf{};
  while (fgets(buf.data(), buf.size(), p)) text += buf.data();
  const int status = pclose(p);
  return CommandOutput{WIFEXITED(status) ? WEXITSTATUS(status) : 128, text};
}

}  // namespace wormcast::test
