// Catch2 runner for every wormcast test binary. libsystemc supplies main() and
// calls sc_main(), so the Catch session is started from sc_main.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>
#include <systemc>

int sc_main(int argc, char* argv[]) { return Catch::Session().run(argc, argv); }
