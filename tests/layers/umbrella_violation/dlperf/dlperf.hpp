// A test tree for check_umbrella.cmake: the umbrella forgets core/forgotten.hpp.
#pragma once
#include <dlperf/core/included.hpp>
