// A deliberate violation for the layering check's own test: a core header including an estimator.
#pragma once
#include <dlperf/estimate/roofline.hpp>
