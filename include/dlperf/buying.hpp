/// @file
/// The buyer's layer on top of whole models: prices and host costs, speed-ups, de-biasing,
/// ranking, advice, power, multi-GPU scaling and the cloud-or-desktop sum (docs/layers.md,
/// "Which header to include").
#pragma once

#include <dlperf/buying/advice.hpp>
#include <dlperf/buying/cloud_prices.hpp>
#include <dlperf/buying/cluster.hpp>
#include <dlperf/buying/debias.hpp>
#include <dlperf/buying/power.hpp>
#include <dlperf/buying/prices.hpp>
#include <dlperf/buying/rank.hpp>
#include <dlperf/buying/reason_text.hpp>
#include <dlperf/buying/rent.hpp>
#include <dlperf/buying/speedup.hpp>
#include <dlperf/buying/split.hpp>
#include <dlperf/buying/tco.hpp>
#include <dlperf/model.hpp>
