/// @file
/// A price file as a request names it (`--prices FILE`, `prices=`): the GPUs' prices, cloud
/// prices and hosts it gives, in place of the catalog's (docs/buying.md, "Prices").
#pragma once

#include <dlperf/buying/prices.hpp>
#include <string>

namespace dlperf::app {

/// The prices of price file @p file, or the catalog's launch prices when @p file is empty; a
/// non-empty @p host_cost (`--host-cost USD`) replaces the host of every size (0 leaves the host
/// out). Throws request_error naming --prices and the file for a file that cannot be read or is
/// not a valid price file, and naming --host-cost for a cost outside its plausible range.
price_table read_price_file(const std::string& file, const std::string& host_cost = "");

}  // namespace dlperf::app
