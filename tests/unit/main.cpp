// Catch2 entry point for dlperf's run-time tests.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
