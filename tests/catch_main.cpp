// Catch2 runner for every wormcast test binary. The Catch session runs inside
// sc_main, entered through SystemC's sc_elab_and_sim like any SystemC program.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <systemc>

#include <spdlog/spdlog.h>

#include <cstdlib>

int main(int argc, char* argv[]) {
  setenv("SYSTEMC_DISABLE_COPYRIGHT_MESSAGE", "1", 0);
  return sc_core::sc_elab_and_sim(argc, argv);
}

int sc_main(int argc, char* argv[]) {
  spdlog::set_level(spdlog::level::warn);   // runs log progress at info
  return Catch::Session().run(argc, argv);
}
